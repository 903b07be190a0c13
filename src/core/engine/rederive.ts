/**
 * A saved plan is applied only as far as it still holds (docs/contract.md §9.3): the calls and the
 * mass-removal check of each rule it changes are derived again from the plan's own desired list
 * and the list read now, and compared with what the file says. A plan whose `calls`, `changes` or
 * `massRemoval` do not follow from its desired lists (edited, checksum recomputed) is refused.
 * Pure: the lists are read by the caller (src/io/execute.ts).
 */
import { PlanFileError } from "../../errors";
import { canonicalJson } from "./canonical-json";
import type { ObservedList } from "./observation";
import type { MassRemovalCheck, Plan, RuleChanges, RulePlan } from "./plan-schema";
import { rederiveRule } from "./verify";

/** The changes without the expiry marks buildPlan adds (the diff of one rule does not know them). */
function comparableChanges(changes: RuleChanges): unknown {
  return { ...changes, removeUsers: changes.removeUsers.map((u) => ({ userId: u.userId, aliases: u.aliases })) };
}

function describeMassRemoval(check: MassRemovalCheck): string {
  return `${check.lost} of ${check.entries} entries leave, ${check.triggered ? "triggered" : "not triggered"}`;
}

/** What differs between the file's rule and the derived one ([] when the file's rule follows from its desired list). */
export function ruleDifferences(file: RulePlan, derived: RulePlan): string[] {
  const out: string[] = [];
  if (derived.action !== file.action) out.push(`action (file: ${file.action}; derived: ${derived.action})`);
  if (canonicalJson(derived.desired) !== canonicalJson(file.desired)) out.push("desired list (not in canonical form)");
  if (canonicalJson(derived.calls) !== canonicalJson(file.calls)) {
    const ops = (r: RulePlan) => r.calls.map((c) => c.operation).join(", ") || "none";
    out.push(`calls (file: ${ops(file)}; derived: ${ops(derived)})`);
  }
  if (canonicalJson(comparableChanges(derived.changes)) !== canonicalJson(comparableChanges(file.changes))) out.push("changes");
  if (canonicalJson(derived.massRemoval) !== canonicalJson(file.massRemoval)) {
    out.push(`mass-removal check (file: ${describeMassRemoval(file.massRemoval)}; derived: ${describeMassRemoval(derived.massRemoval)})`);
  }
  return out;
}

/**
 * Compares every rule the plan changes with its derivation from the list read now (`lists[i]` for
 * the i-th rule whose action is "update"). Throws a PlanFileError naming each rule and what
 * differs.
 */
export function checkRederived(plan: Plan, lists: readonly ObservedList[]): void {
  const changing = plan.rules.filter((r) => r.action === "update");
  const problems = changing.flatMap((rule, i) => {
    const list = lists[i];
    if (list === undefined) return [`${rule.constructPath}: not read again`];
    const differences = ruleDifferences(rule, rederiveRule(rule, list, plan.options.batchSize));
    return differences.length === 0 ? [] : [`${rule.constructPath} (rule ${rule.ruleId ?? "?"}): ${differences.join("; ")}`];
  });
  if (problems.length === 0) return;
  throw new PlanFileError(
    "nothing was applied: the saved plan does not follow from its own desired lists and the lists read now " +
      "(it was edited after the plan command wrote it, and its checksum recomputed):\n" +
      problems.map((p) => `  ${p}`).join("\n"),
  );
}
