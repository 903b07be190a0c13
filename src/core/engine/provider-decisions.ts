/**
 * Two decisions of the native provider's resource, pure: what a destroy with `on_destroy = "clear"`
 * leaves on the list, and whether a rule is declared by more than one resource. The workflow
 * (src/io/workflow/provider/rule-state.ts) reads and records around them; nothing here reads,
 * writes or keeps anything.
 */
import { escapeInvisible } from "../../shared/invisible";
import type { DesiredList, DesiredUser, ListMode } from "./desired";
import type { ObservedList, RuleFacts } from "./observation";

/** What a resource manages of a list: its mode and its declared users. */
export interface Managed {
  readonly mode: ListMode;
  readonly users: readonly DesiredUser[];
}

/**
 * The declaration a clear plans to (its plan is the engine's, of this declaration against the
 * list read): what the resource manages leaves the live list. Authoritative: every entry;
 * additive: the declared users only, the others kept as they are (refused when entries without a
 * user ID would need a rebuild that loses them).
 */
export function clearDeclaration(rule: RuleFacts, list: ObservedList, managed: Managed): { readonly ok: true; readonly declaration: DesiredList } | { readonly ok: false; readonly reason: string } {
  let keep: DesiredUser[] = [];
  if (managed.mode === "additive") {
    if (list.entries.some((e) => e.userId === null)) {
      return { ok: false, reason: `rule ${rule.observerRuleId} has entries without a user ID; removing only this resource's users would need a rebuild that loses them. Remove those entries in the console first, or set on_destroy = "keep".` };
    }
    const declared = new Set(managed.users.map((u) => u.userId));
    keep = list.entries.filter((e) => e.userId !== null && !declared.has(e.userId)).map((e) => ({ userId: e.userId!, aliases: [...e.aliases] }));
  }
  return { ok: true, declaration: { constructPath: `alertrules_rule_user_list for rule ${rule.observerRuleId}`, stack: "terraform", ruleId: rule.observerRuleId, ruleName: null, mode: "authoritative", allowMassRemoval: true, users: keep } };
}

/** A declaration's identity, to tell two resources for one rule from one resource planned twice. */
export function claimIdentity(list: DesiredList): string {
  return JSON.stringify([list.ruleId === null ? "name" : "id", list.mode, list.users, list.policies ?? []]);
}

/**
 * What a claim is keyed on: the rule as the service knows it, its tenant and its ID, and not the
 * URL it was reached by. Two provider configurations whose `url` differs in spelling only (case,
 * `localhost` / `127.0.0.1` / `[::1]`, a default port, a trailing slash or a path, another name
 * of the same host) reach the same rule, and so do two whose URLs no spelling rule could relate.
 * (Two services holding the same tenant and rule IDs, a copy of a tenant, are taken for one.)
 */
export function claimKey(tenantId: string, ruleId: string): string {
  return JSON.stringify([tenantId.trim().toLowerCase(), ruleId]);
}

/**
 * One resource per rule: given the identities that planned `rule` in this process (this claim's
 * among them) and the identity another process of the command claimed it with (null: none, or
 * this one), null when the claim stands, else why the plan is refused.
 */
export function duplicateClaim(rule: RuleFacts, identitiesHere: ReadonlySet<string>, elsewhere: string | null): string | null {
  if (identitiesHere.size === 1 && elsewhere === null) return null;
  return `rule ${escapeInvisible(rule.observerRuleId)} (${escapeInvisible(rule.name)}) is declared by more than one alertrules_rule_user_list in this configuration (by rule_id and by rule_name, twice, or through two provider configurations that reach the same tenant, however their url is written): keep exactly one resource per rule.`;
}
