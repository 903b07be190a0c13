/**
 * The last read a resource's private data stands for (src/io/workflow/provider/rule-state.ts
 * `LastRead`), kept once. A refresh writes the live list into state as `users` (and
 * `entries_without_user_id`, `list_type`); where that state shows the list whole, the private data
 * holds the list's fingerprint instead of a second copy, and the plan rebuilds the list from the
 * state it is given (Terraform's refreshed state: the same read) and checks it against that
 * fingerprint. Where the state does not show it whole (an additive list with undeclared users, an
 * alias spelled as declared, a user listed twice, a secret redacted), the list itself is kept.
 * Either way the plan is made from exactly the list that was read, and apply's check (the live list
 * read again right before the first write, compared by fingerprint) is unchanged.
 */
import type { ObservedList, RuleFacts } from "../../core/engine/observation";
import { keptList, listOfFingerprint } from "../../io/workflow";
import type { LastRead } from "../../io/workflow/provider/rule-state";
import { declaredUsers, type RuleUserListModel } from "./rule-user-list-model";
import { decodePrivate, encodePrivate } from "./rule-user-list-values";

const LIST_TYPES = new Set(["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"]);

/** The live list as a refreshed state shows it: its users, one entry of the aliases without a user ID, its list type; null where the state holds none. */
export function listOfState(state: RuleUserListModel): ObservedList | null {
  const kept = shownLists.get(state);
  if (kept !== undefined) return kept;
  const shown = readListOfState(state);
  shownLists.set(state, shown);
  return shown;
}

/** The lists states show, by state (a decoded state is never changed): an unchanged list's refresh and plan rebuild it once. */
const shownLists = new WeakMap<RuleUserListModel, ObservedList | null>();

function readListOfState(state: RuleUserListModel): ObservedList | null {
  const listType = state.listType;
  const users = declaredUsers(state);
  if (typeof listType !== "string" || !LIST_TYPES.has(listType) || users === null) return null;
  const entries: { userId: string | null; aliases: string[] }[] = users.map((u) => ({ userId: u.userId, aliases: [...u.aliases] }));
  const without = Array.isArray(state.entriesWithoutUserId) ? state.entriesWithoutUserId.filter((a): a is string => typeof a === "string") : [];
  if (without.length > 0) entries.push({ userId: null, aliases: without });
  return { usersToAlertOn: listType as ObservedList["usersToAlertOn"], entries };
}

/** A read's private data: the rule's facts, and the list's fingerprint where `state` shows the list whole, else the list. */
export function privateOfRead(rule: RuleFacts, list: ObservedList | null, state: RuleUserListModel): Buffer {
  return encodePrivate({ rule, ...keptList(list, list === null ? null : listOfState(state)) });
}

/**
 * The last read of a resource from its private data and the state beside it: the list kept, or
 * rebuilt from `state` where the private data holds its fingerprint and the rebuilt list has it;
 * the list null (read again) where it does not, or there is no state.
 */
export function lastReadOf(bytes: Buffer, state: RuleUserListModel | null): LastRead | null {
  const data = decodePrivate(bytes);
  if (data === null) return null;
  if (data.list !== null || data.fingerprint === undefined || state === null) return { rule: data.rule, list: data.list };
  return { rule: data.rule, list: listOfFingerprint(data.fingerprint, listOfState(state)) };
}
