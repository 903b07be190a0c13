/**
 * Contract: refusals of the service become ApiErrors carrying status, service code and rule.
 */
import { ApiError } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { clientFor, rejectionOf, sampleRules } from "./helpers";

const sim = useSimulator();

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const aUser = [{ userIdFromAuthority: "u-1", userAliasList: ["someone@example.com"] }];

describe("refusals", () => {
  it.each([
    ["Departing Employee", "departing"],
    ["High Risk Employee", "highRisk"],
  ] as const)("refuses writes to a %s system rule with 400 RULE_IS_SYSTEM", async (_label, kind) => {
    // given
    const { client } = clientFor(sim);
    const ruleId = sampleRules(sim)[kind];
    const before = sim.rule(ruleId)!.users;
    // when
    const errors = [
      await apiError(client.addUsers(ruleId, aUser)),
      await apiError(client.removeUsers(ruleId, ["u-1"])),
      await apiError(client.removeUserAliases(ruleId, aUser)),
      await apiError(client.removeAllUsers(ruleId)),
    ];
    // then
    for (const error of errors) {
      expect(error).toMatchObject({ kind: "http", status: 400, serviceCode: "RULE_IS_SYSTEM", ruleId, retryable: false, attempts: 1 });
      expect(error.message).toMatch(new RegExp(`^${error.operation} for rule '${ruleId}' failed: 400 RULE_IS_SYSTEM: .+`));
      expect(error.serviceMessage).toBeDefined();
    }
    expect(errors.map((e) => e.operation)).toEqual(["add-users", "remove-users", "remove-user-aliases", "remove-all-users"]);
    expect(sim.rule(ruleId)!.users).toEqual(before);
  });

  it("refuses writes to a rule that monitors all users with 400 RULE_MONITORS_ALL_USERS", async () => {
    const { client } = clientFor(sim);
    const { allUsers } = sampleRules(sim);
    const error = await apiError(client.addUsers(allUsers, aUser));
    expect(error).toMatchObject({ status: 400, serviceCode: "RULE_MONITORS_ALL_USERS", ruleId: allUsers, operation: "add-users" });
    expect((await apiError(client.removeUsers(allUsers, ["u-1"]))).serviceCode).toBe("RULE_MONITORS_ALL_USERS");
  });

  it("reports an unknown rule as 404 with the rule ID, for reads and writes", async () => {
    const { client } = clientFor(sim);
    const read = await apiError(client.queryUsers("no-such-rule"));
    expect(read).toMatchObject({ status: 404, ruleId: "no-such-rule", operation: "query-users", retryable: false });
    expect(read.serviceCode).toBeDefined();
    expect(read.message).toMatch(/^query-users for rule 'no-such-rule' failed: 404 /);
    expect(read.message).toMatch(/Check the rule ID/);
    const write = await apiError(client.removeAllUsers("no-such-rule"));
    expect(write).toMatchObject({ status: 404, ruleId: "no-such-rule" });
  });

  it("reports a wrong token as 401 UNAUTHORIZED and says where the token comes from", async () => {
    const { client } = clientFor({ ...sim, token: "not-the-right-token" });
    const error = await apiError(client.queryUsers(sampleRules(sim).inclusion));
    expect(error).toMatchObject({ status: 401, serviceCode: "UNAUTHORIZED", retryable: false, attempts: 1 });
    expect(error.message).toMatch(/ALERTS_API_TOKEN/);
  });

  it("reports a wrong tenant as 403 TENANT_MISMATCH", async () => {
    const { client } = clientFor({ ...sim, tenantId: "someone-elses-tenant" });
    const error = await apiError(client.queryUsers(sampleRules(sim).inclusion));
    expect(error).toMatchObject({ status: 403, serviceCode: "TENANT_MISMATCH", retryable: false });
    expect(error.message).toMatch(/ALERTS_TENANT_ID/);
    const search = await apiError(client.searchRuleMetadata([]));
    expect(search).toMatchObject({ status: 403, operation: "query-rule-metadata" });
  });

  it("does not retry refusals", async () => {
    const { client, events } = clientFor(sim);
    await apiError(client.addUsers(sampleRules(sim).departing, aUser));
    expect(events).toEqual([expect.objectContaining({ operation: "add-users", attempt: 1, status: 400, outcome: "error" })]);
  });
});
