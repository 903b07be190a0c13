/**
 * What a rebuild puts back when its add-users fails after its remove-all-users emptied the list
 * (docs/guarantees.md, "a rebuild that restores"): the list the guard read right before the wipe, minus what the plan
 * removes (users, aliases, entries without a user ID: those cannot be added back by ID anyway).
 * Pure: the read in, users out; and what a read back still lacks of them.
 */
import { escapeInvisible } from "../../shared/invisible";
import { compareStrings } from "./canonical";
import type { ObservedEntry, RuleChanges } from "./rule-changes";
import type { PlannedUser } from "./planned-user";

const key = (alias: string): string => alias.trim().toLowerCase();

/** The users to add back, by user ID, each with the aliases the list held and the plan keeps. */
export function usersToRestore(before: readonly ObservedEntry[], changes: RuleChanges): PlannedUser[] {
  const removedUsers = new Set(changes.removeUsers.map((u) => u.userId));
  const removedAliases = new Map(changes.removeAliases.map((u) => [u.userId, new Set(u.aliases.map(key))]));
  const byUser = new Map<string, Map<string, string>>();
  for (const entry of before) {
    if (entry.userId === null || removedUsers.has(entry.userId)) continue;
    const aliases = byUser.get(entry.userId) ?? new Map<string, string>();
    for (const alias of entry.aliases) {
      if (removedAliases.get(entry.userId)?.has(key(alias)) !== true && !aliases.has(key(alias))) aliases.set(key(alias), alias);
    }
    byUser.set(entry.userId, aliases);
  }
  return [...byUser.entries()]
    .filter(([, aliases]) => aliases.size > 0)
    .map(([userId, aliases]) => ({ userId, aliases: [...aliases.values()].sort(compareStrings) }))
    .sort((a, b) => compareStrings(a.userId, b.userId));
}

/** The users (with only their missing aliases) of `wanted` that `live` does not hold. */
export function missingFrom(wanted: readonly PlannedUser[], live: readonly ObservedEntry[]): PlannedUser[] {
  const held = new Map<string, Set<string>>();
  for (const entry of live) {
    if (entry.userId === null) continue;
    const aliases = held.get(entry.userId) ?? new Set<string>();
    for (const alias of entry.aliases) aliases.add(key(alias));
    held.set(entry.userId, aliases);
  }
  return wanted
    .map((user) => ({ userId: user.userId, aliases: user.aliases.filter((a) => held.get(user.userId)?.has(key(a)) !== true) }))
    .filter((user) => user.aliases.length > 0);
}

/** `9102 (alice@example.com, alice@corp.example), 9107 (bob@example.com)` */
export function describeUsers(users: readonly PlannedUser[]): string {
  return users.map((u) => `${escapeInvisible(u.userId)} (${u.aliases.map((a) => escapeInvisible(a)).join(", ")})`).join(", ");
}
