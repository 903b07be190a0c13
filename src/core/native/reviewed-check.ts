/**
 * A merge applies what its pull request's reviewer saw, or nothing (docs/provider-workflows.md,
 * design §13.1). On merge, Terraform plans the merged configuration against the lists as they are
 * then; the provider holds each rule's plan against the reviewed plans (the pull requests' signed
 * CLI plans) before Terraform may apply it:
 *
 * - a plan that sends nothing (no change, or only state) is always fine;
 * - otherwise a reviewed plan must show a change of that rule, against a list of the same type, and
 *   everything the merge's plan adds (user ID and alias) and removes must be something the reviewed
 *   plan added and removed. A subset is fine: a change already made (a re-run after an apply cut
 *   short, a console edit that did part of it) leaves less to do, never something else;
 * - a removal or an addition the reviewer did not see (a user added in the console since, another
 *   merge) is a difference, named; the provider then plans nothing and the job applies nothing.
 *
 * Aliases compare trimmed and case-insensitively, as the diff does. Pure: no files, no clock.
 */
import type { Plan, RulePlan } from "../engine/plan-schema";
import { plannedRemovals } from "./native-provider";

/** The newest reviewed plan's entry for a rule (plans compared by `createdAt`), or null when none shows it. */
export function reviewedRuleFor(ruleId: string | null, reviewed: readonly Plan[]): RulePlan | null {
  if (ruleId === null) return null;
  let found: { rule: RulePlan; at: string } | null = null;
  for (const plan of reviewed) {
    const rule = plan.rules.find((r) => r.ruleId === ruleId);
    if (rule !== undefined && (found === null || plan.createdAt > found.at)) found = { rule, at: plan.createdAt };
  }
  return found?.rule ?? null;
}

type Pair = { readonly userId: string | null; readonly alias: string };

const keyOf = (p: Pair): string => `${p.userId ?? ""}\u0000${p.alias.trim().toLowerCase()}`;

/** What a rule's plan adds: each user ID with each alias it gains. */
function additions(rule: RulePlan): Pair[] {
  const c = rule.changes;
  return [...c.addUsers, ...c.addAliases].flatMap((u) => u.aliases.map((alias) => ({ userId: u.userId, alias })));
}

/** What a rule's plan takes away from the live list: each entry with each alias that leaves. */
function removals(rule: RulePlan): Pair[] {
  return plannedRemovals(rule.changes).flatMap((r) => r.aliases.map((alias) => ({ userId: r.userId, alias })));
}

const shown = (p: Pair): string => `${p.userId === null ? "an entry without a user ID" : `user ${JSON.stringify(p.userId)}`} (${p.alias})`;

/** At most this many differences are named; the rest are counted. */
const NAMED = 10;

function named(kind: string, pairs: readonly Pair[]): string[] {
  if (pairs.length === 0) return [];
  const listed = pairs.slice(0, NAMED).map(shown).join(", ");
  return [`${kind} ${listed}${pairs.length > NAMED ? ` and ${pairs.length - NAMED} more` : ""}`];
}

/**
 * The differences between a rule's plan now and what the reviewer saw of it (`reviewed`: its entry
 * in the newest reviewed plan, null when none shows it). Empty: the plan is covered by the review.
 */
export function differencesFromReview(planned: RulePlan, reviewed: RulePlan | null): string[] {
  if (planned.action !== "update" || planned.calls.length === 0) return [];
  if (reviewed === null) return ["no reviewed plan shows a change of this rule (a change made outside git since, or a merge whose pull request was not planned)"];
  if (reviewed.action !== "update") return [`the reviewed plan showed no change of this rule (${reviewed.action}), and the list now needs one (changed outside git since the review?)`];
  const out: string[] = [];
  if (reviewed.listType !== planned.listType) out.push(`the list's type is ${planned.listType ?? "unknown"} now; the reviewed plan was made against ${reviewed.listType ?? "an unread list"}`);
  if (planned.changes.removeAll && !reviewed.changes.removeAll) out.push("it would empty the list (remove-all-users), which the reviewed plan did not");
  const seenAdded = new Set(additions(reviewed).map(keyOf));
  const seenRemoved = new Set(removals(reviewed).map(keyOf));
  out.push(...named("it would add, which the reviewed plan did not:", additions(planned).filter((p) => !seenAdded.has(keyOf(p)))));
  out.push(...named("it would remove, which the reviewed plan did not (added outside git since the review?):", removals(planned).filter((p) => !seenRemoved.has(keyOf(p)))));
  return out;
}
