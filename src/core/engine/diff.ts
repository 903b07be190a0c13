/**
 * The diff of docs/contract.md §4: a pure function of one declared list, what was observed for it,
 * and the batch size. No clock, no network, inputs never mutated.
 */
import { aliasKey, canonicalUsers, compareAliases, compareStrings } from "./canonical";
import type { DesiredList, DesiredUser } from "./desired";
import { fingerprintList } from "./fingerprint";
import type {
  MassRemovalCheck,
  ObservedEntry,
  PlannedCall,
  PlannedUser,
  RuleChanges,
  RulePlan,
} from "./plan-schema";
import { isSystemRule } from "./rule-facts";
import type { ObservedList, RuleObservation } from "./observation";
import { planCalls } from "./operations";
import { didYouMean, suggest } from "./suggest";
import { ATTRIBUTE_NAMES, PROP_NAMES } from "../../shared/field-names";

export interface DiffOptions {
  /** Most users in one write call; larger changes are split into several calls of the same operation. */
  readonly batchSize: number;
  /**
   * How the caller's declarations name the rule, for messages (an unknown or ambiguous rule).
   * @default CONSTRUCT_RULE_FIELDS - the RuleUserList's props, `ruleId` / `ruleName: "…"`
   */
  readonly ruleFields?: RuleFieldNames;
}

/** The words of a declaration for its rule: the two fields and how a value is given to one. */
export interface RuleFieldNames {
  readonly ruleId: string;
  readonly ruleName: string;
  /** between a field and its value in the caller's syntax: `: ` for TypeScript props, ` = ` for HCL */
  readonly assign: string;
  /** what the caller does with the rule, in a hint: "declare" (a declaration) or "import" (an import ID). @default "declare" */
  readonly verb?: "declare" | "import";
  /** how a name is written after `assign`. @default JSON.stringify (a quoted string) */
  readonly quote?: (name: string) => string;
}

/** The RuleUserList construct's words (its props: src/shared/field-names.ts). */
export const CONSTRUCT_RULE_FIELDS: RuleFieldNames = { ruleId: PROP_NAMES.ruleId, ruleName: PROP_NAMES.ruleName, assign: ": " };

/** The native resource's words (alertrules_rule_user_list's attributes, HCL). */
export const NATIVE_RULE_FIELDS: RuleFieldNames = { ruleId: ATTRIBUTE_NAMES.ruleId, ruleName: ATTRIBUTE_NAMES.ruleName, assign: " = " };

/** The native resource's import IDs (`RULE_ID`, `name:RULE NAME`: src/core/native/native-provider.ts). */
export const IMPORT_RULE_FIELDS: RuleFieldNames = { ruleId: "RULE_ID", ruleName: "name:", assign: "", verb: "import", quote: (name) => name };

export const NO_CHANGES: RuleChanges = {
  addUsers: [],
  addAliases: [],
  removeAliases: [],
  removeUsers: [],
  removeEntriesWithoutId: [],
  removeAll: false,
  rebuild: false,
};
export const NO_MASS_REMOVAL: MassRemovalCheck = { entries: 0, lost: 0, triggered: false };

/**
 * The plan of one rule. Takes the users as given: expired users are left out by the caller
 * (buildPlan); an `expiresAt` still present is dropped, never carried into the plan or the calls.
 */
export function diffRule(desired: DesiredList, observation: RuleObservation, options: DiffOptions): RulePlan {
  const fields = options.ruleFields ?? CONSTRUCT_RULE_FIELDS;
  const users = withoutExpiry(canonicalUsers(desired.users));
  const base = {
    ruleId: desired.ruleId,
    ruleName: desired.ruleName,
    declaredBy: desired.ruleId !== null ? ("ruleId" as const) : ("ruleName" as const),
    constructPath: desired.constructPath,
    stack: desired.stack,
    mode: desired.mode,
    allowMassRemoval: desired.allowMassRemoval,
    desired: users,
    listType: null,
    fingerprint: null,
    changes: NO_CHANGES,
    calls: [],
    massRemoval: NO_MASS_REMOVAL,
    warnings: [],
  };

  switch (observation.kind) {
    case "not-found":
      return { ...base, action: "error", errorKind: "unknown-rule", reason: notFoundReason(desired, observation.knownNames ?? [], fields) };
    case "ambiguous":
      return {
        ...base,
        action: "error",
        errorKind: "ambiguous-rule",
        reason:
          `${observation.ruleIds.length} rules are named '${desired.ruleName ?? ""}' ` +
          `(IDs ${observation.ruleIds.join(", ")}): declare this list by ${fields.ruleId} instead.`,
      };
    case "failed":
      return {
        ...base,
        ...(observation.rule ? { ruleId: observation.rule.observerRuleId, ruleName: observation.rule.name } : {}),
        action: "error",
        errorKind: "observe-failed",
        reason: observation.message,
      };
    case "found":
      break;
  }

  const facts = observation.rule;
  const resolved = { ...base, ruleId: facts.observerRuleId, ruleName: facts.name };
  if (isSystemRule(facts)) {
    return {
      ...resolved,
      action: "skip",
      errorKind: null,
      reason: `system rule (${facts.ruleSource}): its list is kept by the ${facts.ruleSource} list, not through this interface`,
    };
  }
  const list = observation.list;
  if (list === null) {
    return { ...resolved, action: "error", errorKind: "observe-failed", reason: "the rule's user list was not read" };
  }
  const observed = { ...resolved, listType: list.usersToAlertOn, fingerprint: fingerprintList(list) };
  if (list.usersToAlertOn === "ALL_USERS") {
    return { ...observed, action: "skip", errorKind: null, reason: "rule monitors all users: it has no user list to edit" };
  }

  const computed = desired.mode === "additive" ? additive(users, list) : authoritative(users, list);
  const calls = orderCalls(computed, list, users, options.batchSize);
  const massRemoval = desired.mode === "additive" ? NO_MASS_REMOVAL : massRemovalCheck(users, list);
  return {
    ...observed,
    action: calls.length > 0 ? "update" : "no-op",
    errorKind: null,
    reason: computed.reason,
    changes: computed.changes,
    calls,
    massRemoval: calls.length > 0 ? massRemoval : NO_MASS_REMOVAL,
    warnings: computed.warnings,
  };
}

