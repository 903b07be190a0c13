/**
 * The native provider's plan and apply of one rule (design §12.1): a plan is kept whole in
 * Terraform's planned private data, and its apply sends exactly that plan's calls, after the same
 * admission as a saved plan (src/io/workflow/apply.ts), or nothing.
 *
 *   plan     the engine's plan of one declaration against what was read (src/io/workflow/one-rule.ts)
 *   apply    read again right before the first write; a list that moved since the plan read it sends
 *            nothing and says what moved ("plan again"); else the plan's calls, then verify
 *   destroy  with on_destroy = "clear": a plan of its own, made and shown at plan time, applied the same way
 */
import { hasChanges } from "../../core/build-plan";
import { checkNoExpiredAdds } from "../../core/admission";
import type { DesiredList, DesiredUser } from "../../core/desired";
import { fingerprintList } from "../../core/fingerprint";
import { describeListChange, plannedRemovals, type PlannedRemoval } from "../../core/native-provider";
import type { ObservedList, RuleFacts, RuleObservation } from "../../core/observation";
import { planSchema, type Plan } from "../../core/plan-schema";
import { rulesToReadAgain } from "../../core/still-planned";
import type { ApplyResult } from "../../core/apply-results";
import type { TerraformRun } from "../terraform-run";
import { applyPlanned } from "./apply";
import { planOneRule, today } from "./one-rule";
import type { RunOptions, Session } from "./session";

export type { PlannedRemoval };
export { plannedRemovals };

/** A plan kept in Terraform's private data, read back: null when it is not one (another version, edited). */
export function parseKeptPlan(value: unknown): Plan | null {
  const parsed = planSchema.safeParse(value);
  return parsed.success && parsed.data.rules.length === 1 ? parsed.data : null;
}

export type PlannedRuleApply =
  | { readonly kind: "applied"; readonly result: ApplyResult }
  | { readonly kind: "no-changes" }
  /** The list moved since the plan read it: nothing was sent. */
  | { readonly kind: "stale"; readonly changes: readonly string[] }
  /** Terraform stopped the run before the first write: nothing was sent. */
  | { readonly kind: "interrupted" };

/**
 * Applies a plan the provider made (and Terraform kept): reads the rule again right before the
 * first write, refuses (nothing sent) when the list is not the one the plan read (`observed`), then
 * the admission of a saved plan, the plan's calls and the read back. Throws the admission's errors.
 */
export async function applyPlannedRule(plan: Plan, observed: ObservedList | null, session: Session, options: RunOptions): Promise<PlannedRuleApply> {
  if (!hasChanges(plan)) return { kind: "no-changes" };
  checkNoExpiredAdds(plan, today());
  const reads = await session.readAgain(rulesToReadAgain(plan));
  const read = reads[0];
  const rule = plan.rules[0]!;
  if (read !== undefined && read.ok && fingerprintList(read.list) !== rule.fingerprint) {
    const changes = observed === null ? [] : describeListChange(observed, read.list);
    return { kind: "stale", changes: changes.length > 0 ? changes : ["the live list is not the one the plan read"] };
  }
  if (options.signal?.aborted === true) return { kind: "interrupted" };
  return { kind: "applied", result: await applyPlanned(plan, session, options, reads) };
}

/**
 * The plan of a destroy with `on_destroy = "clear"` (pure): what the resource manages leaves the
 * live list. Authoritative: every entry; additive: the declared users only (refused when entries
 * without a user ID would need a rebuild that loses them).
 */
export function planClear(
  rule: RuleFacts,
  list: ObservedList,
  managed: { readonly mode: "authoritative" | "additive"; readonly users: readonly DesiredUser[] },
  session: Session,
): { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly reason: string } {
  let keep: DesiredUser[] = [];
  if (managed.mode === "additive") {
    if (list.entries.some((e) => e.userId === null)) {
      return { ok: false, reason: `rule ${rule.observerRuleId} has entries without a user ID; removing only this resource's users would need a rebuild that loses them. Remove those entries in the console first, or set on_destroy = "keep".` };
    }
    const declared = new Set(managed.users.map((u) => u.userId));
    keep = list.entries.filter((e) => e.userId !== null && !declared.has(e.userId)).map((e) => ({ userId: e.userId!, aliases: [...e.aliases] }));
  }
  const clear: DesiredList = { constructPath: `alertrules_rule_user_list for rule ${rule.observerRuleId}`, stack: "terraform", ruleId: rule.observerRuleId, ruleName: null, mode: "authoritative", allowMassRemoval: true, users: keep };
  const observation: RuleObservation = { kind: "found", rule, list };
  return { ok: true, plan: planOneRule(clear, observation, session) };
}

/** A declaration's identity, to tell two resources for one rule from one resource planned twice. */
function identityOf(list: DesiredList): string {
  return JSON.stringify([list.ruleId === null ? "name" : "id", list.mode, list.users, list.policies ?? []]);
}

/** Where the provider's plans of one Terraform command note which declaration planned each rule. */
export interface RuleClaims {
  readonly session: Pick<Session, "connection">;
  /** Rule ID → the declarations planned for it in this process. */
  readonly planned: Map<string, Set<string>>;
  /** What the provider processes of this Terraform command share (one per provider alias). */
  readonly terraform: Pick<TerraformRun, "claim">;
}

/**
 * One resource per rule, across every provider configuration of this Terraform command (an alias
 * is a process of its own: src/io/terraform-run.ts): notes `list` as planning `rule`. Null, or why
 * the plan is refused.
 */
export function claimRule(claims: RuleClaims, rule: RuleFacts, list: DesiredList): string | null {
  const identity = identityOf(list);
  const seen = claims.planned.get(rule.observerRuleId) ?? new Set<string>();
  seen.add(identity);
  claims.planned.set(rule.observerRuleId, seen);
  const elsewhere = claims.terraform.claim(JSON.stringify([claims.session.connection, rule.observerRuleId]), identity);
  if (seen.size === 1 && elsewhere === null) return null;
  return `rule ${rule.observerRuleId} (${rule.name}) is declared by more than one alertrules_rule_user_list in this configuration (by rule_id and by rule_name, twice, or through two provider configurations of the same tenant): keep exactly one resource per rule.`;
}
