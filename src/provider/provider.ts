/**
 * The alertrules provider: its block, and the table of its resources and data sources, each
 * served the same way. One session per provider process (src/provider/configure.ts), shared by
 * every resource.
 *
 * Only the schemas load before the handshake: the engine (the workflow, its client and zod) loads on
 * the first call that needs it, so that Terraform's wait for the handshake line is the protocol
 * room's start-up alone (docs/performance.md), and a process Terraform starts only for the schema
 * never loads it. A row of the table holds its schema and how to build its type on the engine's
 * side; that build runs on first use.
 */
import type * as ConfigureModule from "./configure";
import type { ProviderRun } from "./configure";
import type * as ResourceModule from "./resources/rule-user-list";
import type * as DataSourceModule from "./resources/rules-data-source";
import type * as RuleDataSourceModule from "./resources/rule-data-source";
import type * as TimeoutsModule from "./timeouts";
import type * as DeclaredRulesModule from "./resources/declared-rules";
import type { DataSourceType, ProviderDefinition, ResourceType, Schema } from "./protocol";
import { offlineResource } from "./framework/offline";
import { offlineDataSources } from "./framework/offline-data";
import { adaptResource } from "./framework/resource";
import { RULE_DATA_SOURCE, RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleDataSourceSchema, ruleUserListSchema, rulesDataSourceSchema } from "./schema";
import type { DataSourceTypeName, ResourceTypeName } from "./schema";

export interface ProviderHost {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Lines for Terraform's log (the provider's stderr). */
  readonly log: (line: string) => void;
}

type Current = () => ProviderRun | null;

/** A row of the table: the schema (before the handshake) and the type built on the engine's side (after it). */
interface Row<T> {
  readonly schema: Schema;
  readonly build: (current: Current, host: ProviderHost) => T;
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the handshake, on purpose (see above) */

/** The resource types: a key the compiler checks for every name, a row each. */
const RESOURCES: { readonly [name in ResourceTypeName]: Row<ResourceType> } = {
  [RULE_USER_LIST]: {
    schema: ruleUserListSchema,
    build: (current, host) => {
      const { RuleUserListResource } = require("./resources/rule-user-list") as typeof ResourceModule;
      const { withTimeouts } = require("./timeouts") as typeof TimeoutsModule;
      const { recordingDeclaredRules } = require("./resources/declared-rules") as typeof DeclaredRulesModule;
      return recordingDeclaredRules(withTimeouts((run) => adaptResource(new RuleUserListResource(run)), current), host.env, host.log);
    },
  },
};

/** The data sources, likewise. */
const DATA_SOURCES: { readonly [name in DataSourceTypeName]: Row<DataSourceType> } = {
  [RULES_DATA_SOURCE]: { schema: rulesDataSourceSchema, build: (current) => (require("./resources/rules-data-source") as typeof DataSourceModule).rulesDataSource(current) },
  [RULE_DATA_SOURCE]: { schema: ruleDataSourceSchema, build: (current) => (require("./resources/rule-data-source") as typeof RuleDataSourceModule).ruleDataSource(current) },
};

const loadConfigure = (): typeof ConfigureModule.configureRun => (require("./configure") as typeof ConfigureModule).configureRun;

/* eslint-enable @typescript-eslint/no-require-imports */

/** A value made on first use. */
function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** A resource type as a run serves it: the engine's, or the offline one (which plans from the configuration alone). */
function servedResource(schema: Schema, engine: () => ResourceType, offline: () => boolean): ResourceType {
  const validate: NonNullable<ResourceType["validate"]> = (config) => engine().validate?.(config) ?? [];
  const offlineType = offlineResource(schema, validate);
  const served = (): ResourceType => (offline() ? offlineType : engine());
  return {
    schema,
    validate,
    upgrade: (version, state) => served().upgrade?.(version, state) ?? state,
    read: (request) => served().read(request),
    plan: (request) => served().plan(request),
    apply: (request) => served().apply(request),
    importState: (id) => served().importState(id),
    move: (request) => {
      const type = engine();
      return type.move === undefined ? Promise.resolve({ state: null, diagnostics: [{ severity: "error", summary: "Cannot move this resource", detail: "This resource type takes no moved block from another type." }] }) : type.move(request);
    },
  };
}

/** A data source as a run serves it: the engine's, or offline the answers of the trusted job (src/provider/framework/offline-data.ts). */
function servedDataSource(schema: Schema, engine: () => DataSourceType, offline: () => DataSourceType | null): DataSourceType {
  return {
    schema,
    validate: (config) => engine().validate?.(config) ?? [],
    read: (config) => (offline() ?? engine()).read(config),
  };
}

/** A table's rows, each served by `serve` with its type built on first use. */
function serveTable<T, S>(table: { readonly [name: string]: Row<T> }, current: Current, host: ProviderHost, serve: (name: string, schema: Schema, engine: () => T) => S): { [name: string]: S } {
  return Object.fromEntries(Object.entries(table).map(([name, row]) => [name, serve(name, row.schema, lazy(() => row.build(current, host)))]));
}

export function alertRulesProvider(host: ProviderHost): ProviderDefinition {
  let run: ProviderRun | null = null;
  /** Configured offline (ALERT_RULE_USERS_PROVIDER_OFFLINE=1): no session; plans from the configuration alone. */
  let offline = false;
  const stop = new AbortController();
  const current: Current = () => run;
  const isOffline = (): boolean => offline;
  const configureRun = lazy(loadConfigure);
  const offlineData = lazy(() => offlineDataSources(Object.fromEntries(Object.entries(DATA_SOURCES).map(([name, row]) => [name, row.schema])), host.env));
  return {
    schema: providerSchema,
    async configure(config) {
      const configured = await configureRun()(config, host.env, host.cwd, stop.signal, host.log);
      run = configured.run;
      offline = configured.offline === true;
      return configured.diagnostics;
    },
    resources: serveTable(RESOURCES, current, host, (_name, schema, engine) => servedResource(schema, engine, isOffline)),
    dataSources: serveTable(DATA_SOURCES, current, host, (name, schema, engine) => servedDataSource(schema, engine, () => (offline ? (offlineData()[name] ?? null) : null))),
    stop() {
      // Terraform's Ctrl-C: no new call starts; calls in flight finish (src/io/execute.ts).
      host.log("[INFO] stop requested: no new call starts; calls in flight finish");
      stop.abort();
    },
  };
}
