/**
 * The alertrules provider: its block, its resource and data source, and Terraform's stop. One
 * session per provider process (src/provider/configure.ts), shared by every resource.
 */
import type { ProviderRun } from "./configure";
import { configureRun } from "./configure";
import type { ProviderDefinition } from "./protocol";
import { ruleUserListResource } from "./rule-user-list";
import { rulesDataSource } from "./rules-data-source";
import { RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema } from "./schema";

export interface ProviderHost {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Lines for Terraform's log (the provider's stderr). */
  readonly log: (line: string) => void;
}

export function alertRulesProvider(host: ProviderHost): ProviderDefinition {
  let run: ProviderRun | null = null;
  const stop = new AbortController();
  const current = (): ProviderRun | null => run;
  return {
    schema: providerSchema,
    async configure(config) {
      const configured = await configureRun(config, host.env, host.cwd, stop.signal, host.log);
      run = configured.run;
      return configured.diagnostics;
    },
    resources: { [RULE_USER_LIST]: ruleUserListResource(current) },
    dataSources: { [RULES_DATA_SOURCE]: rulesDataSource(current) },
    stop() {
      // Terraform's Ctrl-C: no new call starts; calls in flight finish (src/io/execute.ts).
      host.log("[INFO] stop requested: no new call starts; calls in flight finish");
      stop.abort();
    },
  };
}
