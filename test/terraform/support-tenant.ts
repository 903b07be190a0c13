/**
 * A tenant for the tests of test/terraform that need many rules: the sample tenant plus `count`
 * editable rules (empty inclusion lists), named `Scale rule N`, with IDs a function of N.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TenantSeed } from "../../src/simulator";
import { REPO } from "../support/cli";

/** The observerRuleId of generated rule `i`. */
export const scaleRuleId = (i: number): string => `5ca1e000-0000-4000-8000-${String(i).padStart(12, "0")}`;
export const scaleRuleName = (i: number): string => `Scale rule ${i}`;

export function tenantWithRules(count: number): TenantSeed {
  const sample = JSON.parse(readFileSync(join(REPO, "examples", "sample-tenant.json"), "utf8")) as TenantSeed & {
    rules: Array<{ metadata: Record<string, unknown> }>;
  };
  const template = sample.rules[0]!;
  const generated = Array.from({ length: count }, (_, i) => ({
    metadata: { ...template.metadata, id: `5ca1e000-0000-4000-9000-${String(i).padStart(12, "0")}`, observerRuleId: scaleRuleId(i), name: scaleRuleName(i) },
    usersToAlertOn: "SPECIFIED_USERS",
    users: [],
  }));
  return { ...sample, rules: [...sample.rules, ...generated] } as TenantSeed;
}
