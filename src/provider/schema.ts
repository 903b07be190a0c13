/**
 * The schemas of the provider block, the `alertrules_rule_user_list` resource and the
 * `alertrules_rules` data source (docs/contract.md §11.1, docs/provider.md). Plain data for the
 * protocol room; the names are part of the contract.
 */
import type { ListMode } from "../core/engine/desired";
import type { NATIVE_RESOURCE_TYPE, OnDestroy, RULES_DATA_SOURCE as CORE_RULES_DATA_SOURCE } from "../core/native/native-provider";
import type { Attribute, Schema } from "./protocol";
import type { ResourceSchema } from "./framework/resource";
import { timeoutsBlock } from "./framework/timeouts";

// The names are the core's (src/core/native/native-provider.ts), typed as them so that the two cannot
// drift: the schemas load before the handshake, without the engine (docs/performance.md).
export const RULE_USER_LIST: typeof NATIVE_RESOURCE_TYPE = "alertrules_rule_user_list";
export const RULES_DATA_SOURCE: typeof CORE_RULES_DATA_SOURCE = "alertrules_rules";
export const RULE_DATA_SOURCE = "alertrules_rule";

/** The provider's resource types and data sources: the keys of its table (src/provider/provider.ts), each a row the compiler asks for. */
export type ResourceTypeName = typeof RULE_USER_LIST;
export type DataSourceTypeName = typeof RULES_DATA_SOURCE | typeof RULE_DATA_SOURCE;

export const providerSchema: Schema = {
  version: 0,
  description: "Alert rule user lists (alert-rule-users). Every argument falls back to its environment variable.",
  attributes: [
    { name: "url", type: "string", optional: true, description: "The service's base URL (ALERTS_API_URL). An error when ALERT_RULE_USERS_PROVIDER_LOCKED=1." },
    { name: "tenant_id", type: "string", optional: true, description: "The tenant ID (ALERTS_TENANT_ID)." },
    { name: "token", type: "string", optional: true, sensitive: true, description: "The bearer token (ALERTS_API_TOKEN). Prefer the environment or token_command: the provider writes it to no state, plan or log, but a value here sits in your configuration, and a value from a variable is saved in a plan file by Terraform (terraform plan -out). An error when ALERT_RULE_USERS_PROVIDER_LOCKED=1." },
    { name: "token_command", type: "string", optional: true, description: "A command that prints a token, bare or as JSON {token, expiresAt} (ALERTS_API_TOKEN_COMMAND). An error when ALERT_RULE_USERS_PROVIDER_LOCKED=1." },
    { name: "max_rps", type: "number", optional: true, description: "Never send more than this many requests a second to the tenant, over every resource of the run and every provider process of the Terraform command (each configuration, alias, plan and apply walk) together (ALERT_RULE_USERS_MAX_RPS; as --max-rps)." },
    { name: "request_timeout", type: "string", optional: true, description: 'The deadline of one request, its retries included, as a duration: "90s", "5m" (ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS, in seconds; default 300s).' },
    { name: "run_timeout", type: "string", optional: true, description: 'The deadline of every request of one Terraform command together, as a duration: "30m", "2h" (ALERT_RULE_USERS_RUN_DEADLINE_SECONDS, in seconds; default none).' },
  ],
};

const userAttributes: readonly Attribute[] = [
  { name: "aliases", type: ["list", "string"], required: true, description: "The aliases to alert on; compared case-insensitively." },
  { name: "expires_at", type: "string", optional: true, description: "yyyy-MM-dd (UTC): from that day on the user is no longer desired." },
];

const policyAttributes: readonly Attribute[] = [
  { name: "name", type: "string", optional: true, description: "Where the policy is declared (shown in violations)." },
  { name: "max_users", type: "number", optional: true, description: "At most this many users on the list." },
  { name: "allowed_alias_domains", type: ["set", "string"], optional: true, description: "Every alias ends in @ one of these domains (case-insensitive)." },
  { name: "exclusion_lists_require_expiry_max_days", type: "number", optional: true, description: "On an exclusion list every user has expires_at within this many days." },
  { name: "forbid_removals_from_inclusion_lists", type: "bool", optional: true, description: "The plan may not remove anyone from an inclusion list." },
];

/** The resource's attributes: what its model encodes to (src/provider/resources/rule-user-list-model.ts). */
export type RuleUserListAttribute = "id" | "rule_id" | "rule_name" | "mode" | "users" | "allow_mass_removal" | "on_destroy" | "policies" | "list_type" | "expired_user_ids" | "entries_without_user_id" | "removes";

