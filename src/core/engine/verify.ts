/** Verification after apply: a rule converged when a fresh diff of its read-back list needs no call. */
import { escapeInvisible } from "../../shared/invisible";
import { diffRule } from "./diff";
import type { ObservedList, RuleFacts } from "./observation";
import { userIdsRemoved } from "./operations";
import type { RulePlan } from "./plan-schema";

/** The facts of a planned rule, as observe and the diff need them (the rule was editable when planned). */
export function plannedRuleFacts(rule: RulePlan): RuleFacts {
  return { observerRuleId: rule.ruleId ?? "", name: rule.ruleName ?? "", isSystem: false, ruleSource: "Alerting" };
}

/**
 * The plan of `rule` derived again from its own desired list and `list` (a list read now): what
 * apply re-checks a saved plan against (rederive.ts) and what verification expects to be empty.
 */
export function rederiveRule(rule: RulePlan, list: ObservedList, batchSize: number): RulePlan {
  const desired = {
    constructPath: rule.constructPath,
    stack: rule.stack,
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    mode: rule.mode,
    allowMassRemoval: rule.allowMassRemoval,
    users: rule.desired,
  };
  return diffRule(desired, { kind: "found", rule: plannedRuleFacts(rule), list }, { batchSize });
}

/** Calls still needed to bring `list` to the rule's desired state; none means it converged (see {@link readBackProblem}). */
export function remainingCalls(rule: RulePlan, list: ObservedList): number {
  return rederiveRule(rule, list, Number.MAX_SAFE_INTEGER).calls.length;
}

/**
 * Why a list read back does not verify the rule, or null when it does: it must be of the list
 * type the plan saw (a read-back saying the rule now monitors all users, or that an inclusion
 * list became an exclusion list, verifies nothing; a plan without a list type verifies nothing
 * either), and the list itself must need no call.
 */
export function readBackProblem(rule: RulePlan, list: ObservedList): string | null {
  // A rule that monitors all users has no list to verify, whatever the plan says it expected.
  if (list.usersToAlertOn === "ALL_USERS" || list.usersToAlertOn !== rule.listType) {
    return `read back, the rule's list is of type ${list.usersToAlertOn}, not ${rule.listType ?? "(no list type in the plan)"} as planned, so it cannot be verified (the service changed the rule, or answered wrongly): check the rule, run plan, then apply again`;
  }
  if (remainingCalls(rule, list) > 0) return mismatchMessage(rule, list);
  return null;
}

/**
 * The entries of `list` (read back after the rule's writes) whose user ID a sent remove-users
 * named: the service kept them, so it could not identify them by that ID (an entry without ID
 * whose marker was not recognized). Each as `"ID" (aliases)`, for the failure message.
 */
export function keptEntries(rule: RulePlan, list: ObservedList): string[] {
  const named = new Set<string>();
  for (const call of rule.calls) for (const id of userIdsRemoved(call)) named.add(id);
  return list.entries.filter((e) => e.userId !== null && named.has(e.userId)).map((e) => `"${escapeInvisible(e.userId!)}" (${e.aliases.map((a) => escapeInvisible(a)).join(", ")})`);
}

/** Why a rule's read-back does not match: the kept entries when there are some, else a concurrent change. */
export function mismatchMessage(rule: RulePlan, list: ObservedList): string {
  const kept = keptEntries(rule, list);
  if (kept.length === 0) {
    return "read back after apply, the list does not match the declaration (it may have been changed concurrently): run plan to see the difference, then apply again";
  }
  return (
    `read back after apply, the list does not match the declaration: the service kept the ${kept.length === 1 ? "entry" : "entries"} ${kept.join(", ")} ` +
    "that remove-users named: it could not identify it by that user ID, which is then likely its text for an entry added without an ID " +
    "(unless someone added it again meanwhile: run plan to see). Remove the entry in the console (or empty the list once: declare no users " +
    "and apply with --allow-mass-removal), then apply again"
  );
}
