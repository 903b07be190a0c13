/**
 * Comparison and canonical order of users and aliases, one copy for the whole tool.
 *
 * Aliases compare case-insensitively and trimmed (docs/contract.md §4); the declared spelling is kept,
 * because it is what gets sent. The canonical order makes the same declaration synthesize
 * byte-identical JSON whatever order it was written in: users by userId, each user's aliases by
 * key and then by exact spelling. Strings compare by UTF-16 code units (not the locale), so the
 * order is the same on every machine.
 */
import { compareStrings } from "../../shared/text";

export interface UserAliases {
  readonly userId: string;
  readonly aliases: readonly string[];
}

/** The comparison key of an alias: trimmed, lower case. */
export function aliasKey(alias: string): string {
  return alias.trim().toLowerCase();
}

/** The domain of an alias: the part of its key after the last `@`; null without one. */
export function aliasDomain(alias: string): string | null {
  const key = aliasKey(alias);
  const at = key.lastIndexOf("@");
  return at < 0 || at === key.length - 1 ? null : key.slice(at + 1);
}

export { compareStrings };

/** Sort order of aliases in canonical lists: by key, then by exact spelling. */
export function compareAliases(a: string, b: string): number {
  return compareStrings(aliasKey(a), aliasKey(b)) || compareStrings(a, b);
}

/** A sorted copy of the aliases: by trimmed lower case, then by exact spelling. */
export function canonicalAliases(aliases: readonly string[]): string[] {
  return [...aliases].sort(compareAliases);
}

function aliasesInOrder(aliases: readonly string[]): boolean {
  return aliases.every((a, i) => i === 0 || compareAliases(aliases[i - 1]!, a) <= 0);
}

/**
 * The users in canonical order. Never modifies the input; returns the input itself when it is
 * canonical already (lists read from the synthesized JSON are: the construct writes them so), which
 * at a million aliases saves a copy of every list.
 */
export function canonicalUsers<T extends UserAliases>(users: readonly T[]): readonly T[] {
  const usersInOrder = users.every((u, i) => i === 0 || compareStrings(users[i - 1]!.userId, u.userId) <= 0);
  if (usersInOrder && users.every((u) => aliasesInOrder(u.aliases))) return users;
  return users
    .map((u) => (aliasesInOrder(u.aliases) ? u : { ...u, aliases: canonicalAliases(u.aliases) }))
    .sort((a, b) => compareStrings(a.userId, b.userId));
}

/** A rule as people look it up: by name, told apart by its ID. */
export interface NamedRule {
  readonly name: string;
  readonly observerRuleId: string;
}

/** The order rules are listed in everywhere (import, rules list, who): name case-insensitively, then exact name, then ID. */
export function byNameThenId(a: NamedRule, b: NamedRule): number {
  return compareStrings(a.name.toLowerCase(), b.name.toLowerCase()) || compareStrings(a.name, b.name) || compareStrings(a.observerRuleId, b.observerRuleId);
}
