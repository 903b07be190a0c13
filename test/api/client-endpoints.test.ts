/**
 * Contract: every rule endpoint of docs/interface.md, against the simulator.
 */
import { ApiError, filter, group } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { clientFor, rejectionOf, sampleRules } from "./helpers";

const sim = useSimulator();

describe("RuleListClient against the simulator", () => {
  it("exposes its tenant and base URL", () => {
    const { client } = clientFor({ ...sim, url: `${sim.url}/` });
    expect(client.tenantId).toBe(sim.tenantId);
    expect(client.baseUrl).toBe(sim.url);
  });

  it("queryUsers returns the users of a rule, typed", async () => {
    // given
    const { client } = clientFor(sim);
    const { inclusion } = sampleRules(sim);
    // when
    const response = await client.queryUsers(inclusion);
    // then
    expect(response.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(response.usersToAlertOn).toBe("SPECIFIED_USERS");
    const expected = sim.rule(inclusion)!.users;
    expect(response.users.map((u) => [u.userIdFromAuthority, u.userAliasList])).toEqual(
      expected.map((u) => [u.userIdFromAuthority, u.userAliasList]),
    );
  });

  it("queryUsers shows entries without IDs, and all-users and exclusion rules as such", async () => {
    const { client } = clientFor(sim);
    const rules = sampleRules(sim);
    const withoutIds = await client.queryUsers(rules.withoutIds);
    expect(withoutIds.users.some((u) => u.userIdFromAuthority === null || /\s/.test(u.userIdFromAuthority))).toBe(true);
    expect((await client.queryUsers(rules.allUsers)).usersToAlertOn).toBe("ALL_USERS");
    expect((await client.queryUsers(rules.exclusion)).usersToAlertOn).toBe("ALL_USERS_NOT_SPECIFIED");
  });

  it("addUsers, removeUserAliases, removeUsers and removeAllUsers change the list", async () => {
    // given an exclusion rule
    const { client } = clientFor(sim);
    const { exclusion } = sampleRules(sim);
    // when a user is added
    await client.addUsers(exclusion, [{ userIdFromAuthority: "u-new-1", userAliasList: ["new.one@example.com", "n1@corp.example"] }]);
    // then it is listed
    let users = (await client.queryUsers(exclusion)).users;
    expect(users.find((u) => u.userIdFromAuthority === "u-new-1")?.userAliasList).toEqual(["new.one@example.com", "n1@corp.example"]);

    // when one alias is removed
    await client.removeUserAliases(exclusion, [{ userIdFromAuthority: "u-new-1", userAliasList: ["n1@corp.example"] }]);
    users = (await client.queryUsers(exclusion)).users;
    expect(users.find((u) => u.userIdFromAuthority === "u-new-1")?.userAliasList).toEqual(["new.one@example.com"]);

    // when the user is removed
    await client.removeUsers(exclusion, ["u-new-1"]);
    users = (await client.queryUsers(exclusion)).users;
    expect(users.find((u) => u.userIdFromAuthority === "u-new-1")).toBeUndefined();
    expect(users.length).toBeGreaterThan(0);

    // when all are removed
    await client.removeAllUsers(exclusion);
    expect((await client.queryUsers(exclusion)).users).toEqual([]);
  });

  it("counts one call and one attempt per request when nothing fails, and reports each attempt", async () => {
    const { client, events } = clientFor(sim);
    const { inclusion } = sampleRules(sim);
    await client.queryUsers(inclusion);
    await client.addUsers(inclusion, [{ userIdFromAuthority: "u-count", userAliasList: ["count@example.com"] }]);
    expect(client.counter.snapshot()).toEqual({
      byOperation: { "add-users": { calls: 1, attempts: 1 }, "query-users": { calls: 1, attempts: 1 } },
      calls: 2,
      attempts: 2,
    });
    expect(events).toEqual([
      expect.objectContaining({ operation: "query-users", ruleId: inclusion, attempt: 1, status: 200, outcome: "ok" }),
      expect.objectContaining({ operation: "add-users", ruleId: inclusion, attempt: 1, status: 200, outcome: "ok" }),
    ]);
    client.counter.reset();
    expect(client.counter.snapshot().calls).toBe(0);
  });

  it("queryRuleMetadataPage returns one typed page", async () => {
    const { client } = clientFor(sim);
    const page = await client.queryRuleMetadataPage([group([filter("IsSystem", "Is", "False")])], { pageSize: 100 });
    expect(page.type$).toBe("RULE_METADATA_SEARCH_RESPONSE");
    expect(page.problems).toEqual([]);
    expect(page.ruleMetadata.every((r) => !r.isSystem)).toBe(true);
    expect(page.totalCount).toBe(sim.rules().filter((r) => !r.metadata.isSystem).length);
  });

  it("refuses an invalid filter as a 400 ApiError without a rule", async () => {
    const { client } = clientFor(sim);
    const error = await rejectionOf(
      client.queryRuleMetadataPage([{ filters: [{ term: "Name", operator: "LIKE", value: "x" }], filterClause: "AND" }]),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, operation: "query-rule-metadata", retryable: false, attempts: 1 });
    expect((error as ApiError).ruleId).toBeUndefined();
  });
});
