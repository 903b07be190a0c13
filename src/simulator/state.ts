/**
 * The tenant store: the rules of one simulated tenant (metadata, whom they monitor, user bags),
 * plus its alerts, cases and file events (`triage`, src/simulator/triage/state.ts).
 *
 * Pure in-memory state with no HTTP and no I/O: write methods return an outcome value, and the
 * route handlers map refusals to status codes. Nothing handed out aliases the internal state.
 */
import { NULL_USER_ID_SENTENCE, isMissingUserId, type RuleMetadata, type UsersInRuleResponse } from "../api/rules/schemas";
import { serviceAliasKey as aliasKey } from "./alias";
import type { ParsedTenantSeed, SimRule, SimUser } from "./seed";
import { SIMULATOR_API_USER } from "./api-user";
import { TriageState } from "./triage/state";
import { formatTimestamp } from "./timestamp";

/** Why a write was refused. */
export type WriteRefusal = "RULE_NOT_FOUND" | "RULE_IS_SYSTEM" | "RULE_MONITORS_ALL_USERS";

export type WriteOutcome =
  | { ok: true; ruleId: string; userCount: number }
  | { ok: false; reason: WriteRefusal; message: string };

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; reason: "RULE_NOT_FOUND"; message: string };

export interface TenantStoreOptions {
  /** @default - the seed's tenantId */
  tenantId?: string;
  /** @default - the system clock */
  now?: () => Date;
}

const SYSTEM_SOURCES: ReadonlySet<string> = new Set(["Departing Employee", "High Risk Employee"]);

export function isSystemRule(rule: SimRule): boolean {
  return rule.metadata.isSystem || SYSTEM_SOURCES.has(rule.metadata.ruleSource);
}

function copyRule(rule: SimRule): SimRule {
  return {
    metadata: { ...rule.metadata },
    usersToAlertOn: rule.usersToAlertOn,
    users: rule.users.map(copyUser),
  };
}

function copyUser(user: SimUser): SimUser {
  return { userIdFromAuthority: user.userIdFromAuthority, userAliasList: [...user.userAliasList] };
}

/** Adds aliases to a list, skipping those already present (case-insensitively; first spelling wins). */
function mergeAliases(into: string[], aliases: readonly string[]): void {
  const present = new Set(into.map(aliasKey));
  for (const alias of aliases) {
    const key = aliasKey(alias);
    if (key === "" || present.has(key)) continue;
    present.add(key);
    into.push(alias);
  }
}

/** Groups bags by user ID (entries without an ID stay as they are) and drops empty bags. */
export function groupByUserId(users: readonly SimUser[]): SimUser[] {
  const grouped: SimUser[] = [];
  const byId = new Map<string, SimUser>();
  for (const user of users) {
    const id = user.userIdFromAuthority;
    const existing = isMissingUserId(id) || id === null ? undefined : byId.get(id);
    if (existing !== undefined) {
      mergeAliases(existing.userAliasList, user.userAliasList);
      continue;
    }
    const bag: SimUser = { userIdFromAuthority: id, userAliasList: [] };
    mergeAliases(bag.userAliasList, user.userAliasList);
    if (bag.userAliasList.length === 0) continue;
    grouped.push(bag);
    if (!isMissingUserId(id) && id !== null) byId.set(id, bag);
  }
  return grouped;
}

export class TenantStore {
  readonly tenantId: string;
  /** The alerts, cases and file events the triage route tables work on. */
  readonly triage: TriageState;
  private readonly rulesById = new Map<string, SimRule>();
  private readonly now: () => Date;

  constructor(seed: ParsedTenantSeed, options: TenantStoreOptions = {}) {
    this.tenantId = options.tenantId ?? seed.tenantId;
    this.now = options.now ?? (() => new Date());
    for (const rule of seed.rules) {
      this.rulesById.set(rule.metadata.observerRuleId, {
        metadata: { ...rule.metadata, tenantId: this.tenantId },
        usersToAlertOn: rule.usersToAlertOn,
        users: groupByUserId(rule.users),
      });
    }
    this.triage = new TriageState(
      { alerts: seed.alerts, cases: seed.cases, fileEvents: seed.fileEvents },
      { tenantId: this.tenantId, now: this.now, usernameOf: (uid) => this.firstAliasOf(uid) },
    );
  }

