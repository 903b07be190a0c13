/**
 * The model of an `alertrules_rule_user_list` value (configuration, state or plan): decoded once
 * from the wire value with the schema's defaults, and encoded back. The resource reads and builds
 * these fields, never the wire value by string key; its state is `encode(model)` (by the server).
 */
import type { DesiredUser, ListMode } from "../../core/engine/desired";
import type { RuleReference } from "../../io/observe";
import type { RuleFacts } from "../../core/engine/observation";
import type { ListView } from "../../core/live/list-view";
import { redactStrings } from "../../io/door-words";
import { printableValues } from "../../core/render";
import type { ObjectValue, Value } from "../protocol";
import type { Codec } from "../framework/resource";
import { asBool, asString, attributesOf, stringValue, type BoolValue, type StringValue } from "../framework/values";
import { ruleUserListSchema, type RuleUserListAttribute } from "../schema";
import { usersOf, usersValue } from "./rule-user-list-values";

export interface RuleUserListModel {
  /** The rule's observerRuleId, resolved. */
  readonly id: StringValue;
  readonly ruleId: StringValue;
  readonly ruleName: StringValue;
  readonly mode: StringValue;
  /** The declared users as Terraform typed them (a dynamic value). */
  readonly users: Value;
  readonly allowMassRemoval: BoolValue;
  readonly onDestroy: StringValue;
  readonly policies: Value;
  readonly listType: StringValue;
  readonly expiredUserIds: Value;
  readonly entriesWithoutUserId: Value;
  readonly removes: Value;
  /** The `timeouts` block as written (the server reads the deadlines from it). */
  readonly timeouts: Value;
}

const attribute = attributesOf(ruleUserListSchema);

/** Every attribute and block of the resource, by the model's name: the codec's one table. */
export const ruleUserListModel: Codec<RuleUserListModel> = {
  decode(wire: ObjectValue): RuleUserListModel {
    return {
      id: asString(attribute(wire, "id")),
      ruleId: asString(attribute(wire, "rule_id")),
      ruleName: asString(attribute(wire, "rule_name")),
      mode: asString(attribute(wire, "mode")),
      users: attribute(wire, "users"),
      allowMassRemoval: asBool(attribute(wire, "allow_mass_removal")),
      onDestroy: asString(attribute(wire, "on_destroy")),
      policies: attribute(wire, "policies"),
      listType: asString(attribute(wire, "list_type")),
      expiredUserIds: attribute(wire, "expired_user_ids"),
      entriesWithoutUserId: attribute(wire, "entries_without_user_id"),
      removes: attribute(wire, "removes"),
      timeouts: wire["timeouts"] ?? null,
    };
  },
  encode(model: RuleUserListModel): { [name in RuleUserListAttribute | "timeouts"]: Value } {
    return {
      id: model.id,
      rule_id: model.ruleId,
      rule_name: model.ruleName,
      mode: model.mode,
      users: model.users,
      allow_mass_removal: model.allowMassRemoval,
      on_destroy: model.onDestroy,
      policies: model.policies,
      list_type: model.listType,
      expired_user_ids: model.expiredUserIds,
      entries_without_user_id: model.entriesWithoutUserId,
      removes: model.removes,
      timeouts: model.timeouts,
    };
  },
};

/** Every attribute and block null: what an import or a move fills. */
export const EMPTY_RULE_USER_LIST: RuleUserListModel = {
  id: null,
  ruleId: null,
  ruleName: null,
  mode: null,
  users: null,
  allowMassRemoval: null,
  onDestroy: null,
  policies: null,
  listType: null,
  expiredUserIds: null,
  entriesWithoutUserId: null,
  removes: null,
  timeouts: null,
};

/** The rule as a lookup takes it: by ID when one is set, else by name. */
export function referenceOf(model: RuleUserListModel): RuleReference {
  const ruleId = stringValue(model.ruleId);
  return ruleId !== null ? { ruleId, ruleName: null } : { ruleId: null, ruleName: stringValue(model.ruleName) };
}

/** The attribute that names the rule (a rule error is about it). */
export const namedBy = (model: RuleUserListModel): "rule_id" | "rule_name" => (model.ruleId !== null ? "rule_id" : "rule_name");

/** The list's mode ("authoritative" unless "additive"). */
export const listModeOf = (model: RuleUserListModel): ListMode => (model.mode === "additive" ? "additive" : "authoritative");

/** The declared users, sorted by user ID; null when `users` is null or unknown. */
export const declaredUsers = (model: RuleUserListModel): DesiredUser[] | null => usersOf(model.users);

/** The state of a list as read: the declaration's settings (`base`), the view of the live list, and the rule's facts. */
export function stateOf(input: {
  readonly base: RuleUserListModel;
  readonly rule: RuleFacts;
  readonly listType: string | null;
  readonly view: Pick<ListView, "users" | "expiredOnList" | "aliasesWithoutUserId">;
}): RuleUserListModel {
  const { base, rule, view } = input;
  // aliases and names come from the service, which may echo a secret: state never holds one; and
  // Terraform prints attributes as they are: nothing in them may draw (escaped, design §13.2)
  const users = usersValue(printableValues(redactStrings(view.users)), base.users);
  return {
    ...printableValues(
      redactStrings({
        ...base,
        users: null,
        id: rule.observerRuleId,
        listType: input.listType,
        expiredUserIds: [...view.expiredOnList],
        entriesWithoutUserId: [...view.aliasesWithoutUserId],
        removes: [],
      }),
    ),
    users,
  };
}
