/**
 * The workflow's steps (src/io/workflow) against the simulator, through a connected session as a
 * library caller makes one: getPlan observes and plans (the token never in the plan), applyFresh
 * plans, asks, reads again after a person's answer, sends and verifies; a declined plan sends nothing.
 */
import { RuleListClient } from "../../src/api";
import { applyFresh, connectedSession, getPlan, type Session } from "../../src/io";
import { declared, user } from "../support/builders";
import { writesOf } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { ENGINEERING_USERS, RULES } from "../support/sample";

const sim = useSimulator({}, { perTest: true });

function session(): Session {
  const client = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, sleep: () => Promise.resolve() });
  return connectedSession(client, { baseUrl: sim.url, tenantId: sim.tenantId }, { parallelism: 2, pageSize: 100, batchSize: 100 });
}

const clock = () => ({ createdAt: new Date("2026-01-01T00:00:00Z") });
const engineering = declared([...ENGINEERING_USERS, user("908712345678909999", "newcomer@example.com")], { ruleId: RULES.engineering });

describe("the workflow's steps", () => {
  it("getPlan: the declaration observed and planned, one add-users, no token in the plan", async () => {
    const plan = await getPlan([engineering], session(), { ...clock(), secrets: [sim.token] });
    expect(plan.rules.map((r) => [r.action, r.calls.map((c) => c.operation)])).toEqual([["update", ["add-users"]]]);
    expect(JSON.stringify(plan)).not.toContain(sim.token);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("applyFresh: confirmed by a person, read again, sent and verified; a second plan is empty", async () => {
    // given a declaration that adds one user
    const hooks = { confirm: () => Promise.resolve(true), recheckAfterConfirm: true };
    // when it is applied
    const applied = await applyFresh([engineering], session(), {}, clock(), hooks);
    // then it was sent and verified, and planning again finds nothing to do
    expect(applied.kind).toBe("applied");
    if (applied.kind === "applied") expect(applied.result.rules.map((r) => [r.outcome, r.verified])).toEqual([["applied", true]]);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 1 });
    const again = await getPlan([engineering], session(), clock());
    expect(again.rules.map((r) => r.action)).toEqual(["no-op"]);
  });

  it("applyFresh: declined, nothing is sent", async () => {
    const applied = await applyFresh([engineering], session(), {}, clock(), { confirm: () => Promise.resolve(false), recheckAfterConfirm: true });
    expect(applied.kind).toBe("cancelled");
    expect(writesOf(sim.requestCounts())).toEqual({});
  });
});
