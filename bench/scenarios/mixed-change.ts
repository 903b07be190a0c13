/**
 * Scenario 1, mixed change: 500 rules of 50 users (inclusion and exclusion lists), about 10% of
 * each list changed (new users, new, removed and replaced aliases, removed users), plus 5 system
 * rules and 5 all-users rules that must be skipped. Our engine at the CLI's default parallelism.
 */
import { engineChecks, callsTable, TIME_COLUMNS, timeRow } from "../lib/engine-report";
import { runEngine, type EngineRun } from "../lib/engine-run";
import { fmt, sizedCheck, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { generateTenant, type GeneratedTenant } from "../lib/tenant";

export interface MixedSizes {
  readonly rules: number;
  readonly usersPerRule: number;
  readonly specialRules: number;
}

export const MIXED_FULL: MixedSizes = { rules: 500, usersPerRule: 50, specialRules: 5 };
export const MIXED_QUICK: MixedSizes = { rules: 60, usersPerRule: 50, specialRules: 2 };
/** The wall-time target: within this factor of the lower bound. */
export const WALL_TARGET = 1.25;
export const DEFAULT_PARALLELISM = 4;

export function mixedTenant(sizes: MixedSizes): GeneratedTenant {
  return generateTenant({
    rules: sizes.rules,
    usersPerRule: sizes.usersPerRule,
    systemRules: sizes.specialRules,
    allUsersRules: sizes.specialRules,
    change: { kind: "mixed", fraction: 0.1 },
    seed: 20_250_101,
  });
}

export async function runMixedChange(sizes: MixedSizes, latencyMs: number, parallelism = DEFAULT_PARALLELISM): Promise<{ tenant: GeneratedTenant; run: EngineRun }> {
  const tenant = mixedTenant(sizes);
  return { tenant, run: await runEngine(tenant, { parallelism, latencyMs }) };
}

export const mixedChange: Scenario = {
  name: "mixed-change",
  title: "1. Mixed change",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? MIXED_QUICK : MIXED_FULL;
    ctx.log(`mixed-change: ${sizes.rules} rules x ${sizes.usersPerRule} users, parallelism ${DEFAULT_PARALLELISM}`);
    const { tenant, run } = await runMixedChange(sizes, ctx.latencyMs);
    const ratio = run.wallMs / run.lowerBoundMs;
    return {
      name: this.name,
      title: this.title,
      tables: [
        {
          title: `Mixed change: ${fmt.int(tenant.declarations.length)} declared rules (${sizes.rules} editable, ${sizes.specialRules} system, ${sizes.specialRules} all-users), ${fmt.int(tenant.rows.length)} per-user changes on ${run.bound.changedRules} rules`,
          columns: TIME_COLUMNS,
          rows: [timeRow("ours", run)],
        },
        callsTable("Mixed change: calls per operation", run),
      ],
      checks: [
        ...engineChecks("mixed change", run),
        sizedCheck(
          ctx.quick,
          `mixed change: wall time within ${WALL_TARGET}× of its lower bound`,
          ratio <= WALL_TARGET,
          `${fmt.s(run.wallMs)} s against ${fmt.s(run.lowerBoundMs)} s (${fmt.ratio(ratio)})`,
        ),
      ],
      data: { sizes, changeRows: tenant.rows.length, expected: tenant.expected, run },
    };
  },
};
