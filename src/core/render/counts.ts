/**
 * The one counting rule every renderer shows (text and markdown plans, apply text and report): a
 * user added or removed counts once, as a user, whatever their aliases (an entry without a user ID
 * removed counts as a user too); alias counts are the aliases added to or removed from users who
 * stay. So removing one user is "1 user to remove, 0 aliases to remove", and the summary line
 * is the sum of the per-rule counts. The change-kind table (src/core/engine/change-kinds.ts) counts them,
 * for the renderers and for the JSON plan's `summary`, whose alias fields count every alias that
 * enters or leaves the list (docs/plan-format.md). Pure.
 */
import { countChanges } from "../engine/change-kinds";
import type { RulePlan } from "../engine/plan-schema";
import { plural } from "./common";

/** The rule, in words, for the legend of every renderer. */
export const COUNTING_LEGEND =
  "Counts: a user added or removed counts once, whatever their aliases; alias counts are the aliases added to or removed from users who stay.";

/** What one rule, or a whole plan, changes, counted by the rule above. */
export interface ChangeTally {
  readonly usersToAdd: number;
  readonly usersToRemove: number;
  /** Of `usersToRemove`: entries without a user ID. */
  readonly entriesWithoutId: number;
  readonly aliasesToAdd: number;
  readonly aliasesToRemove: number;
}

/** One rule's changes, counted (src/core/engine/change-kinds.ts countChanges: the same rule as the plan's summary). */
export function tallyRule(rule: RulePlan): ChangeTally {
  const count = countChanges(rule.changes);
  return {
    usersToAdd: count.usersToAdd,
    usersToRemove: count.usersToRemove,
    entriesWithoutId: count.entriesWithoutId,
    aliasesToAdd: count.aliasesToAdd,
    aliasesToRemove: count.aliasesToRemove,
  };
}

/** The changes of the rules that update, summed. */
export function tallyPlan(rules: readonly RulePlan[]): ChangeTally {
  const total = { usersToAdd: 0, usersToRemove: 0, entriesWithoutId: 0, aliasesToAdd: 0, aliasesToRemove: 0 };
  for (const rule of rules) {
    if (rule.action !== "update") continue;
    const t = tallyRule(rule);
    for (const key of Object.keys(total) as (keyof ChangeTally)[]) total[key] += t[key];
  }
  return total;
}

/** `+1 user, -2 users (1 without ID), +3 aliases, -1 alias`: one rule's counts, short. */
export function tallyShort(t: ChangeTally): string {
  const parts: string[] = [];
  if (t.usersToAdd > 0) parts.push(`+${plural(t.usersToAdd, "user")}`);
  if (t.usersToRemove > 0) parts.push(`-${plural(t.usersToRemove, "user")}${t.entriesWithoutId > 0 ? ` (${t.entriesWithoutId} without ID)` : ""}`);
  if (t.aliasesToAdd > 0) parts.push(`+${plural(t.aliasesToAdd, "alias", "aliases")}`);
  if (t.aliasesToRemove > 0) parts.push(`-${plural(t.aliasesToRemove, "alias", "aliases")}`);
  return parts.join(", ");
}

/** `1 user, 2 aliases, 1 entry without a user ID`: what a rule removes, by the same rule. */
export function tallyRemoved(t: ChangeTally): string {
  const parts: string[] = [];
  const users = t.usersToRemove - t.entriesWithoutId;
  if (users > 0) parts.push(plural(users, "user"));
  if (t.aliasesToRemove > 0) parts.push(plural(t.aliasesToRemove, "alias", "aliases"));
  if (t.entriesWithoutId > 0) parts.push(plural(t.entriesWithoutId, "entry without a user ID", "entries without a user ID"));
  return parts.join(", ");
}

/** The same rule for apply's calls, whose counts are the users each call carries. */
export const CALL_COUNTING_LEGEND = "Counts: a call counts the users it carries, each once, whatever their aliases.";
