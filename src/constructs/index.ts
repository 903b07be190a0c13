/**
 * The cdktf constructs of alert-rule-users. The only folder that imports cdktf, constructs and
 * @cdktf/provider-null (and cdktn, in cdktn.ts: the `alert-rule-users/cdktn` entry): the engine and
 * the CLI never load them.
 */
export { AlertRulesProvider, RuleUserList } from "./rule-user-list";
export type { AlertRulesProviderProps, ProvisionerResourceType, RuleUserListMove, RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list";
export { RuleUserListPolicy } from "./rule-user-list-policy";
export type { RuleUserListPolicyProps } from "./rule-user-list-policy";
