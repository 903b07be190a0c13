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
import { modelCodec, type ModelFields, type ModelOf } from "../framework/model";
import { stringValue } from "../framework/values";
import { ruleUserListSchema } from "../schema";
import { compactUsersValue, usersOf } from "./rule-user-list-values";

/** The resource's fields: each attribute (and the `timeouts` block) by the model's name, and what it holds. */
const FIELDS = {
  /** The rule's observerRuleId, resolved. */
  id: ["id", "string"],
  ruleId: ["rule_id", "string"],
  ruleName: ["rule_name", "string"],
  mode: ["mode", "string"],
  /** The declared users as Terraform typed them (a dynamic value). */
  users: ["users", "value"],
  allowMassRemoval: ["allow_mass_removal", "bool"],
  onDestroy: ["on_destroy", "string"],
  policies: ["policies", "value"],
  listType: ["list_type", "string"],
  expiredUserIds: ["expired_user_ids", "value"],
  entriesWithoutUserId: ["entries_without_user_id", "value"],
  removes: ["removes", "value"],
  /** The `timeouts` block as written (the server reads the deadlines from it). */
  timeouts: ["timeouts", "value"],
} as const satisfies ModelFields;

export type RuleUserListModel = ModelOf<typeof FIELDS>;

/** Decoded with the schema's defaults, encoded with every attribute and block. */
export const ruleUserListModel = modelCodec(ruleUserListSchema, FIELDS);

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
export const declaredUsers = (model: RuleUserListModel): readonly DesiredUser[] | null => usersOf(model.users);

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
  const users = compactUsersValue(printableValues(redactStrings(view.users)));
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
