/**
 * `rules list` and `who` (docs/contract.md §9.2) as pure functions of what was read: every rule of the
 * tenant with its list, and optionally the declared lists of the app. No I/O.
 */
import type { UsersToAlertOn } from "../../api/rules/schemas";
import { aliasKey, byNameThenId, compareStrings } from "../engine/canonical";
import type { DesiredList } from "../engine/desired";
import type { ObservedList, RuleFacts } from "../engine/observation";

/** One rule as read live: its facts and its list (null when not read: system rules). */
export interface LiveRule {
  readonly rule: RuleFacts & { readonly isEnabled: boolean };
  readonly list: ObservedList | null;
}

/** One row of `rules list`. */
export interface RuleRow {
  readonly ruleId: string;
  readonly name: string;
  /** The rule's `usersToAlertOn`; null for system rules (their list is not read). */
  readonly listType: UsersToAlertOn | null;
  /** Entries (user bags) in the list; null for system rules. */
  readonly users: number | null;
  readonly isSystem: boolean;
  readonly ruleSource: string;
  readonly isEnabled: boolean;
}

/** The rows of `rules list`, by name (case-insensitive), then ID. */
export function ruleRows(rules: readonly LiveRule[]): RuleRow[] {
  return [...rules]
    .sort((a, b) => byNameThenId(a.rule, b.rule))
    .map(({ rule, list }) => ({
      ruleId: rule.observerRuleId,
      name: rule.name,
      listType: list === null ? null : list.usersToAlertOn,
      users: list === null ? null : list.entries.length,
      isSystem: rule.isSystem,
      ruleSource: rule.ruleSource,
      isEnabled: rule.isEnabled,
    }));
}

/** One place a person is: one entry of one rule's list that a query matched. */
export interface WhoMatch {
  /** The query as given. */
  readonly query: string;
  readonly ruleId: string;
  readonly ruleName: string;
  readonly listType: UsersToAlertOn;
  /** The entry's user ID; null for an entry without one. */
  readonly userId: string | null;
  /** Every alias of the entry (not only the one that matched). */
  readonly aliases: readonly string[];
  /**
   * Only when the app's declaration was read: the construct paths of the RuleUserLists that declare
   * this person for this rule (empty: the entry is not declared, e.g. added in the console).
   */
  readonly declared?: readonly string[];
  /**
   * Only when the app's declaration was read: false for a person declared for this rule but not in
   * its live list (not applied yet, or expired and removed); true otherwise.
   */
  readonly live?: boolean;
}

/** Whether an entry (user ID and aliases) is the person a query names: user ID exactly, alias case-insensitively and trimmed. */
export function matchesQuery(query: string, userId: string | null, aliases: readonly string[]): boolean {
  if (userId !== null && userId === query) return true;
  const key = aliasKey(query);
  return key !== "" && aliases.some((alias) => aliasKey(alias) === key);
}

/** Whether a declaration names this rule: by ID, or by exact name. */
export function declaresRule(list: DesiredList, rule: RuleFacts): boolean {
  return list.ruleId !== null ? list.ruleId === rule.observerRuleId : list.ruleName === rule.name;
}

/** The declared lists of a rule that declare a person of the entry: same user ID or a shared alias. */
function declaredBy(declared: readonly DesiredList[], rule: RuleFacts, userId: string | null, aliases: readonly string[]): string[] {
  const keys = new Set(aliases.map(aliasKey));
  return declared
    .filter((list) => declaresRule(list, rule))
    .filter((list) => list.users.some((u) => (userId !== null && u.userId === userId) || u.aliases.some((a) => keys.has(aliasKey(a)))))
    .map((list) => list.constructPath)
    .sort(compareStrings);
}

/**
 * Where each query is: every entry of every live list it matches, in query order, then by rule
 * name and ID. With `declared` (the app's lists), each match says which constructs declare it,
 * and people declared for a rule but absent from its live list are added with `live: false`.
 */
export function findPeople(queries: readonly string[], rules: readonly LiveRule[], declared?: readonly DesiredList[]): WhoMatch[] {
  const ordered = [...rules].sort((a, b) => byNameThenId(a.rule, b.rule));
  const matches: WhoMatch[] = [];
  for (const query of queries) {
    for (const { rule, list } of ordered) {
      if (list === null) continue;
      const base = { query, ruleId: rule.observerRuleId, ruleName: rule.name, listType: list.usersToAlertOn };
      const liveIds = new Set<string>();
      for (const entry of list.entries) {
        if (entry.userId !== null) liveIds.add(entry.userId);
        if (!matchesQuery(query, entry.userId, entry.aliases)) continue;
        matches.push({
          ...base,
          userId: entry.userId,
          aliases: [...entry.aliases],
          ...(declared === undefined ? {} : { declared: declaredBy(declared, rule, entry.userId, entry.aliases), live: true }),
        });
      }
      if (declared === undefined) continue;
      const liveKeys = new Set(list.entries.flatMap((e) => e.aliases.map(aliasKey)));
      const pending = new Map<string, { aliases: readonly string[]; paths: string[] }>();
      for (const decl of declared) {
        if (!declaresRule(decl, rule)) continue;
        for (const user of decl.users) {
          if (!matchesQuery(query, user.userId, user.aliases)) continue;
          if (liveIds.has(user.userId) || user.aliases.some((a) => liveKeys.has(aliasKey(a)))) continue;
          const seen = pending.get(user.userId) ?? { aliases: user.aliases, paths: [] };
          seen.paths.push(decl.constructPath);
          pending.set(user.userId, seen);
        }
      }
      for (const [userId, { aliases, paths }] of [...pending.entries()].sort(([a], [b]) => compareStrings(a, b))) {
        matches.push({ ...base, userId, aliases: [...aliases], declared: paths.sort(compareStrings), live: false });
      }
    }
  }
  return matches;
}
