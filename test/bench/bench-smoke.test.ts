/**
 * Smoke test of the benchmark: its scenario functions at tiny sizes, with 1 ms latency. Calls must
 * equal the bound of docs/contract.md §4 (no timing assertions: those belong to `npm run bench`).
 */
import { callBound } from "../../bench/lib/bound";
import { compare } from "../../bench/scenarios/per-user-baseline";
import { runBulkOnboarding } from "../../bench/scenarios/bulk-onboarding";
import { mixedTenant, runMixedChange } from "../../bench/scenarios/mixed-change";
import { runNoOp } from "../../bench/scenarios/no-op";
import { buildPlan } from "../../src/core/engine/build-plan";
import type { RuleObservation } from "../../src/core/engine/observation";
import { TOOL_VERSION } from "../../src/io/version";

const LATENCY_MS = 1;

describe("bench scenarios at tiny sizes", () => {
  it("mixed change: calls equal the bound, the plan matches the change set, the tenant converges", async () => {
    const { run } = await runMixedChange({ rules: 12, usersPerRule: 20, specialRules: 2 }, LATENCY_MS);
    expect(run.planMismatches).toEqual([]);
    expect(run.calls).toEqual(run.bound.byOperation);
    expect(run.serverRequests).toEqual(run.calls);
    expect(run.callsEqualBound).toBe(true);
    expect(run.converged).toBe(true);
    // system rules are never read; all-users rules are read once, then skipped
    expect(run.bound.readRules).toBe(12 + 2);
  });

  it("bulk onboarding: add-users goes out in batches of 100 users", async () => {
    const { run } = await runBulkOnboarding({ rules: 2, usersPerRule: 5, newUsers: 250 }, LATENCY_MS);
    expect(run.calls).toEqual({ "query-rule-metadata": 1, "query-users": 4, "add-users": 6 });
    expect(run.callsEqualBound).toBe(true);
    expect(run.converged).toBe(true);
  });

  it("no-op: one search and one read per rule, nothing else", async () => {
    const { run } = await runNoOp({ rules: 8, usersPerRule: 10 }, LATENCY_MS);
    expect(run.calls).toEqual({ "query-rule-metadata": 1, "query-users": 8 });
    expect(run.callsEqualBound).toBe(true);
  });

  it("per-user baseline: two requests per change row, same end state as ours", async () => {
    const tenant = mixedTenant({ rules: 6, usersPerRule: 20, specialRules: 1 });
    const c = await compare("mixed change", tenant, LATENCY_MS);
    expect(c.perUser.totalCalls).toBe(2 * tenant.rows.length);
    expect(c.perUser.failures).toBe(0);
    expect(c.perUserMismatchedRules).toBe(0);
    expect(c.ours.callsEqualBound).toBe(true);
  });

  it("the bound counts pages, reads, writes per operation and verify reads", () => {
    // given 3 declared rules, one unchanged and two changed, and a page size of 2
    const tenant = mixedTenant({ rules: 3, usersPerRule: 20, specialRules: 0 });
    const observations = tenant.seed.rules.map(
      (rule, i): RuleObservation => ({
        kind: "found",
        rule: { observerRuleId: rule.metadata.observerRuleId, name: rule.metadata.name, isSystem: false, ruleSource: "Alerting" },
        list: {
          usersToAlertOn: rule.usersToAlertOn,
          // the first rule already holds its declaration
          entries:
            i === 0
              ? tenant.declarations[0]!.users.map((u) => ({ userId: u.userId, aliases: u.aliases }))
              : (rule.users ?? []).map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })),
        },
      }),
    );
    const plan = buildPlan({ toolVersion: TOOL_VERSION, declarations: tenant.declarations, observations, connection: { baseUrl: "http://x", tenantId: "t" }, createdAt: "2026-01-01T00:00:00Z" });
    // when
    const bound = callBound(plan, { pageSize: 2, parallelism: 2 });
    // then
    const writes = plan.rules.reduce((n, r) => n + r.calls.length, 0);
    expect(bound.byOperation["query-rule-metadata"]).toBe(2);
    expect(bound.byOperation["query-users"]).toBe(3 + 2);
    expect(bound.total).toBe(2 + 5 + writes);
    expect(bound.rounds).toEqual({ search: 2, observe: 2, apply: Math.ceil((writes + 2) / 2), total: 4 + Math.ceil((writes + 2) / 2) });
  });
});
