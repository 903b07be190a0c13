/**
 * The cdktf constructs of alert-rule-users. The only folder that imports cdktf, constructs and
 * @cdktf/provider-null: the engine and the CLI never load them.
 */
export { RuleUserList } from "./rule-user-list";
export type { RuleUserListProps, RuleUserListUser } from "./rule-user-list";
export { RuleUserListPolicy } from "./rule-user-list-policy";
export type { RuleUserListPolicyProps } from "./rule-user-list-policy";