export const ruleUserListSchema: ResourceSchema<RuleUserListAttribute> = {
  version: 0,
  description: "The user list of one alert rule: an inclusion list (SPECIFIED_USERS) or an exclusion list (ALL_USERS_NOT_SPECIFIED).",
  blocks: [timeoutsBlock],
  attributes: [
    { name: "id", type: "string", computed: true, description: "The rule's observerRuleId." },
    { name: "rule_id", type: "string", optional: true, computed: true, requiresReplace: "identity", useStateForUnknown: true, description: "The rule's observerRuleId; exactly one of rule_id and rule_name. Changing it replaces the resource." },
    { name: "rule_name", type: "string", optional: true, computed: true, requiresReplace: "identity", useStateForUnknown: true, description: "The rule's exact name; exactly one of rule_id and rule_name. Changing it replaces the resource." },
    { name: "mode", type: "string", optional: true, computed: true, default: "authoritative" satisfies ListMode, description: '"authoritative" (default): the list becomes exactly `users`; "additive": only adds, never shows or touches undeclared entries.' },
    {
      name: "users",
      type: "dynamic",
      required: true,
      description: 'The declared users, keyed by user ID (userIdFromAuthority): users = { "9102" = { aliases = ["alice@example.com"], expires_at = "2026-12-31" } }. A key other than aliases and expires_at is an error.',
      expects: { nesting: "map", attributes: userAttributes },
    },
    { name: "allow_mass_removal", type: "bool", optional: true, computed: true, default: false, description: "Let a plan remove every entry, or more than half of a list of 10 or more (default false)." },
    { name: "on_destroy", type: "string", optional: true, computed: true, default: "keep" satisfies OnDestroy, description: '"keep" (default): destroy leaves the live list as it is; "clear": destroy removes what this resource manages.' },
    { name: "policies", type: "dynamic", optional: true, description: "RuleUserListPolicy checks evaluated against the live list at plan time: policies = [{ max_users = 50 }]. A key other than those below is an error.", expects: { nesting: "list", attributes: policyAttributes } },
    { name: "list_type", type: "string", computed: true, description: "The rule's usersToAlertOn: SPECIFIED_USERS, ALL_USERS_NOT_SPECIFIED or ALL_USERS." },
    { name: "expired_user_ids", type: ["set", "string"], computed: true, description: "Declared users whose expires_at has passed and who are still on the live list: the next apply removes them." },
    { name: "entries_without_user_id", type: ["set", "string"], computed: true, description: "Aliases of live entries without a user ID: an authoritative list is rebuilt to remove them." },
    {
      name: "removes",
      type: ["list", ["object", { user_id: "string", aliases: ["list", "string"] }]],
      computed: true,
      description: "What this plan's apply removes from the live list: each user ID with the aliases that leave (all of a user's aliases when the user leaves), and entries without a user ID (user_id null). Empty when nothing leaves.",
    },
  ],
};

/** The attributes of `alertrules_rules`: its filters and what it reads. */
export type RulesDataSourceAttribute = "name_regex" | "list_type" | "include_system" | "rules";

export const rulesDataSourceSchema: ResourceSchema<RulesDataSourceAttribute> = {
  version: 0,
  description: "The rules of the tenant (one metadata search), every one or those the filters keep.",
  attributes: [
    { name: "name_regex", type: "string", optional: true, description: "Keep the rules whose name matches this regular expression (RE2 syntax, matched in time linear in the name: no lookaround or backreferences; unanchored: ^ and $ anchor it; (?i) ignores case)." },
    { name: "list_type", type: "string", optional: true, description: "Keep the rules whose list is of this type: SPECIFIED_USERS, ALL_USERS_NOT_SPECIFIED or ALL_USERS." },
    { name: "include_system", type: "bool", optional: true, description: "Keep system rules (Departing Employee, High Risk Employee) too (default true)." },
    {
      name: "rules",
      computed: true,
      description: "The rules, by name then ID.",
      nested: {
        nesting: "list",
        attributes: [
          { name: "rule_id", type: "string", computed: true, description: "observerRuleId" },
          { name: "name", type: "string", computed: true, description: "The rule's name." },
          { name: "list_type", type: "string", computed: true, description: "usersToAlertOn" },
          { name: "is_system", type: "bool", computed: true, description: "A system rule (never edited)." },
          { name: "rule_source", type: "string", computed: true, description: "Alerting, Departing Employee or High Risk Employee." },
          { name: "is_enabled", type: "bool", computed: true, description: "Whether the rule is enabled." },
        ],
      },
    },
  ],
};

const ruleFacts: readonly (Attribute & { readonly name: "id" | "list_type" | "is_system" | "rule_source" })[] = [
  { name: "id", type: "string", computed: true, description: "The rule's observerRuleId." },
  { name: "list_type", type: "string", computed: true, description: "usersToAlertOn: SPECIFIED_USERS, ALL_USERS_NOT_SPECIFIED or ALL_USERS; null for a system rule (its list is not read)." },
  { name: "is_system", type: "bool", computed: true, description: "A system rule (never edited)." },
  { name: "rule_source", type: "string", computed: true, description: "Alerting, Departing Employee or High Risk Employee." },
];

/** The attributes of `alertrules_rule`: the rule asked for, its facts and its live users. */
export type RuleDataSourceAttribute = "rule_id" | "rule_name" | "id" | "list_type" | "is_system" | "rule_source" | "is_enabled" | "users";

export const ruleDataSourceSchema: ResourceSchema<RuleDataSourceAttribute> = {
  version: 0,
  description: "One rule, by rule_id or by rule_name: its facts and the users on its list as they are live (one metadata search, one query-users).",
  attributes: [
    { name: "rule_id", type: "string", optional: true, computed: true, description: "The rule's observerRuleId; exactly one of rule_id and rule_name." },
    { name: "rule_name", type: "string", optional: true, computed: true, description: "The rule's exact name; exactly one of rule_id and rule_name." },
    ...ruleFacts,
    { name: "is_enabled", type: "bool", computed: true, description: "Whether the rule is enabled (the rule metadata's isEnabled)." },
    {
      name: "users",
      computed: true,
      description: "The live list, by user ID then first alias; empty for a system rule.",
      nested: {
        nesting: "list",
        attributes: [
          { name: "user_id", type: "string", computed: true, description: "userIdFromAuthority; null for an entry without one." },
          { name: "aliases", type: ["list", "string"], computed: true, description: "The entry's aliases, as the service keeps them." },
        ],
      },
    },
  ],
};
