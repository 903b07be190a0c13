/**
 * The declaration of an `alertrules_rule_user_list` configuration: its model read into the
 * engine's `DesiredList` by the one reading of a native list's attributes
 * (src/core/declaration/native.ts), every problem a diagnostic at its attribute, said with the
 * provider's table of the core's fields (src/shared/field-names.ts `ATTRIBUTE_NAMES`).
 */
import type { DesiredList, DesiredUser } from "../../core/engine/desired";
import type { NativeProblem } from "../../core/declaration/native";
import type { OnDestroy } from "../../core/native/native-provider";
import { nativeListOf } from "../../core/declaration/native";
import { expectedShapeProblems, plain } from "../framework/dynamic";
import { hasUnknown, stringValue } from "../framework/values";
import type { Diagnostic, ObjectValue, PathStep, Value } from "../protocol";
import { ATTRIBUTE_NAMES, problemText, type FieldStep, type FieldWords } from "../../io/door-words";
import { ruleUserListSchema } from "../schema";
import { declaredUsers, type RuleUserListModel } from "./rule-user-list-model";

/** How the resource is named in messages: by the rule it declares. */
function resourceLabel(id: string | null, name: string | null): string {
  return id !== null ? `alertrules_rule_user_list for rule ${id}` : `alertrules_rule_user_list for rule "${name ?? "?"}"`;
}

export type Declared = { readonly kind: "declared"; readonly list: DesiredList; readonly onDestroy: OnDestroy } | { readonly kind: "unknown" } | { readonly kind: "invalid"; readonly diagnostics: Diagnostic[] };

/** The attributes whose value has a shape of its own to check (dynamic values: Terraform checks no key of them). */
const USERS = ruleUserListSchema.attributes.find((attribute) => attribute.name === "users")!;
const POLICIES = ruleUserListSchema.attributes.find((attribute) => attribute.name === "policies")!;

/**
 * The declaration of a resource's configuration, with every failure at once (the construct's
 * rules, named by attribute), or `unknown` while a value is not known yet (Terraform validates
 * again once it is). Read once per configuration: the server decodes a configuration's bytes once
 * (validate and plan are sent the same), and its model is read here once.
 */
export function declarationOf(config: RuleUserListModel): Declared {
  const known = declarations.get(config);
  if (known !== undefined) return known;
  const declared = declarationOfModel(config);
  declarations.set(config, declared);
  return declared;
}

/** Declarations by the model they were read from: one configuration (decoded once by the server) is read once. */
const declarations = new WeakMap<RuleUserListModel, Declared>();

function declarationOfModel(config: RuleUserListModel): Declared {
  const shapeProblems = [...expectedShapeProblems(USERS, config.users), ...expectedShapeProblems(POLICIES, config.policies)];
  if (shapeProblems.length > 0) return { kind: "invalid", diagnostics: shapeProblems };
  const settings: Value[] = [config.ruleId, config.ruleName, config.users, config.mode, config.policies, config.allowMassRemoval, config.onDestroy];
  if (settings.some(hasUnknown)) return { kind: "unknown" };
  const users = declaredUsers(config) ?? [];
  const ruleId = stringValue(config.ruleId);
  const ruleName = stringValue(config.ruleName);
  const policies = plain(config.policies);
  const read = nativeListOf(
    {
      rule_id: ruleId,
      rule_name: ruleName,
      mode: stringValue(config.mode),
      allow_mass_removal: config.allowMassRemoval,
      users,
      on_destroy: stringValue(config.onDestroy),
      policies: Array.isArray(policies) ? policies.map((raw) => (raw ?? {}) as ObjectValue) : null,
    },
    (index) => `policies[${index}]`,
  );
  if (!read.ok) return { kind: "invalid", diagnostics: read.problems.map((problem) => diagnosticOf(problem, users)) };
  return {
    kind: "declared",
    onDestroy: read.onDestroy ?? "keep",
    list: {
      constructPath: resourceLabel(ruleId, ruleName),
      stack: "terraform",
      ruleId,
      ruleName,
      mode: read.mode,
      allowMassRemoval: read.allowMassRemoval,
      users,
      ...(read.policies.length > 0 ? { policies: read.policies } : {}),
    },
  };
}

/** The resource's words for the core's fields: its attributes, and a user by its ID (`users["9102"]`), not its place in the list. */
function attributeWords(users: readonly DesiredUser[]): FieldWords {
  return { names: ATTRIBUTE_NAMES, key: (field, index) => (field === "users" ? users[index]?.userId : undefined) };
}

/** The attribute a problem of the list is at: the field, a user by its key and the user's field (not an element of it). */
function attributePath(at: readonly FieldStep[], users: readonly DesiredUser[]): PathStep[] {
  const [field, index, inner] = at;
  if (field === undefined || typeof field === "number") return [];
  if (field !== "users" || typeof index !== "number") return [ATTRIBUTE_NAMES[field]];
  const userId = users[index]?.userId;
  if (userId === undefined) return ["users"];
  return ["users", { key: userId }, ...(typeof inner === "string" && inner !== "userId" ? [ATTRIBUTE_NAMES[inner]] : [])];
}

/** A problem of the attributes as Terraform shows it: at its attribute, in the resource's words. */
function diagnosticOf(problem: NativeProblem, users: readonly DesiredUser[]): Diagnostic {
  switch (problem.subject) {
    case "list": {
      const attribute = attributePath(problem.problem.at, users);
      return { severity: "error", summary: "Invalid rule user list", detail: `${problemText(problem.problem, attributeWords(users))}.`, ...(attribute.length === 0 ? {} : { attribute }) };
    }
    case "on_destroy":
      return { severity: "error", summary: "Invalid on_destroy", detail: problem.message, attribute: ["on_destroy"] };
    case "policy": {
      const field = problem.problem.at[0];
      return {
        severity: "error",
        summary: "Invalid policy",
        detail: `policies[${problem.policy}]: ${problemText(problem.problem, { names: ATTRIBUTE_NAMES })}`,
        attribute: ["policies", { index: problem.policy }, ...(typeof field === "string" ? [ATTRIBUTE_NAMES[field]] : [])],
      };
    }
  }
}