  /** All rules, in seed order (deep copies). */
  rules(): SimRule[] {
    return [...this.rulesById.values()].map(copyRule);
  }

  /** The metadata of all rules, in seed order (copies), without copying their user lists. */
  ruleMetadata(): RuleMetadata[] {
    return [...this.rulesById.values()].map((rule) => ({ ...rule.metadata }));
  }

  /** One rule by its observerRuleId (a deep copy), or undefined. */
  rule(ruleId: string): SimRule | undefined {
    const rule = this.rulesById.get(ruleId);
    return rule === undefined ? undefined : copyRule(rule);
  }

  /** The users of a rule as query-users returns them. ALL_USERS rules have no list. */
  queryUsers(ruleId: string): ReadOutcome<UsersInRuleResponse> {
    const rule = this.rulesById.get(ruleId);
    if (rule === undefined) return notFound(ruleId);
    const users = rule.usersToAlertOn === "ALL_USERS" ? [] : rule.users;
    return {
      ok: true,
      value: {
        type$: "USERS_IN_RULE_RESPONSE",
        users: users.map((user) => ({ type$: "USER_BAG", ...copyUser(user) })),
        usersToAlertOn: rule.usersToAlertOn,
      },
    };
  }

  /**
   * Merges each entry into the bag with the same user ID (aliases deduplicated
   * case-insensitively, existing spelling kept), or appends a new bag. An entry without a
   * usable ID (null, empty, whitespace) becomes a new entry whose ID is the explanatory sentence.
   */
  addUsers(ruleId: string, entries: ReadonlyArray<{ userIdFromAuthority: string | null; userAliasList: readonly string[] }>, actor = SIMULATOR_API_USER): WriteOutcome {
    return this.editList(ruleId, actor, (rule) => {
      // The first bag of each user ID, indexed once per call (a search per entry made adding a
      // thousand users to a thousand-user list quadratic).
      const byId = new Map<string, SimUser>();
      const index = (user: SimUser): void => {
        const userId = user.userIdFromAuthority;
        if (userId !== null && !isMissingUserId(userId) && !byId.has(userId)) byId.set(userId, user);
      };
      rule.users.forEach(index);
      for (const entry of entries) {
        const id = entry.userIdFromAuthority;
        const existing = id === null || isMissingUserId(id) ? undefined : byId.get(id);
        if (existing !== undefined) {
          mergeAliases(existing.userAliasList, entry.userAliasList);
          continue;
        }
        const bag: SimUser = { userIdFromAuthority: isMissingUserId(id) ? NULL_USER_ID_SENTENCE : id, userAliasList: [] };
        mergeAliases(bag.userAliasList, entry.userAliasList);
        if (bag.userAliasList.length > 0) {
          rule.users.push(bag);
          index(bag);
        }
      }
    });
  }

  /** Removes the bags whose user ID is listed. IDs that match nothing (also entries without an ID) are ignored. */
  removeUsers(ruleId: string, userIds: readonly string[], actor = SIMULATOR_API_USER): WriteOutcome {
    const wanted = new Set(userIds);
    return this.editList(ruleId, actor, (rule) => {
      rule.users = rule.users.filter((user) => isMissingUserId(user.userIdFromAuthority) || !wanted.has(user.userIdFromAuthority ?? ""));
    });
  }

  /** Removes the listed aliases (case-insensitively) from the bag with that ID; a bag left empty is dropped. */
  removeUserAliases(ruleId: string, entries: ReadonlyArray<{ userIdFromAuthority: string; userAliasList: readonly string[] }>, actor = SIMULATOR_API_USER): WriteOutcome {
    return this.editList(ruleId, actor, (rule) => {
      // The aliases to drop, by the first bag of each user ID: one pass over the entries and one
      // over the list (a search of the list per entry took 23 s on a 140,000-user rule).
      const firstBag = new Map<string, SimUser>();
      for (const user of rule.users) {
        const userId = user.userIdFromAuthority;
        if (userId !== null && !firstBag.has(userId)) firstBag.set(userId, user);
      }
      const drops = new Map<SimUser, Set<string>>();
      for (const entry of entries) {
        if (isMissingUserId(entry.userIdFromAuthority)) continue;
        const bag = firstBag.get(entry.userIdFromAuthority);
        if (bag === undefined) continue;
        const drop = drops.get(bag) ?? new Set<string>();
        for (const alias of entry.userAliasList) drop.add(aliasKey(alias));
        drops.set(bag, drop);
      }
      for (const [bag, drop] of drops) bag.userAliasList = bag.userAliasList.filter((alias) => !drop.has(aliasKey(alias)));
      rule.users = rule.users.filter((user) => user.userAliasList.length > 0);
    });
  }

