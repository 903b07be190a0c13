/**
 * The canonical form of a declared list, so the same declaration always synthesizes byte-identical
 * JSON whatever order users and aliases were written in: users sorted by userId, each user's
 * aliases sorted by their comparison key (trimmed, lower case) and then by exact spelling. The
 * declared spelling is kept: it is what gets sent to the service (design.md §4).
 *
 * Sorting compares UTF-16 code units (not the locale), so the order is the same on every machine.
 */
import type { DeclaredUser } from "./types";
import { aliasKey } from "./validate";

/** Compares two strings by UTF-16 code units: locale-independent and total. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A sorted copy of the aliases: by trimmed lower case, then by exact spelling. */
export function canonicalAliases(aliases: readonly string[]): string[] {
  return [...aliases].sort((a, b) => compareCodeUnits(aliasKey(a), aliasKey(b)) || compareCodeUnits(a, b));
}

/** A sorted deep copy of the users (the input is not modified). */
export function canonicalUsers(users: readonly { readonly userId: string; readonly aliases: readonly string[] }[]): DeclaredUser[] {
  return users
    .map((user) => ({ userId: user.userId, aliases: canonicalAliases(user.aliases) }))
    .sort((a, b) => compareCodeUnits(a.userId, b.userId));
}
