/**
 * The alertrules provider with its engine loaded on first use. The schemas are plain data
 * (./schema) and answer GetProviderSchema at once; the engine (src/io/workflow, the API client,
 * zod: most of the start-up's module loading) is required when Terraform first validates,
 * configures, reads or stops. Terraform starts a provider several times per command, some only for
 * its schema: those never load the engine, and every start prints its handshake line sooner.
 * Behaviour is that of ./provider, which this delegates every call to.
 */
import type { DataSourceType, ProviderDefinition, ResourceType, Schema } from "./protocol";
import type { ProviderHost, alertRulesProvider as AlertRulesProvider } from "./provider";
import { RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleUserListSchema, rulesDataSourceSchema } from "./schema";

export function lazyAlertRulesProvider(host: ProviderHost): ProviderDefinition {
  let engine: ProviderDefinition | undefined;
  const load = (): ProviderDefinition => {
    if (engine === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
      const { alertRulesProvider } = require("./provider") as { alertRulesProvider: typeof AlertRulesProvider };
      engine = alertRulesProvider(host);
    }
    return engine;
  };
  const resource = (name: string): ResourceType => load().resources[name]!;
  const dataSource = (name: string): DataSourceType => load().dataSources[name]!;
  const lazyResource = (name: string, schema: Schema): ResourceType => ({
    schema,
    validate: (config) => resource(name).validate?.(config) ?? [],
    upgrade: (version, state) => resource(name).upgrade?.(version, state) ?? state,
    read: (req) => resource(name).read(req),
    plan: (req) => resource(name).plan(req),
    apply: (req) => resource(name).apply(req),
    importState: (id) => resource(name).importState(id),
  });
  return {
    schema: providerSchema,
    validate: (config) => load().validate?.(config) ?? [],
    configure: (config, info) => load().configure(config, info),
    resources: { [RULE_USER_LIST]: lazyResource(RULE_USER_LIST, ruleUserListSchema) },
    dataSources: {
      [RULES_DATA_SOURCE]: {
        schema: rulesDataSourceSchema,
        validate: (config) => dataSource(RULES_DATA_SOURCE).validate?.(config) ?? [],
        read: (config) => dataSource(RULES_DATA_SOURCE).read(config),
      },
    },
    // A stop before anything was loaded still reaches the engine: a configure after it then starts no call.
    stop: () => load().stop(),
  };
}