function withoutExpiry(users: readonly DesiredUser[]): readonly PlannedUser[] {
  return users.some((u) => u.expiresAt !== undefined) ? users.map((u) => ({ userId: u.userId, aliases: u.aliases })) : users;
}

/**
 * Why a declared (or imported) rule was not found, with the name a typo most likely meant: a
 * ruleName that differs from a rule's name in case or by a small edit, or a rule's name given as
 * the ruleId. `knownNames`: names of rules the tenant has (from the metadata search, see
 * src/io/observe.ts).
 */
export function notFoundReason(desired: Pick<DesiredList, "ruleId" | "ruleName">, knownNames: readonly string[], fields: RuleFieldNames): string {
  const verb = fields.verb ?? "declare";
  const quote = fields.quote ?? JSON.stringify;
  if (desired.ruleId !== null) {
    const asName = knownNames.find((n) => n === desired.ruleId) ?? suggest(desired.ruleId, knownNames);
    const hint =
      asName !== undefined
        ? ` This looks like a rule name ('${asName}'): ${verb} it with ${fields.ruleName}${fields.assign}${quote(asName)} instead of ${fields.ruleId}.`
        : /\s/.test(desired.ruleId)
          ? ` This looks like a rule name (it has spaces): ${verb} it with ${fields.ruleName} instead of ${fields.ruleId}.`
          : "";
    return `no rule has the ID '${desired.ruleId}' in this tenant: check the ${fields.ruleId} (the rule's observerRuleId) or ${verb} the rule by ${fields.ruleName}.${hint}`;
  }
  const name = desired.ruleName ?? "";
  return `no rule is named '${name}' in this tenant (names match exactly, case included): check the name or ${verb} the rule by ${fields.ruleId}.${didYouMean(name, knownNames)}`;
}

interface Computed {
  readonly changes: RuleChanges;
  readonly reason: string | null;
  readonly warnings: string[];
}

/*
 * indexEntries and userDiff run once per observed entry and once per declared user: a million
 * times for a million-alias plan. They are plain loops that allocate only for what changes, and
 * compare alias keys by scanning the few aliases a user has (a Set only beyond SCAN_LIMIT).
 */

/** Above this many aliases, membership tests use a Set instead of a scan. */
const SCAN_LIMIT = 16;

/** Whether some alias of `aliases` has the alias key `key`. */
function containsKey(aliases: readonly string[], key: string): boolean {
  for (const alias of aliases) if (aliasKey(alias) === key) return true;
  return false;
}

/** The alias keys of `aliases` as a Set when there are more than SCAN_LIMIT, else null (scan them). */
function keySet(aliases: readonly string[]): Set<string> | null {
  return aliases.length <= SCAN_LIMIT ? null : new Set(aliases.map(aliasKey));
}

/** Whether `aliases` (with its keySet) has an alias of key `key`; allocation-free for small lists. */
function hasKey(aliases: readonly string[], keys: Set<string> | null, key: string): boolean {
  return keys !== null ? keys.has(key) : containsKey(aliases, key);
}

/** Adds to `into` the aliases of `aliases` whose key it does not have yet (first spelling wins). */
function mergeAliases(into: string[], aliases: readonly string[]): void {
  const has = into.length + aliases.length <= SCAN_LIMIT ? null : new Set(into.map(aliasKey));
  for (const alias of aliases) {
    const key = aliasKey(alias);
    if (has !== null ? has.has(key) : containsKey(into, key)) continue;
    into.push(alias);
    has?.add(key);
  }
}

/**
 * Groups observed entries by user ID (merging any repeats, first spelling of each alias key kept)
 * and sets aside the entries without one. An entry seen once with distinct aliases is used as is.
 */
