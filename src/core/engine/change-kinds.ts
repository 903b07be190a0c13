/**
 * The kinds of change a plan shows for one user or entry, one row each: which of a rule's changes
 * it is, what it counts as, and the plan symbols its line uses. The renderers' rows, legend and
 * counts (src/core/render/) and the plan's summary (src/core/engine/build-plan.ts) all read them here,
 * so a new kind is one row, and the compiler names every renderer line that must show it. Pure data.
 */
import type { RuleChanges } from "./rule-changes";

/** The symbols of a text plan, in the manner of `terraform plan`. */
export type PlanSymbol = "~" | "+" | "-" | "-/+" | "#";

/** What each symbol means, in the order of the legend (a text plan lists only the symbols it uses). */
export const PLAN_SYMBOLS: readonly (readonly [PlanSymbol, string])[] = [
  ["~", "changed in place"],
  ["+", "added"],
  ["-", "removed"],
  ["-/+", "rebuilt (emptied, then filled again)"],
  ["#", "note"],
];

export type ChangeKind = "add-user" | "add-aliases" | "remove-aliases" | "remove-user" | "remove-entry";

/** One change of a rule as its changes hold it: a user (removed ones may say why), or an entry without a user ID. */
export interface ChangeItem {
  readonly userId?: string | null;
  readonly aliases: readonly string[];
  readonly reason?: string | undefined;
  readonly expiresAt?: string | undefined;
}

/** One user's (or entry's) change, as a renderer shows it. `userId` is null for entries without a user ID. */
export interface ChangeEntry {
  readonly userId: string | null;
  readonly aliases: readonly string[];
  /** Why, when the row has a reason of its own: `expired on yyyy-MM-dd`. */
  readonly note?: string;
}

export interface ChangeKindSpec {
  /** The rule's changes of this kind, one per user or entry. */
  readonly items: (changes: RuleChanges) => readonly ChangeItem[];
  /** One of them as a row shows it. */
  readonly entry: (item: ChangeItem) => ChangeEntry;
  /** Order among one user's rows. */
  readonly rank: number;
  /** Whether it puts something in the list or takes something out. */
  readonly direction: "add" | "remove";
  /** What comes or goes: a user with all its aliases, an entry without a user ID, or aliases of a user who stays. */
  readonly unit: "user" | "entry" | "aliases";
  /** The plan symbols its line uses (the text legend lists those a plan uses). */
  readonly symbols: readonly PlanSymbol[];
}

const user = (item: ChangeItem): ChangeEntry => ({ userId: item.userId ?? null, aliases: item.aliases });

export const CHANGE_KINDS: { readonly [K in ChangeKind]: ChangeKindSpec } = {
  "add-user": { items: (c) => c.addUsers, entry: user, rank: 0, direction: "add", unit: "user", symbols: ["+"] },
  "add-aliases": { items: (c) => c.addAliases, entry: user, rank: 1, direction: "add", unit: "aliases", symbols: ["~", "+"] },
  "remove-aliases": { items: (c) => c.removeAliases, entry: user, rank: 2, direction: "remove", unit: "aliases", symbols: ["~", "-"] },
  "remove-user": {
    items: (c) => c.removeUsers,
    entry: (u) => ({ ...user(u), ...(u.reason === "expired" ? { note: `expired on ${u.expiresAt ?? "?"}` } : {}) }),
    rank: 3,
    direction: "remove",
    unit: "user",
    symbols: ["-"],
  },
  "remove-entry": { items: (c) => c.removeEntriesWithoutId, entry: (e) => ({ userId: null, aliases: e.aliases }), rank: 4, direction: "remove", unit: "entry", symbols: ["-"] },
};

/** Every kind, in the table's order. */
export const CHANGE_KIND_LIST = Object.keys(CHANGE_KINDS) as ChangeKind[];

/**
 * A rule's changes counted by the one rule of the table: a user (or an entry without a user ID) added
 * or removed counts once, as a user; `aliasesToAdd`/`aliasesToRemove` count the aliases of users who stay (what the
 * renderers show), `allAliasesToAdd`/`allAliasesToRemove` every alias that enters or leaves the
 * list (the JSON plan's summary, docs/plan-format.md).
 */
export interface ChangeCount {
  readonly usersToAdd: number;
  readonly usersToRemove: number;
  /** Of `usersToRemove`: entries without a user ID. */
  readonly entriesWithoutId: number;
  readonly aliasesToAdd: number;
  readonly aliasesToRemove: number;
  readonly allAliasesToAdd: number;
  readonly allAliasesToRemove: number;
}

export function countChanges(changes: RuleChanges): ChangeCount {
  let usersToAdd = 0;
  let usersToRemove = 0;
  let entriesWithoutId = 0;
  let aliasesToAdd = 0;
  let aliasesToRemove = 0;
  let allAliasesToAdd = 0;
  let allAliasesToRemove = 0;
  for (const kind of CHANGE_KIND_LIST) {
    const spec = CHANGE_KINDS[kind];
    const items = spec.items(changes);
    let aliases = 0;
    for (const item of items) aliases += item.aliases.length;
    if (spec.direction === "add") {
      allAliasesToAdd += aliases;
      if (spec.unit === "aliases") aliasesToAdd += aliases;
      else usersToAdd += items.length;
    } else {
      allAliasesToRemove += aliases;
      if (spec.unit === "aliases") aliasesToRemove += aliases;
      else usersToRemove += items.length;
      if (spec.unit === "entry") entriesWithoutId += items.length;
    }
  }
  return { usersToAdd, usersToRemove, entriesWithoutId, aliasesToAdd, aliasesToRemove, allAliasesToAdd, allAliasesToRemove };
}
