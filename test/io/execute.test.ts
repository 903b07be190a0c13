/**
 * The executor (src/io/execute.ts) against the simulator: it sends an admitted plan's calls in
 * order, reads every changed rule back, guards remove-all-users with a read right before it, stops
 * at the workflow's hook before any write, and reads back after a write whose answer was lost.
 */
import { RuleListClient } from "../../src/api";
import { AlertRuleUsersError } from "../../src/errors";
import { applyPlan } from "../../src/io/execute";
import { declared, user } from "../support/builders";
import { listing, writesOf } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { planAgainst } from "./plan-against";

const sim = useSimulator({}, { perTest: true });
const client = () => new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, sleep: () => Promise.resolve() });

const NEWCOMER = user("908712345678909999", "newcomer@example.com");
/** Engineering without its last user, with a newcomer: one add-users, one remove-users. */
const engineering = declared([...ENGINEERING_USERS.slice(0, 3), NEWCOMER], { ruleId: RULES.engineering });
/** Research declared with its one user: its two entries without IDs make the plan a rebuild. */
const research = () => {
  const users = sim.rule(RULES.research)!.users.filter((u) => u.userIdFromAuthority !== null);
  return declared(users.map((u) => user(u.userIdFromAuthority!, ...u.userAliasList)), { ruleId: RULES.research });
};

describe("applyPlan", () => {
  it("sends each changed rule's calls in order, reads it back, and reports it applied and verified", async () => {
    // given a plan that adds one user and removes another
    const plan = await planAgainst(client(), [engineering]);
    sim.resetCounts();
    // when it is applied
    const result = await applyPlan(plan, client());
    // then the list is as declared, with one call of each, and the read back verified it
    expect(result.rules.map((r) => [r.outcome, r.verified])).toEqual([["applied", true]]);
    expect(result.rules[0]!.calls.map((c) => [c.operation, c.users, c.status])).toEqual([
      ["add-users", 1, "ok"],
      ["remove-users", 1, "ok"],
    ]);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 1, "remove-users": 1 });
    expect(listing(sim, RULES.engineering)).toContain(`${NEWCOMER.userId}:newcomer@example.com`);
  });

  it("reads the rule right before remove-all-users and sends nothing when the list changed since the plan", async () => {
    // given a rebuild planned, then a user added by someone else
    const plan = await planAgainst(client(), [research()]);
    expect(plan.rules[0]!.changes.rebuild).toBe(true);
    const changed = [...sim.rule(RULES.research)!.users, { userIdFromAuthority: "908712345678908888", userAliasList: ["someone.else@example.com"] }];
    sim.setUsers(RULES.research, changed);
    sim.resetCounts();
    // when it is applied
    const result = await applyPlan(plan, client());
    // then the rule failed and no write was sent: the other writer's user stays
    expect(result.rules[0]!.outcome).toBe("failed");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.research)).toContain("908712345678908888:someone.else@example.com");
  });

  it("refuses the whole plan, sending nothing, when the hook before the first write throws", async () => {
    // given a plan and a hook that refuses
    const plan = await planAgainst(client(), [engineering]);
    sim.resetCounts();
    const refusal = new AlertRuleUsersError("STALE_PLAN", "the branch moved");
    // when it is applied
    const applying = applyPlan(plan, client(), { beforeEachWrite: () => Promise.reject(refusal) });
    // then the refusal is thrown and nothing was written
    await expect(applying).rejects.toBe(refusal);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("reports every rule interrupted, sending nothing, when the signal was aborted before", async () => {
    const plan = await planAgainst(client(), [engineering]);
    sim.resetCounts();
    const result = await applyPlan(plan, client(), { signal: AbortSignal.abort() });
    expect(result.rules.map((r) => r.outcome)).toEqual(["interrupted"]);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("reads back after a write whose answer was lost, and reports the rule applied when the list converged", async () => {
    // given a plan, and a service that applies its last write (remove-users) but loses the answer
    const plan = await planAgainst(client(), [engineering]);
    sim.setFaults({ lostResponseRate: 1, operations: ["remove-users"] });
    // when it is applied by a client that does not retry
    const once = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, retry: { maxAttempts: 1 } });
    const result = await applyPlan(plan, once);
    // then the list is as declared, and the rule's outcome says so
    sim.setFaults({});
    expect(listing(sim, RULES.engineering)).toContain(`${NEWCOMER.userId}:newcomer@example.com`);
    expect(result.rules[0]).toMatchObject({ outcome: "applied", verified: true });
    expect(result.rules[0]!.calls.map((c) => [c.operation, c.status])).toEqual([
      ["add-users", "ok"],
      ["remove-users", "failed"],
    ]);
  });
});