function indexEntries(list: ObservedList): { byId: Map<string, readonly string[]>; withoutId: ObservedEntry[] } {
  const byId = new Map<string, readonly string[]>();
  const withoutId: ObservedEntry[] = [];
  for (const entry of list.entries) {
    if (entry.userId === null) {
      withoutId.push(entry);
      continue;
    }
    const existing = byId.get(entry.userId);
    if (existing === undefined && entry.aliases.length < 2) {
      byId.set(entry.userId, entry.aliases);
      continue;
    }
    const merged = existing === undefined ? [] : [...existing];
    mergeAliases(merged, entry.aliases);
    byId.set(entry.userId, merged);
  }
  return { byId, withoutId };
}

/** Per-user differences between the declaration and the entries that have IDs. */
function userDiff(users: readonly PlannedUser[], byId: ReadonlyMap<string, readonly string[]>) {
  const addUsers: PlannedUser[] = [];
  const addAliases: PlannedUser[] = [];
  const removeAliases: PlannedUser[] = [];
  const declared = new Set<string>();
  for (const user of users) {
    declared.add(user.userId);
    const present = byId.get(user.userId);
    if (present === undefined) {
      addUsers.push(user);
      continue;
    }
    const presentKeys = keySet(present);
    const wantedKeys = keySet(user.aliases);
    let missing: string[] | null = null;
    for (const alias of user.aliases) if (!hasKey(present, presentKeys, aliasKey(alias))) (missing ??= []).push(alias);
    let extra: string[] | null = null;
    for (const alias of present) if (!hasKey(user.aliases, wantedKeys, aliasKey(alias))) (extra ??= []).push(alias);
    if (missing !== null) addAliases.push({ userId: user.userId, aliases: missing });
    if (extra !== null) removeAliases.push({ userId: user.userId, aliases: extra.sort(compareAliases) });
  }
  const removeUsers: PlannedUser[] = [...byId.entries()]
    .filter(([userId]) => !declared.has(userId))
    .map(([userId, aliases]) => ({ userId, aliases: [...aliases].sort(compareAliases) }))
    .sort((a, b) => compareStrings(a.userId, b.userId));
  return { addUsers, addAliases, removeAliases, removeUsers };
}

function additive(users: readonly PlannedUser[], list: ObservedList): Computed {
  const { byId } = indexEntries(list);
  const { addUsers, addAliases } = userDiff(users, byId);
  return { changes: { ...NO_CHANGES, addUsers, addAliases }, reason: null, warnings: [] };
}

function authoritative(users: readonly PlannedUser[], list: ObservedList): Computed {
  const { byId, withoutId } = indexEntries(list);
  const diff = userDiff(users, byId);
  if (users.length === 0) {
    if (list.entries.length === 0) return { changes: NO_CHANGES, reason: null, warnings: [] };
    return {
      changes: {
        ...NO_CHANGES,
        removeUsers: diff.removeUsers,
        removeEntriesWithoutId: withoutId,
        removeAll: true,
      },
      reason: "the declared list is empty: every entry is removed",
      warnings: [],
    };
  }
  if (withoutId.length > 0) {
    return {
      changes: { ...diff, removeEntriesWithoutId: withoutId, removeAll: true, rebuild: true },
      reason:
        `${withoutId.length} ${withoutId.length === 1 ? "entry has" : "entries have"} no user ID and cannot be edited one by one: ` +
        "the list is emptied with remove-all-users and rebuilt with add-users",
      warnings: [
        "rebuild: the list is empty for a moment between remove-all-users and add-users " +
          "(an inclusion rule alerts on nobody, an exclusion rule on everybody, until add-users completes)",
      ],
    };
  }
  return { changes: { ...diff, removeEntriesWithoutId: [], removeAll: false, rebuild: false }, reason: null, warnings: [] };
}

/**
 * The fewest calls, in monitoring-safe order: inclusion lists gain before they lose; exclusion
 * lists lose before they gain. A rebuild empties first (the one exception, warned about). Each
 * operation's calls are built by its row of the operation table (src/core/engine/operations.ts).
 */
function orderCalls(
  computed: Computed,
  list: ObservedList,
  users: readonly PlannedUser[],
  batchSize: number,
): PlannedCall[] {
  return planCalls({ changes: computed.changes, users, batchSize: Math.max(1, Math.floor(batchSize)) }, list.usersToAlertOn);
}

/**
 * The mass-removal guard of docs/contract.md §5 and §9.3. An observed entry is lost when it leaves the
 * list by user ID (it has one and the declaration does not keep it: remove-users takes it away,
 * even when its aliases come back under another user) or by alias (none of its aliases remains).
 * Only the net result counts: the empty moment inside a rebuild does not.
 */
function massRemovalCheck(users: readonly PlannedUser[], list: ObservedList): MassRemovalCheck {
  const remaining = new Set<string>();
  const keptIds = new Set<string>();
  for (const user of users) {
    keptIds.add(user.userId);
    for (const alias of user.aliases) remaining.add(aliasKey(alias));
  }
  const entries = list.entries.length;
  const lost = list.entries.filter(
    (e) => (e.userId !== null && !keptIds.has(e.userId)) || !e.aliases.some((a) => remaining.has(aliasKey(a))),
  ).length;
  const triggered = entries > 0 && (lost === entries || (entries >= 10 && lost * 2 > entries));
  return { entries, lost, triggered };
}
