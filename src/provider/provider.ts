/**
 * The alertrules provider: its block, and the table of its resources and data sources, each a row
 * the one server serves (src/provider/framework/server.ts). One session per provider process
 * (src/provider/configure.ts), shared by every resource.
 *
 * Only the schemas and the server load before the handshake: the engine (the workflow, its client
 * and zod) loads on the first call that needs it, so that Terraform's wait for the handshake line is
 * the protocol room's start-up alone (docs/performance.md), and a process Terraform starts only for
 * the schema never loads it. A row holds its type's schema and how to build the type on the
 * engine's side; that build runs on first use.
 */
import type * as ConfigureModule from "./configure";
import type { ProviderRun } from "./configure";
import type * as RuleUserListModule from "./resources/rule-user-list";
import type * as DeclaredRulesModule from "./resources/declared-rules";
import type * as RuleUserListValidationModule from "./resources/rule-user-list-validation";
import type * as RulesDataSourceModule from "./resources/rules-data-source";
import type * as RuleDataSourceModule from "./resources/rule-data-source";
import type { DataSourceType, ProviderDefinition, ResourceType } from "./protocol";
import { dataSourceRow, resourceRow, serveProvider, type Row } from "./framework/server";
import { RULE_DATA_SOURCE, RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleDataSourceSchema, ruleUserListSchema, rulesDataSourceSchema } from "./schema";
import type { DataSourceTypeName, ResourceTypeName } from "./schema";

export interface ProviderHost {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Lines for Terraform's log (the provider's stderr). */
  readonly log: (line: string) => void;
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the handshake, on purpose (see above) */

/** The resource types: a key the compiler checks for every name, a row each. */
function resources(host: ProviderHost): { readonly [name in ResourceTypeName]: Row<ResourceType, ProviderRun> } {
  // the validation's half (no engine: Terraform's validation process loads only it), shared with the whole resource
  let made: RuleUserListValidationModule.RuleUserListValidation | undefined;
  const validation = (): RuleUserListValidationModule.RuleUserListValidation => {
    if (made === undefined) {
      const { RuleUserListValidation } = require("./resources/rule-user-list-validation") as typeof RuleUserListValidationModule;
      const { DeclaredRules } = require("./resources/declared-rules") as typeof DeclaredRulesModule;
      made = new RuleUserListValidation(new DeclaredRules(host.env, host.log));
    }
    return made;
  };
  return {
    [RULE_USER_LIST]: resourceRow(ruleUserListSchema, () => new (require("./resources/rule-user-list") as typeof RuleUserListModule).RuleUserListResource(validation()), validation),
  };
}

/** The data sources, likewise. */
function dataSources(): { readonly [name in DataSourceTypeName]: Row<DataSourceType, ProviderRun> } {
  return {
    [RULES_DATA_SOURCE]: dataSourceRow(rulesDataSourceSchema, () => new (require("./resources/rules-data-source") as typeof RulesDataSourceModule).RulesDataSource()),
    [RULE_DATA_SOURCE]: dataSourceRow(ruleDataSourceSchema, () => new (require("./resources/rule-data-source") as typeof RuleDataSourceModule).RuleDataSource()),
  };
}

export function alertRulesProvider(host: ProviderHost): ProviderDefinition {
  return serveProvider({
    schema: providerSchema,
    block: () => (require("./configure") as typeof ConfigureModule).providerBlock(host.env, host.cwd, host.log),
    resources: resources(host),
    dataSources: dataSources(),
    env: host.env,
    log: host.log,
  });
}

/* eslint-enable @typescript-eslint/no-require-imports */
