/**
 * Scenario 2, bulk onboarding: 20 rules of 50 users each receive 1,000 new users (the
 * 20,000-row CSV). add-users goes out in batches of --batch-size (100) users.
 */
import { callsTable, engineChecks, TIME_COLUMNS, timeRow } from "../lib/engine-report";
import { runEngine, type EngineRun } from "../lib/engine-run";
import { fmt, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { generateTenant, type GeneratedTenant } from "../lib/tenant";
import { DEFAULT_PARALLELISM } from "./mixed-change";

export interface BulkSizes {
  readonly rules: number;
  readonly usersPerRule: number;
  readonly newUsers: number;
}

export const BULK_FULL: BulkSizes = { rules: 20, usersPerRule: 50, newUsers: 1_000 };
export const BULK_QUICK: BulkSizes = { rules: 4, usersPerRule: 50, newUsers: 250 };

export function bulkTenant(sizes: BulkSizes): GeneratedTenant {
  return generateTenant({
    rules: sizes.rules,
    usersPerRule: sizes.usersPerRule,
    change: { kind: "onboard", newUsers: sizes.newUsers },
    seed: 20_250_202,
  });
}

export async function runBulkOnboarding(sizes: BulkSizes, latencyMs: number, parallelism = DEFAULT_PARALLELISM): Promise<{ tenant: GeneratedTenant; run: EngineRun }> {
  const tenant = bulkTenant(sizes);
  return { tenant, run: await runEngine(tenant, { parallelism, latencyMs }) };
}

export const bulkOnboarding: Scenario = {
  name: "bulk-onboarding",
  title: "2. Bulk onboarding",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? BULK_QUICK : BULK_FULL;
    ctx.log(`bulk-onboarding: ${sizes.rules} rules x ${sizes.newUsers} new users, parallelism ${DEFAULT_PARALLELISM}`);
    const { tenant, run } = await runBulkOnboarding(sizes, ctx.latencyMs);
    return {
      name: this.name,
      title: this.title,
      tables: [
        {
          title: `Bulk onboarding: ${sizes.rules} rules each receiving ${fmt.int(sizes.newUsers)} new users (${fmt.int(tenant.rows.length)} CSV rows)`,
          columns: TIME_COLUMNS,
          rows: [timeRow("ours", run)],
        },
        callsTable("Bulk onboarding: calls per operation", run),
      ],
      checks: engineChecks("bulk onboarding", run),
      data: { sizes, changeRows: tenant.rows.length, expected: tenant.expected, run },
    };
  },
};
