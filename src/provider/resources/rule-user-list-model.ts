/**
 * The model of an `alertrules_rule_user_list` value (configuration, state or plan), decoded once
 * from the wire value with the schema's defaults: the resource reads these fields, never the wire
 * value by string key.
 */
import type { DesiredUser, ListMode } from "../../core/engine/desired";
import type { RuleReference } from "../../io/observe";
import type { ObjectValue } from "../protocol";
import { valuesOf, type Values } from "../framework/resource";
import { ruleUserListSchema, type RuleUserListAttribute } from "../schema";
import { stringValue, usersOf } from "./rule-user-list-values";

export interface RuleUserListModel {
  /** The value as Terraform sent it (for what the resource hands back as it came). */
  readonly wire: ObjectValue;
  /** Every attribute by name (the compiler checks each), null where absent, the schema's default where null. */
  readonly values: Values<RuleUserListAttribute>;
  readonly id: string | null;
  readonly ruleId: string | null;
  readonly ruleName: string | null;
  /** The rule as a lookup takes it: by ID when one is set, else by name. */
  readonly reference: RuleReference;
  /** The attribute that names the rule (a rule error is about it). */
  readonly namedBy: "rule_id" | "rule_name";
  readonly mode: ListMode;
  readonly onDestroy: string | null;
  /** The declared users, sorted by user ID; null when `users` is null or unknown. */
  readonly users: DesiredUser[] | null;
  readonly listType: string | null;
}

/** The model of a wire value. */
export function decodeRuleUserList(wire: ObjectValue): RuleUserListModel {
  const values = valuesOf(ruleUserListSchema, wire);
  const ruleId = stringValue(values.rule_id);
  const ruleName = stringValue(values.rule_name);
  return {
    wire,
    values,
    id: stringValue(values.id),
    ruleId,
    ruleName,
    reference: ruleId !== null ? { ruleId, ruleName: null } : { ruleId: null, ruleName },
    namedBy: values.rule_id !== null ? "rule_id" : "rule_name",
    mode: stringValue(values.mode) === "additive" ? "additive" : "authoritative",
    onDestroy: stringValue(values.on_destroy),
    users: usersOf(values.users),
    listType: stringValue(values.list_type),
  };
}
