/**
 * Property: for random declared and live lists, applying the plan to the simulator and planning
 * again yields no changes, and the calls sent never exceed the bound of docs/contract.md §4.
 */
import { RuleListClient } from "../../src/api";
import { applyPlan } from "../../src/io/execute";
import type { Plan, PlannedUser } from "../../src/core/engine/plan-schema";
import type { DesiredList } from "../../src/core/engine/desired";
import { observe } from "../../src/io/observe";
import { buildPlan } from "../../src/core/engine/build-plan";
import { WRITE_OPERATION_LIST } from "../../src/core/engine/operations";
import { useSimulator } from "../support/simulator";
import { prng } from "../support/builders";
import { RULES } from "../support/sample";
import { TOOL_VERSION } from "../../src/io/version";

const EDITABLE = [RULES.engineering, RULES.cloudSharing, RULES.finance, RULES.sales, RULES.legal, RULES.research];
const SKIPPED = [RULES.allUsers, RULES.departing];
const IDS = Array.from({ length: 10 }, (_, i) => `70${i}`);
const ALIASES = Array.from({ length: 24 }, (_, i) => `person${i}@example.com`);

const sim = useSimulator();
const exercised = { updates: 0, rebuilds: 0, removeUsers: 0, removeAliases: 0, additive: 0 };

/** Random case and spacing variant: the same alias to the service. */
function variant(rand: () => number, alias: string): string {
  return rand() < 0.3 ? alias.toUpperCase() : alias;
}

/** Users with distinct IDs and aliases distinct across the list (case-insensitively). */
function randomUsers(rand: () => number, max: number): PlannedUser[] {
  const ids = [...IDS].sort(() => rand() - 0.5).slice(0, Math.floor(rand() * (max + 1)));
  const pool = [...ALIASES].sort(() => rand() - 0.5);
  return ids
    .map((userId) => ({ userId, aliases: pool.splice(0, 1 + Math.floor(rand() * 3)).map((a) => variant(rand, a)) }))
    .filter((u) => u.aliases.length > 0);
}

function seedLive(rand: () => number): void {
  for (const ruleId of EDITABLE) {
    const users: Array<{ userIdFromAuthority: string | null; userAliasList: string[] }> = randomUsers(rand, 6).map((u) => ({
      userIdFromAuthority: u.userId,
      userAliasList: [...u.aliases],
    }));
    if (rand() < 0.2) users.push({ userIdFromAuthority: null, userAliasList: [`noid${Math.floor(rand() * 5)}@example.com`] });
    sim.setUsers(ruleId, users);
  }
}

function declarations(rand: () => number): DesiredList[] {
  return [...EDITABLE, ...SKIPPED].map((ruleId, i) => ({
    constructPath: `stack/list-${i}`,
    stack: "stack",
    ruleId,
    ruleName: null,
    mode: (rand() < 0.25 ? "additive" : "authoritative"),
    allowMassRemoval: false,
    users: randomUsers(rand, 7),
  }));
}

async function planWith(client: RuleListClient, desired: DesiredList[], batchSize: number): Promise<Plan> {
  const observations = await observe(client, desired, { parallelism: 3, pageSize: 100 });
  return buildPlan({ toolVersion: TOOL_VERSION,
    declarations: desired,
    observations,
    connection: { baseUrl: client.baseUrl, tenantId: client.tenantId },
    createdAt: "2026-01-01T00:00:00Z",
    batchSize,
  });
}

describe("apply then plan again", () => {
  it.each(Array.from({ length: 40 }, (_, i) => [i + 1]))("converges within the call bound (seed %d)", async (seed) => {
    // given random live lists and a random declaration
    const rand = prng(seed);
    seedLive(rand);
    const desired = declarations(rand);
    const batchSize = rand() < 0.3 ? 2 : 100;
    const client = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId });

    // when the plan is applied
    const plan = await planWith(client, desired, batchSize);
    const observeCalls = client.counter.snapshot();
    const result = await applyPlan(plan, client, { parallelism: 3 });

    // then every rule converged and verified, and a second plan is empty
    expect(result.summary.failed).toBe(0);
    const again = await planWith(client, desired, batchSize);
    expect(again.rules.filter((r) => r.action === "update").map((r) => [r.constructPath, r.calls])).toEqual([]);
    expect(again.summary.errors).toBe(0);

    // and the calls stayed within the bound of docs/contract.md §4
    const changed = plan.rules.filter((r) => r.action === "update");
    exercised.updates += changed.length;
    exercised.rebuilds += changed.filter((r) => r.changes.rebuild).length;
    exercised.removeUsers += changed.filter((r) => r.changes.removeUsers.length > 0).length;
    exercised.removeAliases += changed.filter((r) => r.changes.removeAliases.length > 0).length;
    exercised.additive += changed.filter((r) => r.mode === "additive").length;
    const calls = (snapshot: ReturnType<typeof client.counter.snapshot>, op: string) => snapshot.byOperation[op]?.calls ?? 0;
    expect(calls(observeCalls, "query-rule-metadata")).toBe(1);
    expect(calls(observeCalls, "query-users")).toBeLessThanOrEqual(desired.length);
    const applied = client.counter.snapshot();
    // one read back per changed rule, and one read right before each remove-all-users (docs/contract.md §9.3)
    const emptied = changed.filter((r) => r.changes.removeAll).length;
    expect(calls(applied, "query-users") - calls(observeCalls, "query-users") - /* second plan */ calls(observeCalls, "query-users")).toBeLessThanOrEqual(changed.length + emptied);
    for (const op of WRITE_OPERATION_LIST) {
      const bound = changed.reduce((n, r) => {
        const c = r.calls.filter((x) => x.operation === op);
        const users = c.reduce((m, x) => m + ("userList" in x ? x.userList.length : "userIdList" in x ? x.userIdList.length : 1), 0);
        return n + (op === "remove-all-users" ? Math.min(c.length, 1) : Math.ceil(users / batchSize));
      }, 0);
      expect(calls(applied, op)).toBeLessThanOrEqual(bound);
      // each changed rule sends each operation at most once unless batching splits it
      if (batchSize >= 100) for (const r of changed) expect(r.calls.filter((x) => x.operation === op).length).toBeLessThanOrEqual(1);
    }
  });

  it("the random cases exercised every kind of change", () => {
    for (const [kind, count] of Object.entries(exercised)) expect([kind, count > 3]).toEqual([kind, true]);
  });
});
