/**
 * The plan of `plan --changed-since REF` (docs/contract.md §10.1): a plan of the changed declarations only
 * (built by the same buildPlan as a full plan), marked with what was compared, how many declared
 * rules were left unread and why, and which rules are no longer managed. Pure.
 */
import type { DeclarationComparison } from "../engine/changed-declarations";
import type { DesiredList } from "../engine/desired";
import type { ChangedSince, Plan } from "../engine/plan-schema";

/** Why the unchanged rules were not read: the words the plan, the text and the markdown show. */
export function unreadReason(ref: string): string {
  return `unchanged since ${ref}; the scheduled drift check reads every rule`;
}

/**
 * `plan` (made from `comparison.changed`, in that order) with its `changedSince` record. A rule
 * declared at REF under one reference (its name, say) and planned now under the other (its ID) is
 * the same rule once the read resolved it: it is not reported as no longer managed.
 */
export function withChangedSince(
  plan: Plan,
  comparison: DeclarationComparison,
  revision: {
    readonly ref: string;
    readonly commit: string;
    readonly refDependencies?: { readonly how: "reused" | "installed"; readonly reason: string } | null;
    readonly fallback?: string | null;
  },
): Plan {
  const plannedIds = new Set(plan.rules.map((r) => r.ruleId).filter((id): id is string => id !== null));
  const plannedNames = new Set(plan.rules.map((r) => r.ruleName).filter((name): name is string => name !== null));
  const stillManaged = (ruleId: string | null, ruleName: string | null): boolean =>
    ruleId !== null ? plannedIds.has(ruleId) : ruleName !== null && plannedNames.has(ruleName);
  const changedSince: ChangedSince = {
    ref: revision.ref,
    commit: revision.commit,
    read: comparison.changed.map((c) => ({ constructPath: c.list.constructPath, changes: [...c.changes] })),
    unread: { count: comparison.unchanged.length, reason: unreadReason(revision.ref) },
    noLongerManaged: comparison.removed
      .filter((r) => !stillManaged(r.ruleId, r.ruleName))
      .map((r) => ({ ruleId: r.ruleId, ruleName: r.ruleName, constructPath: r.constructPath, stack: r.stack })),
    ...(revision.refDependencies ? { refDependencies: { ...revision.refDependencies } } : {}),
    ...(revision.fallback ? { fallback: { reason: revision.fallback } } : {}),
  };
  return { ...plan, changedSince };
}

/**
 * The unchanged declarations that name a rule the plan resolved (by its ID or its name): a
 * declaration changed or added since REF that names, under the other reference, the same rule as
 * one left unread is a duplicate, which a full plan reports as an error on both. They must be read
 * too (changed-since.ts plans again with them), so that the duplicate is never hidden.
 */
export function sameRuleUnread(plan: Plan, comparison: DeclarationComparison): DesiredList[] {
  const ids = new Set(plan.rules.map((r) => r.ruleId).filter((id): id is string => id !== null));
  const names = new Set(plan.rules.map((r) => r.ruleName).filter((name): name is string => name !== null));
  return comparison.unchanged.filter((list) => (list.ruleId !== null ? ids.has(list.ruleId) : list.ruleName !== null && names.has(list.ruleName)));
}
