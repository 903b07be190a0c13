/**
 * The declaration a provisioner resource carries in Terraform's state: a `terraform_data` (its
 * `triggers_replace`) or a `null_resource` (its `triggers`) written by a RuleUserList. Read by
 * the native provider's `MoveResourceState` (a `moved` block onto `alertrules_rule_user_list`).
 * Pure: the state is the JSON Terraform stored, parsed.
 *
 * Terraform stores the triggers as it evaluated them: the templates of the synthesized JSON are
 * already undone (`$${` is `${` there), so they are escaped again before the trigger decoder,
 * which undoes the escaping of the synthesized JSON, reads them.
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import type { ListDeclaration } from "../engine/desired";
import { POLICIES_TRIGGER, decodeTriggers, escapeTemplate, isRuleUserListTriggers } from "./triggers";

/** The resource types a RuleUserList synthesizes, with the attribute of their triggers. */
export const PROVISIONER_CARRIERS = { terraform_data: "triggers_replace", null_resource: "triggers" } as const;
export type ProvisionerType = keyof typeof PROVISIONER_CARRIERS;

/** A dynamic value (terraform_data's triggers_replace) as Terraform's state JSON writes it: `{value, type}`. */
const dynamicValue = z.object({ value: z.unknown(), type: z.unknown() });

/**
 * The declaration, and the policies the triggers carry (the native `policies` value, as JSON
 * parsed: triggers.ts `policies`; null when the list had none, or was synthesized before they
 * were carried).
 */
export type ProvisionerDeclaration =
  | { readonly ok: true; readonly declaration: ListDeclaration; readonly policies: readonly Readonly<Record<string, unknown>>[] | null }
  | { readonly ok: false; readonly reason: string };

const carriedPolicies = z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])));

/** The declaration in a provisioner resource's state, or why there is none (a sentence saying what to do). */
export function declarationOfProvisionerState(sourceType: string, state: unknown): ProvisionerDeclaration {
  if (!(sourceType in PROVISIONER_CARRIERS)) {
    return { ok: false, reason: `a ${sourceType} cannot be moved into alertrules_rule_user_list: only the terraform_data and null_resource that a RuleUserList writes can; import the list instead (terraform import, or an import block).` };
  }
  const attribute = PROVISIONER_CARRIERS[sourceType as ProvisionerType];
  const parsed = z.record(z.string(), z.unknown()).safeParse(state);
  let triggers: unknown = parsed.success ? parsed.data[attribute] : undefined;
  const wrapped = dynamicValue.safeParse(triggers);
  if (wrapped.success) triggers = wrapped.data.value;
  if (!isRuleUserListTriggers(triggers)) {
    return { ok: false, reason: `this ${sourceType} was not written by a RuleUserList (its ${attribute} are not alert-rule-users triggers): remove the moved block and import the list instead (terraform import, or an import block).` };
  }
  const escaped = Object.fromEntries(Object.entries(triggers as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? escapeTemplate(v) : v]));
  const rawPolicies = (triggers as Record<string, unknown>)[POLICIES_TRIGGER];
  let policies: readonly Readonly<Record<string, unknown>>[] | null = null;
  if (typeof rawPolicies === "string") {
    let parsedPolicies: unknown;
    try {
      parsedPolicies = JSON.parse(rawPolicies);
    } catch {
      parsedPolicies = undefined;
    }
    const checked = carriedPolicies.safeParse(parsedPolicies);
    if (!checked.success) return { ok: false, reason: `the ${attribute}.${POLICIES_TRIGGER} of this ${sourceType} is not the policies a RuleUserList writes: remove the moved block and import the list instead (terraform import, or an import block).` };
    policies = checked.data;
  }
  try {
    return { ok: true, declaration: decodeTriggers(escaped, `${sourceType} state`, attribute), policies };
  } catch (err) {
    if (err instanceof DeclarationError) return { ok: false, reason: `${err.failures.map((f) => f.message).join("; ")}. Import the list instead (terraform import, or an import block).` };
    throw err;
  }
}
