/** Scenario 5, no-op plan: 500 rules, nothing changed. One search per page, one read per rule, no writes. */
import { callsTable, engineChecks, TIME_COLUMNS, timeRow } from "../lib/engine-report";
import { runEngine, type EngineRun } from "../lib/engine-run";
import { check, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { generateTenant, type GeneratedTenant } from "../lib/tenant";
import { DEFAULT_PARALLELISM } from "./mixed-change";

export interface NoOpSizes {
  readonly rules: number;
  readonly usersPerRule: number;
}

export const NO_OP_FULL: NoOpSizes = { rules: 500, usersPerRule: 50 };
export const NO_OP_QUICK: NoOpSizes = { rules: 60, usersPerRule: 50 };

export async function runNoOp(sizes: NoOpSizes, latencyMs: number, parallelism = DEFAULT_PARALLELISM): Promise<{ tenant: GeneratedTenant; run: EngineRun }> {
  const tenant = generateTenant({ rules: sizes.rules, usersPerRule: sizes.usersPerRule, change: { kind: "none" }, seed: 20_250_505 });
  return { tenant, run: await runEngine(tenant, { parallelism, latencyMs }) };
}

export const noOp: Scenario = {
  name: "no-op",
  title: "5. No-op plan",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? NO_OP_QUICK : NO_OP_FULL;
    ctx.log(`no-op: ${sizes.rules} rules x ${sizes.usersPerRule} users, parallelism ${DEFAULT_PARALLELISM}`);
    const { run } = await runNoOp(sizes, ctx.latencyMs);
    return {
      name: this.name,
      title: this.title,
      tables: [
        { title: `No-op plan: ${sizes.rules} rules of ${sizes.usersPerRule} users, nothing changed`, columns: TIME_COLUMNS, rows: [timeRow("ours", run)] },
        callsTable("No-op plan: calls per operation", run),
      ],
      checks: [
        ...engineChecks("no-op", run),
        check("no-op: nothing to update", run.planSummary.toUpdate === 0, `${run.planSummary.toUpdate} rules to update, ${run.planSummary.calls} write calls planned`),
      ],
      data: { sizes, run },
    };
  },
};
