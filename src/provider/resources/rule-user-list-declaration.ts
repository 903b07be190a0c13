/**
 * The declaration of an `alertrules_rule_user_list` configuration: its model read into the
 * engine's `DesiredList` by the one reading of a native list's attributes
 * (src/core/declaration/native.ts), every problem a diagnostic named by attribute.
 */
import type { DesiredList, DesiredUser } from "../../core/engine/desired";
import type { NativeProblem } from "../../core/declaration/native";
import type { OnDestroy } from "../../core/native/native-provider";
import { nativeListOf } from "../../core/declaration/native";
import { expectedShapeProblems, plain } from "../framework/dynamic";
import { hasUnknown, stringValue } from "../framework/values";
import type { Diagnostic, ObjectValue, Value } from "../protocol";
import { ruleUserListSchema } from "../schema";
import { declaredUsers, type RuleUserListModel } from "./rule-user-list-model";

/** How the resource is named in messages: by the rule it declares. */
function resourceLabel(id: string | null, name: string | null): string {
  return id !== null ? `alertrules_rule_user_list for rule ${id}` : `alertrules_rule_user_list for rule "${name ?? "?"}"`;
}

/** The construct's prop names in a message, as the resource's attributes. */
function renameFields(message: string): string {
  return message
    .replace(/ruleId\/ruleName/g, "rule_id/rule_name")
    .replace(/allowMassRemoval/g, "allow_mass_removal")
    .replace(/\.expiresAt/g, ".expires_at")
    .replace(/exclusionListsRequireExpiry\.maxDays/g, "exclusion_lists_require_expiry_max_days")
    .replace(/maxUsers/g, "max_users")
    .replace(/allowedAliasDomains/g, "allowed_alias_domains")
    .replace(/forbidRemovalsFromInclusionLists/g, "forbid_removals_from_inclusion_lists");
}

/** `users[2]` in a message as `users["<id>"]`. */
function nameUsers(message: string, users: readonly DesiredUser[]): string {
  return message.replace(/users\[(\d+)\]/g, (whole, i: string) => {
    const id = users[Number(i)]?.userId;
    return id === undefined ? whole : `users[${JSON.stringify(id)}]`;
  });
}

export type Declared = { readonly kind: "declared"; readonly list: DesiredList; readonly onDestroy: OnDestroy } | { readonly kind: "unknown" } | { readonly kind: "invalid"; readonly diagnostics: Diagnostic[] };

/** The attributes whose value has a shape of its own to check (dynamic values: Terraform checks no key of them). */
const USERS = ruleUserListSchema.attributes.find((attribute) => attribute.name === "users")!;
const POLICIES = ruleUserListSchema.attributes.find((attribute) => attribute.name === "policies")!;

/**
 * The declaration of a resource's configuration, with every failure at once (the construct's
 * rules, named by attribute), or `unknown` while a value is not known yet (Terraform validates
 * again once it is). Decoded once per call: validate and plan each decode the configuration they
 * are sent.
 */
export function declarationOf(config: RuleUserListModel): Declared {
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

/** A problem of the attributes as Terraform shows it: named by attribute, in the resource's words. */
function diagnosticOf(problem: NativeProblem, users: readonly DesiredUser[]): Diagnostic {
  switch (problem.subject) {
    case "list":
      return { severity: "error", summary: "Invalid rule user list", detail: `${nameUsers(renameFields(problem.message), users)}.`, ...(problem.path.length === 0 ? {} : { attribute: problem.path }) };
    case "on_destroy":
      return { severity: "error", summary: "Invalid on_destroy", detail: problem.message, attribute: problem.path };
    case "policy":
      return { severity: "error", summary: "Invalid policy", detail: renameFields(problem.message), attribute: problem.path };
  }
}

