/** The outcome of an apply, per rule and in sum: plain data the renderers and reports read. */
import type { PlannedCall, RulePlan } from "./plan-schema";

/** `interrupted`: SIGINT/SIGTERM stopped the run before this rule was done (calls it sent are listed). */
export type RuleOutcome = "applied" | "unchanged" | "skipped" | "failed" | "interrupted";

export interface CallRecord {
  readonly operation: PlannedCall["operation"];
  /** Users (or user IDs) the call carried; 0 for remove-all-users. */
  readonly users: number;
  /** `not-sent`: the call certainly changed nothing (given up before sending, or every attempt refused with 429 or 401). */
  readonly status: "ok" | "failed" | "not-sent";
  readonly error?: string;
}

export interface RuleResult {
  readonly ruleId: string | null;
  readonly ruleName: string | null;
  readonly constructPath: string;
  readonly action: RulePlan["action"];
  readonly outcome: RuleOutcome;
  readonly calls: readonly CallRecord[];
  /** true: read back and matched; false: read back and did not match; null: nothing to verify. */
  readonly verified: boolean | null;
  readonly message: string | null;
}

export interface ApplySummary {
  readonly applied: number;
  readonly unchanged: number;
  readonly skipped: number;
  readonly failed: number;
  /** Rules an interrupt (SIGINT/SIGTERM) stopped before they were done. */
  readonly interrupted: number;
}

export interface ApplyResult {
  readonly ok: boolean;
  readonly rules: readonly RuleResult[];
  readonly summary: ApplySummary;
}

/** The result of a rule no call was sent for: skipped, in error, unchanged, or an update not applied. */
export function notApplied(rule: RulePlan): RuleResult {
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action, calls: [], verified: null };
  if (rule.action === "skip") return { ...base, outcome: "skipped", message: rule.reason };
  if (rule.action === "error") return { ...base, outcome: "failed", message: rule.reason };
  if (rule.action === "update") return { ...base, outcome: "unchanged", message: "not applied: nothing was sent" };
  return { ...base, outcome: "unchanged", message: null };
}

/** The message of a rule a saved plan changes, found already as it leaves it (a re-run of its apply). */
export const ALREADY_AS_PLANNED = "already as this plan leaves it: nothing sent";

/**
 * The result of a saved plan whose every list is already as it leaves them (src/core/engine/still-planned.ts,
 * `already-applied`): nothing was sent; each rule it changes was read now and matched (verified).
 */
export function alreadyAppliedResult(plan: { readonly rules: readonly RulePlan[] }): ApplyResult {
  return applyResult(plan.rules.map((rule): RuleResult => (rule.action === "update" ? { ...notApplied(rule), verified: true, message: ALREADY_AS_PLANNED } : notApplied(rule))));
}

/** How many rules ended in each outcome. */
export function countOutcomes(rules: readonly RuleResult[]): ApplySummary {
  const count = (o: RuleOutcome) => rules.filter((r) => r.outcome === o).length;
  return { applied: count("applied"), unchanged: count("unchanged"), skipped: count("skipped"), failed: count("failed"), interrupted: count("interrupted") };
}

/** An update an interrupt stopped: after `calls` (none when it had not started). */
export function interruptedRule(rule: RulePlan, calls: readonly CallRecord[] = []): RuleResult {
  const sent = calls.filter((c) => c.status === "ok").length;
  return {
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    constructPath: rule.constructPath,
    action: rule.action,
    outcome: "interrupted",
    calls,
    verified: null,
    message:
      calls.length === 0
        ? "interrupted before any call was sent"
        : `interrupted after ${sent} of ${rule.calls.length} calls (no further call sent, not read back)`,
  };
}

/** The results of a plan an interrupt stopped before it was applied: its updates interrupted, nothing sent. */
export function interruptedBeforeApply(rules: readonly RulePlan[]): RuleResult[] {
  return rules.map((rule) => (rule.action === "update" ? interruptedRule(rule) : notApplied(rule)));
}

/** The whole result from the per-rule results, in plan order. */
export function applyResult(rules: readonly RuleResult[]): ApplyResult {
  const summary = countOutcomes(rules);
  return { ok: summary.failed === 0 && summary.interrupted === 0, rules, summary };
}
