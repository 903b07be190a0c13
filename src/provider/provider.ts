/**
 * The alertrules provider: its block, its resource and data source, and Terraform's stop. One
 * session per provider process (src/provider/configure.ts), shared by every resource.
 *
 * Only the schemas load before the handshake: the engine (the workflow, its client and zod) is
 * loaded right after it, while Terraform sets up the connection, so that Terraform's wait for the
 * handshake line is the protocol room's start-up alone (docs/performance.md).
 */
import type * as ConfigureModule from "./configure";
import type { ProviderRun } from "./configure";
import type * as ResourceModule from "./rule-user-list";
import type * as DataSourceModule from "./rules-data-source";
import type * as RuleDataSourceModule from "./rule-data-source";
import type * as MoveModule from "./move-state";
import type * as TimeoutsModule from "./timeouts";
import type * as TerraformRunModule from "../io/terraform-run";
import type { TerraformRun as TerraformRunType } from "../io/terraform-run";
import type { DataSourceType, ProviderDefinition, ResourceType } from "./protocol";
import { OFFLINE_READ, offlineResource } from "./offline";
import { RULE_DATA_SOURCE, RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleDataSourceSchema, ruleUserListSchema, rulesDataSourceSchema } from "./schema";

export interface ProviderHost {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Lines for Terraform's log (the provider's stderr). */
  readonly log: (line: string) => void;
}

/** The engine's side of the provider, loaded on first use. */
interface Engine {
  readonly configureRun: typeof ConfigureModule.configureRun;
  readonly resource: ResourceType;
  readonly dataSource: DataSourceType;
  readonly ruleDataSource: DataSourceType;
  readonly move: typeof MoveModule.moveResourceState;
}

export function alertRulesProvider(host: ProviderHost): ProviderDefinition & { warmUp(): void } {
  let run: ProviderRun | null = null;
  /** Configured offline (ALERT_RULE_USERS_PROVIDER_OFFLINE=1): no session; plans from the configuration alone. */
  let offline = false;
  const stop = new AbortController();
  const current = (): ProviderRun | null => run;
  let loaded: Engine | undefined;
  const engine = (): Engine => {
    if (loaded === undefined) {
      /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the handshake, on purpose (see above) */
      const { configureRun } = require("./configure") as typeof ConfigureModule;
      const { ruleUserListResource } = require("./rule-user-list") as typeof ResourceModule;
      const { rulesDataSource } = require("./rules-data-source") as typeof DataSourceModule;
      const { ruleDataSource } = require("./rule-data-source") as typeof RuleDataSourceModule;
      const { moveResourceState } = require("./move-state") as typeof MoveModule;
      const { withTimeouts } = require("./timeouts") as typeof TimeoutsModule;
      /* eslint-enable @typescript-eslint/no-require-imports */
      loaded = { configureRun, resource: withTimeouts(ruleUserListResource, current), dataSource: rulesDataSource(current), ruleDataSource: ruleDataSource(current), move: moveResourceState };
    }
    return loaded;
  };
  /** The rules this process has recorded as declared (src/io/terraform-run.ts `declared`), each once. */
  const declared = new Set<string>();
  let terraformRun: TerraformRunType | undefined;
  const validateResource: NonNullable<ResourceType["validate"]> = (config) => {
    const ruleId = typeof config["rule_id"] === "string" ? config["rule_id"] : null;
    const ruleName = typeof config["rule_name"] === "string" ? config["rule_name"] : null;
    const key = JSON.stringify([ruleId, ruleName]);
    if ((ruleId !== null || ruleName !== null) && !declared.has(key)) {
      declared.add(key);
      try {
        /* eslint-disable-next-line @typescript-eslint/no-require-imports -- with the engine, after the handshake */
        terraformRun ??= (require("../io/terraform-run") as typeof TerraformRunModule).TerraformRun.current(host.env);
        terraformRun.declare({ ruleId, ruleName });
      } catch (err) {
        // only a saving of searches is lost
        host.log(`[WARN] alertrules provider: could not record a declared rule: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return engine().resource.validate?.(config) ?? [];
  };
  const offlineList = offlineResource(ruleUserListSchema, validateResource);
  /** The resource as this run serves it: the engine's, or the offline one. */
  const served = (): ResourceType => (offline ? offlineList : engine().resource);
  const resource: ResourceType = {
    schema: ruleUserListSchema,
    validate: validateResource,
    upgrade: (version, state) => served().upgrade?.(version, state) ?? state,
    read: (request) => served().read(request),
    plan: (request) => served().plan(request),
    apply: (request) => served().apply(request),
    importState: (id) => served().importState(id),
    move: (request) => engine().move(request),
  };
  const dataSource: DataSourceType = {
    schema: rulesDataSourceSchema,
    validate: (config) => engine().dataSource.validate?.(config) ?? [],
    read: (config) => (offline ? Promise.resolve({ state: {}, diagnostics: [{ severity: "error", summary: "Offline provider", detail: OFFLINE_READ }] }) : engine().dataSource.read(config)),
  };
  return {
    schema: providerSchema,
    async configure(config) {
      const configured = await engine().configureRun(config, host.env, host.cwd, stop.signal, host.log);
      run = configured.run;
      offline = configured.offline === true;
      return configured.diagnostics;
    },
    resources: { [RULE_USER_LIST]: resource },
    dataSources: {
      [RULES_DATA_SOURCE]: dataSource,
      [RULE_DATA_SOURCE]: {
        schema: ruleDataSourceSchema,
        validate: (config) => engine().ruleDataSource.validate?.(config) ?? [],
        read: (config) => (offline ? Promise.resolve({ state: {}, diagnostics: [{ severity: "error", summary: "Offline provider", detail: OFFLINE_READ }] }) : engine().ruleDataSource.read(config)),
      },
    },
    stop() {
      // Terraform's Ctrl-C: no new call starts; calls in flight finish (src/io/execute.ts).
      host.log("[INFO] stop requested: no new call starts; calls in flight finish");
      stop.abort();
    },
    warmUp() {
      engine();
    },
  };
}
