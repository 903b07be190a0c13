/**
 * A live list seen through a declaration (docs/provider.md): what the native resource's state holds
 * after a refresh. Pure: no clock (`today` is passed in), inputs never mutated.
 *
 * - Aliases compare case-insensitively (§4): a live alias equal to a declared one but for case is
 *   shown in the declared spelling, so a difference of case alone is never a change.
 * - `additive` shows only what it declares: undeclared users and aliases, and entries without a
 *   user ID, are not part of its view.
 * - A declared user whose `expiresAt` has passed and who is no longer live stays in the view as
 *   declared (the declaration is satisfied: no perpetual diff); one still live is listed in
 *   `expiredOnList`, which an authoritative list's next apply empties.
 */
import { aliasKey, canonicalAliases, compareStrings } from "../engine/canonical";
import type { DesiredUser, ListMode } from "../engine/desired";
import { hasExpired } from "../engine/expiry";
import type { ObservedList } from "../engine/observation";

export interface ListView {
  /** The users to show, by user ID, aliases in canonical order. */
  readonly users: readonly DesiredUser[];
  /** Declared users whose `expiresAt` has passed and who are still on the list (authoritative lists only). */
  readonly expiredOnList: readonly string[];
  /** The aliases of entries without a user ID (authoritative lists only): a rebuild removes them. */
  readonly aliasesWithoutUserId: readonly string[];
}

/** The declaration a view is taken through: null users for a list not declared yet (an import shows every entry). */
export interface ViewBasis {
  readonly mode: ListMode;
  readonly users: readonly DesiredUser[] | null;
}

export function viewOfList(observed: ObservedList, basis: ViewBasis, today: string): ListView {
  const live = liveById(observed);
  const declared = new Map((basis.users ?? []).map((u) => [u.userId, u]));
  const spelled = (userId: string, alias: string): string => {
    const match = declared.get(userId)?.aliases.find((a) => aliasKey(a) === aliasKey(alias));
    return match ?? alias;
  };
  const users: DesiredUser[] = [];
  if (basis.mode === "authoritative" || basis.users === null) {
    for (const [userId, aliases] of live) {
      const prior = declared.get(userId);
      users.push({ userId, aliases: canonicalAliases(aliases.map((a) => spelled(userId, a))), ...expiryOf(prior) });
    }
  } else {
    for (const user of declared.values()) {
      const aliases = live.get(user.userId);
      if (aliases === undefined) continue;
      const keys = new Set(aliases.map(aliasKey));
      users.push({ userId: user.userId, aliases: canonicalAliases(user.aliases.filter((a) => keys.has(aliasKey(a)))), ...expiryOf(user) });
    }
  }
  // Expired and gone: the declaration holds as written.
  for (const user of declared.values()) {
    if (!live.has(user.userId) && hasExpired(user, today)) users.push(user);
  }
  users.sort((a, b) => compareStrings(a.userId, b.userId));
  const authoritative = basis.mode === "authoritative";
  return {
    users,
    expiredOnList: authoritative ? [...declared.values()].filter((u) => live.has(u.userId) && hasExpired(u, today)).map((u) => u.userId).sort(compareStrings) : [],
    aliasesWithoutUserId: authoritative ? canonicalAliases(observed.entries.filter((e) => e.userId === null).flatMap((e) => e.aliases)) : [],
  };
}

function expiryOf(user: DesiredUser | undefined): { expiresAt?: string } {
  return user?.expiresAt === undefined ? {} : { expiresAt: user.expiresAt };
}

/** The live entries with a user ID, aliases merged when the service lists one user twice (first spelling of an alias wins). */
function liveById(observed: ObservedList): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const entry of observed.entries) {
    if (entry.userId === null) continue;
    const aliases = byId.get(entry.userId) ?? [];
    const keys = new Set(aliases.map(aliasKey));
    for (const alias of entry.aliases) {
      if (keys.has(aliasKey(alias))) continue;
      keys.add(aliasKey(alias));
      aliases.push(alias);
    }
    byId.set(entry.userId, aliases);
  }
  return byId;
}
