/**
 * The `alertrules_rules` data source: every rule of the tenant, as `rules list` reads it (one
 * metadata search, one query-users per editable rule for its list type).
 */
import { listRules } from "../io/workflow";
import type { ProviderRun } from "./configure";
import type { DataSourceType } from "./protocol";
import { rulesDataSourceSchema } from "./schema";

export function rulesDataSource(current: () => ProviderRun | null): DataSourceType {
  return {
    schema: rulesDataSourceSchema,
    async read() {
      const run = current();
      if (run === null) throw new Error("the alertrules provider is not configured: run terraform again.");
      const rows = await listRules(run.session);
      return {
        state: {
          rules: rows.map((r) => ({ rule_id: r.ruleId, name: r.name, list_type: r.listType, is_system: r.isSystem, rule_source: r.ruleSource, is_enabled: r.isEnabled })),
        },
      };
    },
  };
}
