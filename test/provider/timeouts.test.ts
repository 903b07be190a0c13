/**
 * The resource's `timeouts` block (src/provider/timeouts.ts), against a slow simulator: a call past
 * its deadline that has sent nothing stops and says which timeout, and nothing is sent after; a
 * call already writing is never cut, and warns; a value that is not a duration fails validate.
 */
import { RULE_USER_LIST } from "../../src/provider/schema";
import type { ObjectValue } from "../../src/provider/protocol";
import { useSimulator } from "../support/simulator";
import { writesOf } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { EMPTY, configuredProvider, errorsOf, resourceConfig, usersLiteral as users } from "./support";

const sim = useSimulator({}, { perTest: true });

const ERIN = { userId: "908712345678901238", aliases: ["erin.walker@example.com"] };

async function planned(timeouts: ObjectValue) {
  const { provider } = await configuredProvider(sim);
  const resource = provider.resources[RULE_USER_LIST]!;
  const config = resourceConfig({ rule_id: RULES.engineering, users: users([...ENGINEERING_USERS, ERIN]), timeouts });
  const plan = await resource.planResourceChange({ prior: null, proposed: config, config, priorPrivate: EMPTY });
  expect(errorsOf(plan.diagnostics)).toEqual([]);
  return { resource, config, plan };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the timeouts block", () => {
  it("stops a create whose deadline passes before its first write: an error naming timeouts.create, and nothing sent, then or later", async () => {
    // given a plan, and a service whose reads now take 1.5 s (apply reads again before writing)
    const { resource, config, plan } = await planned({ create: "1s", read: null, update: null, delete: null });
    sim.resetCounts();
    sim.setFaults({ latencyMs: 1500, operations: ["query-users"] });
    // when applied
    const applied = await resource.applyResourceChange({ prior: null, planned: plan.planned, config, plannedPrivate: plan.plannedPrivate ?? EMPTY });
    // then
    expect(errorsOf(applied.diagnostics)).toEqual([expect.objectContaining({ summary: "create timed out", attribute: ["timeouts", "create"] })]);
    expect(applied.diagnostics![0]!.detail).toMatch(/timeouts\.create = "1s": nothing was sent for this rule/);
    expect(applied.state).toBeNull();
    await sleep(2500); // the read in flight ends; the call it belonged to must not write
    expect(writesOf(sim.requestCounts())).toEqual({});
  }, 30_000);

  it("never cuts a call that has begun writing: the list converges, and a warning says the timeout passed", async () => {
    const { resource, config, plan } = await planned({ create: "1s", read: null, update: null, delete: null });
    sim.setFaults({ latencyMs: 1500, operations: ["add-users"] });
    const applied = await resource.applyResourceChange({ prior: null, planned: plan.planned, config, plannedPrivate: plan.plannedPrivate ?? EMPTY });
    expect(errorsOf(applied.diagnostics)).toEqual([]);
    expect(applied.diagnostics).toContainEqual(expect.objectContaining({ severity: "warning", summary: "create took longer than its timeout" }));
    expect(sim.rule(RULES.engineering)!.users.map((u) => u.userIdFromAuthority)).toContain(ERIN.userId);
  }, 30_000);

  it("bounds a refresh by timeouts.read: the state stays as it was, with an error naming the timeout", async () => {
    const { provider } = await configuredProvider(sim);
    const state = resourceConfig({ id: RULES.engineering, rule_id: RULES.engineering, users: users(ENGINEERING_USERS), timeouts: { create: null, read: "1s", update: null, delete: null } });
    sim.setFaults({ latencyMs: 1500, operations: ["search-rules", "query-users"] });
    const read = await provider.resources[RULE_USER_LIST]!.readResource({ state, private: EMPTY });
    expect(read.state).toBe(state);
    expect(errorsOf(read.diagnostics)).toEqual([expect.objectContaining({ summary: "read timed out", attribute: ["timeouts", "read"] })]);
    await sleep(2500); // the read left in flight ends before the simulator stops
  }, 30_000);

  it("refuses at validate a timeout that is not a duration, naming its path", async () => {
    const { provider } = await configuredProvider(sim);
    const config = resourceConfig({ rule_id: RULES.engineering, users: {}, timeouts: { create: "5 minutes", read: null, update: "10m", delete: null } });
    const diagnostics = await provider.resources[RULE_USER_LIST]!.validateResourceConfig!(config);
    expect(diagnostics).toEqual([expect.objectContaining({ summary: "Invalid timeout", attribute: ["timeouts", "create"], detail: expect.stringContaining('"30s", "5m", "1h"') as unknown })]);
  });
});