  /** Empties the rule's list. */
  removeAllUsers(ruleId: string, actor = SIMULATOR_API_USER): WriteOutcome {
    return this.editList(ruleId, actor, (rule) => {
      rule.users = [];
    });
  }

  /**
   * Replaces a rule's list directly (tests, demo): no refusal rules apply except an unknown rule.
   * Bags are grouped by user ID; empty bags are dropped; entries without ID keep what is given.
   */
  setUsers(ruleId: string, users: readonly SimUser[], actor = "simulator"): WriteOutcome {
    const rule = this.rulesById.get(ruleId);
    if (rule === undefined) return notFound(ruleId);
    rule.users = groupByUserId(users);
    this.touch(rule, actor);
    return { ok: true, ruleId, userCount: rule.users.length };
  }

  /** Turns a rule's list into an inclusion or an exclusion list, as an administrator does in the console (its users stay). */
  setListType(ruleId: string, usersToAlertOn: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED", actor = "simulator"): WriteOutcome {
    const rule = this.rulesById.get(ruleId);
    if (rule === undefined) return notFound(ruleId);
    rule.usersToAlertOn = usersToAlertOn;
    this.touch(rule, actor);
    return { ok: true, ruleId, userCount: rule.users.length };
  }

  /** The whole state in the seed format (a deep copy), for persistence. */
  snapshot(): ParsedTenantSeed {
    return {
      tenantId: this.tenantId,
      rules: this.rules(),
      ...this.triage.snapshot(),
    };
  }

  /** The first alias of the first bag with this user ID, in seed order of the rules, or null. */
  private firstAliasOf(userId: string): string | null {
    for (const rule of this.rulesById.values()) {
      const alias = rule.users.find((user) => user.userIdFromAuthority === userId)?.userAliasList[0];
      if (alias !== undefined) return alias;
    }
    return null;
  }

  /**
   * A user-list write as the service makes it: the service's refusals first (an unknown rule, a
   * system rule, a rule that monitors all users), then `change` to the rule's list, then the
   * rule's modifiedAt and modifiedBy. The write methods above are each one such change; a route
   * of another write operation (src/simulator/rule-routes.ts) brings its own.
   */
  editList(ruleId: string, actor: string, change: (rule: SimRule) => void): WriteOutcome {
    const rule = this.rulesById.get(ruleId);
    if (rule === undefined) return notFound(ruleId);
    if (isSystemRule(rule)) {
      return {
        ok: false,
        reason: "RULE_IS_SYSTEM",
        message: `Rule ${ruleId} ("${rule.metadata.name}") is a default rule of the ${rule.metadata.ruleSource === "Alerting" ? "system" : rule.metadata.ruleSource} list; its users are maintained in that list, not through this operation.`,
      };
    }
    if (rule.usersToAlertOn === "ALL_USERS") {
      return {
        ok: false,
        reason: "RULE_MONITORS_ALL_USERS",
        message: `Rule ${ruleId} ("${rule.metadata.name}") monitors all users; it has no user list to change.`,
      };
    }
    change(rule);
    this.touch(rule, actor);
    return { ok: true, ruleId, userCount: rule.users.length };
  }

  private touch(rule: SimRule, actor: string): void {
    rule.metadata.modifiedAt = formatTimestamp(this.now());
    rule.metadata.modifiedBy = actor;
  }
}

function notFound(ruleId: string): { ok: false; reason: "RULE_NOT_FOUND"; message: string } {
  return { ok: false, reason: "RULE_NOT_FOUND", message: `No rule with ID "${ruleId}" in this tenant.` };
}
