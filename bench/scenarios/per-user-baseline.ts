/**
 * Scenario 3, per-user baseline: the change sets of scenarios 1 and 2 sent the way the vendor's
 * per-user script does (per changed user: one rule lookup, one write carrying that user; five
 * workers), each against a fresh simulator with the same seed and latency, and our engine at
 * parallelism 5 on the same change sets, in the same run.
 */
import { TIME_COLUMNS, timeRow } from "../lib/engine-report";
import { mismatchedRules, runEngine, withSimulator, type EngineRun } from "../lib/engine-run";
import { runPerUserScript, type PerUserRun } from "../lib/per-user-script";
import { check, fmt, sizedCheck, type Check, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import type { GeneratedTenant } from "../lib/tenant";
import { BULK_FULL, BULK_QUICK, bulkTenant } from "./bulk-onboarding";
import { MIXED_FULL, MIXED_QUICK, mixedTenant } from "./mixed-change";

export const BASELINE_WORKERS = 5;

export interface Targets {
  readonly calls: number;
  readonly wall: number;
}
export const MIXED_TARGETS: Targets = { calls: 2, wall: 2 };
export const BULK_TARGETS: Targets = { calls: 100, wall: 50 };

export interface Comparison {
  readonly label: string;
  readonly ours: EngineRun;
  readonly perUser: PerUserRun;
  /** Rules whose list differs from the declaration after the per-user script (0: it did the same change). */
  readonly perUserMismatchedRules: number;
  readonly callRatio: number;
  readonly wallRatio: number;
}

export async function compare(label: string, tenant: GeneratedTenant, latencyMs: number): Promise<Comparison> {
  const ours = await runEngine(tenant, { parallelism: BASELINE_WORKERS, latencyMs });
  const { perUser, mismatched } = await withSimulator(tenant, latencyMs, async (sim) => {
    const run = await runPerUserScript(tenant.rows, { url: sim.url, token: sim.token, tenantId: sim.tenantId }, BASELINE_WORKERS);
    return { perUser: run, mismatched: mismatchedRules(await sim.rules(), tenant) };
  });
  return {
    label,
    ours,
    perUser,
    perUserMismatchedRules: mismatched,
    callRatio: perUser.totalCalls / ours.totalCalls,
    wallRatio: perUser.wallMs / ours.wallMs,
  };
}

/** The ratios depend on the sizes (a quick run's bulk onboarding is too small to show 100×): judged on full runs only. */
function checks(c: Comparison, targets: Targets, quick: boolean): Check[] {
  return [
    sizedCheck(
      quick,
      `${c.label}: at least ${targets.calls}× fewer calls than per-user`,
      c.callRatio >= targets.calls,
      `${fmt.int(c.ours.totalCalls)} against ${fmt.int(c.perUser.totalCalls)} (${fmt.ratio(c.callRatio)} fewer)`,
    ),
    sizedCheck(
      quick,
      `${c.label}: at least ${targets.wall}× less wall time than per-user`,
      c.wallRatio >= targets.wall,
      `${fmt.s(c.ours.wallMs)} s against ${fmt.s(c.perUser.wallMs)} s (${fmt.ratio(c.wallRatio)} less)`,
    ),
    check(
      `${c.label}: both runs reach the declared state`,
      c.ours.converged && c.perUserMismatchedRules === 0 && c.perUser.failures === 0,
      `ours ${c.ours.converged ? "converged" : "did NOT converge"}; per-user: ${c.perUser.failures} failed requests, ${c.perUserMismatchedRules} rules differ`,
    ),
  ];
}

function row(c: Comparison): string[] {
  return [
    c.label,
    fmt.int(c.perUser.rows),
    fmt.int(c.ours.totalCalls),
    fmt.int(c.perUser.totalCalls),
    fmt.ratio(c.callRatio),
    fmt.s(c.ours.wallMs),
    fmt.s(c.perUser.wallMs),
    fmt.ratio(c.wallRatio),
  ];
}

export const perUserBaseline: Scenario = {
  name: "per-user-baseline",
  title: "3. Per-user baseline",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const mixedSizes = ctx.quick ? MIXED_QUICK : MIXED_FULL;
    const bulkSizes = ctx.quick ? BULK_QUICK : BULK_FULL;
    ctx.log(`per-user-baseline: mixed change (${mixedSizes.rules} rules), ours at parallelism ${BASELINE_WORKERS}, then the per-user script with ${BASELINE_WORKERS} workers`);
    const mixed = await compare("mixed change", mixedTenant(mixedSizes), ctx.latencyMs);
    ctx.log(`per-user-baseline: bulk onboarding (${bulkSizes.rules} x ${bulkSizes.newUsers} new users); the per-user script sends ${fmt.int(2 * bulkSizes.rules * bulkSizes.newUsers)} requests`);
    const bulk = await compare("bulk onboarding", bulkTenant(bulkSizes), ctx.latencyMs);
    return {
      name: this.name,
      title: this.title,
      tables: [
        {
          title: `Against the per-user script (${BASELINE_WORKERS} workers; ours at parallelism ${BASELINE_WORKERS}; same simulator, same latency)`,
          columns: ["change set", "rows", "ours calls", "per-user calls", "fewer calls", "ours s", "per-user s", "less time"],
          rows: [row(mixed), row(bulk)],
        },
        {
          title: `Our runs at parallelism ${BASELINE_WORKERS}`,
          columns: TIME_COLUMNS,
          rows: [timeRow("mixed change", mixed.ours), timeRow("bulk onboarding", bulk.ours)],
        },
      ],
      checks: [...checks(mixed, MIXED_TARGETS, ctx.quick), ...checks(bulk, BULK_TARGETS, ctx.quick)],
      data: { mixed, bulk, targets: { mixed: MIXED_TARGETS, bulk: BULK_TARGETS } },
    };
  },
};
