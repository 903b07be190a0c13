/** Verification after apply: a rule converged when a fresh diff of its read-back list needs no call. */
import { diffRule } from "./diff";
import type { ObservedList, RuleFacts } from "./observation";
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
 * list became an exclusion list, verifies nothing), and the list itself must need no call.
 */
export function readBackProblem(rule: RulePlan, list: ObservedList): string | null {
  if (rule.listType !== null && list.usersToAlertOn !== rule.listType) {
    return `read back, the rule's list is of type ${list.usersToAlertOn}, not ${rule.listType} as planned, so it cannot be verified (the service changed the rule, or answered wrongly): check the rule, run plan, then apply again`;
  }
  if (remainingCalls(rule, list) > 0) {
    return "read back after apply, the list does not match the declaration (it may have been changed concurrently): run plan to see the difference, then apply again";
  }
  return null;
}
