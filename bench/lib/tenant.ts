/**
 * The generated tenants of the benchmark: a simulator seed (rules with realistic metadata,
 * inclusion and exclusion lists), the declarations of the desired state, and the same change set
 * as the per-user rows a CSV-driven script would send. Deterministic for a given spec.
 */
import { canonicalUsers } from "../../src/core";
import type { DesiredList } from "../../src/core";
import type { TenantSeed } from "../../src/simulator";
import { mulberry32, type Random } from "../../src/simulator/prng";
import { extraAlias, person } from "./people";

export type ChangeSpec =
  /** Nothing changes: the declaration is exactly what the service has. */
  | { readonly kind: "none" }
  /**
   * About `fraction` of each list changes: new users, new aliases, removed aliases, replaced
   * aliases (one removed, one added) and removed users, drawn at random, one change per user.
   */
  | { readonly kind: "mixed"; readonly fraction: number }
  /** Each rule receives `newUsers` new users (the bulk-onboarding CSV). */
  | { readonly kind: "onboard"; readonly newUsers: number };

export interface TenantSpec {
  /** Editable rules (Alerting, SPECIFIED_USERS or ALL_USERS_NOT_SPECIFIED). */
  readonly rules: number;
  readonly usersPerRule: number;
  /** Default rules of the Departing / High Risk Employee lists (skipped, never read). @default 0 */
  readonly systemRules?: number;
  /** Rules that monitor ALL_USERS (read, then skipped). @default 0 */
  readonly allUsersRules?: number;
  readonly change: ChangeSpec;
  /** Force every person to this many aliases. @default - 1 to 3 */
  readonly aliasesPerUser?: number;
  /** @default 1 */
  readonly seed?: number;
}

/** One row of the per-user change set: one user, one write operation on one rule. */
export interface PerUserRow {
  readonly ruleId: string;
  readonly operation: "add-users" | "remove-users" | "remove-user-aliases";
  readonly userId: string;
  /** The aliases the row carries (empty for remove-users). */
  readonly aliases: readonly string[];
}

/** What the change set amounts to, in the terms of the plan's `changes` (to cross-check the plan). */
export interface ExpectedChanges {
  readonly rulesToUpdate: number;
  readonly usersToAdd: number;
  /** Aliases of new users plus aliases new to users already in the list. */
  readonly aliasesToAdd: number;
  /** Aliases removed from users who stay in the list (removed users are counted in usersToRemove). */
  readonly aliasesToRemove: number;
  readonly usersToRemove: number;
}

export interface GeneratedTenant {
  readonly seed: TenantSeed;
  /** One declaration per rule of the seed, in seed order. */
  readonly declarations: DesiredList[];
  /** The change set as a per-user script sees it, grouped by rule. */
  readonly rows: PerUserRow[];
  readonly expected: ExpectedChanges;
  /** Aliases in the declarations of all rules. */
  readonly declaredAliases: number;
}

type SeedRule = TenantSeed["rules"][number];
interface User {
  userId: string;
  aliases: string[];
}

const TYPES = ["FED_ENDPOINT_EXFILTRATION", "FED_CLOUD_SHARE_PERMISSIONS", "FED_FILE_TYPE_MISMATCH"] as const;
const TYPE_LABEL: Record<(typeof TYPES)[number], string> = {
  FED_ENDPOINT_EXFILTRATION: "Endpoint exfiltration",
  FED_CLOUD_SHARE_PERMISSIONS: "Cloud share permissions",
  FED_FILE_TYPE_MISMATCH: "File type mismatch",
};
const TEAMS = ["Engineering", "Finance", "Sales", "Legal", "Research", "Support", "Marketing", "HR", "Operations", "Executives"];
const SEVERITIES = ["HIGH", "MEDIUM", "LOW"];
const ADMINS = ["priya.natarajan@example.com", "security-admin@example.com", "soc-automation@example.com"];

function uuid(random: Random): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(random() * 4)] ?? "8"}${hex(3)}-${hex(12)}`;
}

function timestamp(random: Random, year: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `${year}-${pad(month)}-${pad(day)}T${pad(Math.floor(random() * 24))}:${pad(Math.floor(random() * 60))}:${pad(Math.floor(random() * 60))}.${pad(Math.floor(random() * 1e7), 7)}Z`;
}

function metadata(random: Random, index: number, special: "none" | "system" | "all-users") {
  const type = TYPES[index % TYPES.length] ?? "FED_ENDPOINT_EXFILTRATION";
  const team = TEAMS[index % TEAMS.length] ?? "Engineering";
  const source = special === "system" ? (index % 2 === 0 ? "Departing Employee" : "High Risk Employee") : "Alerting";
  const name =
    special === "system" ? `${source} - ${TYPE_LABEL[type]} ${index}` : `${TYPE_LABEL[type]} - ${team} ${index}`;
  const creator = special === "system" ? "system@vendor.example" : (ADMINS[index % ADMINS.length] ?? "admin@example.com");
  return {
    id: uuid(random),
    observerRuleId: uuid(random),
    name,
    description: `Alerts on ${TYPE_LABEL[type].toLowerCase()} activity of the ${team} team (generated for the benchmark).`,
    severity: SEVERITIES[index % SEVERITIES.length] ?? "HIGH",
    type,
    isSystem: special === "system",
    isEnabled: true,
    ruleSource: source,
    createdAt: timestamp(random, 2024),
    modifiedAt: timestamp(random, 2025),
    createdBy: creator,
    modifiedBy: creator,
  };
}

/** `count` distinct integers of [0, range), in random order. */
function sample(random: Random, range: number, count: number): number[] {
  if (count > range) throw new RangeError(`cannot draw ${count} distinct people from ${range}`);
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(random() * range));
  return [...picked];
}

const copy = (u: User): User => ({ userId: u.userId, aliases: [...u.aliases] });

type ChangeKind = "add-user" | "remove-user" | "add-alias" | "remove-alias" | "replace-alias";
const KINDS: readonly ChangeKind[] = ["add-user", "remove-user", "add-alias", "remove-alias", "replace-alias"];

interface RuleChange {
  readonly declared: User[];
  readonly rows: PerUserRow[];
  readonly expected: Omit<ExpectedChanges, "rulesToUpdate">;
}

const NO_EXPECTED = { usersToAdd: 0, aliasesToAdd: 0, aliasesToRemove: 0, usersToRemove: 0 };

function mixedChange(
  random: Random,
  ruleId: string,
  current: readonly User[],
  fraction: number,
  newPerson: () => User,
  personIndexOf: ReadonlyMap<string, number>,
): RuleChange {
  const declared = current.map(copy);
  const rows: PerUserRow[] = [];
  const expected = { ...NO_EXPECTED };
  const changes = Math.max(1, Math.round(current.length * fraction));
  const untouched = new Set(declared.map((_, i) => i));
  const removed = new Set<number>();
  const pickUser = (minAliases: number): number | undefined => {
    const candidates = [...untouched].filter((i) => (declared[i]?.aliases.length ?? 0) >= minAliases);
    if (candidates.length === 0) return undefined;
    return candidates[Math.floor(random() * candidates.length)];
  };
  for (let c = 0; c < changes; c++) {
    let kind = KINDS[Math.floor(random() * KINDS.length)] ?? "add-user";
    if (kind === "add-user") {
      const user = newPerson();
      declared.push(user);
      rows.push({ ruleId, operation: "add-users", userId: user.userId, aliases: [...user.aliases] });
      expected.usersToAdd += 1;
      expected.aliasesToAdd += user.aliases.length;
      continue;
    }
    let index = pickUser(kind === "remove-alias" ? 2 : 1);
    if (index === undefined && kind === "remove-alias") {
      kind = "add-alias";
      index = pickUser(1);
    }
    if (index === undefined) break;
    untouched.delete(index);
    const user = declared[index];
    if (user === undefined) continue;
    const extra = extraAlias(personIndexOf.get(user.userId) ?? 0);
    switch (kind) {
      case "remove-user":
        removed.add(index);
        rows.push({ ruleId, operation: "remove-users", userId: user.userId, aliases: [] });
        expected.usersToRemove += 1;
        break;
      case "add-alias":
        user.aliases.push(extra);
        rows.push({ ruleId, operation: "add-users", userId: user.userId, aliases: [extra] });
        expected.aliasesToAdd += 1;
        break;
      case "remove-alias": {
        const dropped = user.aliases.pop() ?? "";
        rows.push({ ruleId, operation: "remove-user-aliases", userId: user.userId, aliases: [dropped] });
        expected.aliasesToRemove += 1;
        break;
      }
      case "replace-alias": {
        const dropped = user.aliases.shift() ?? "";
        user.aliases.push(extra);
        rows.push({ ruleId, operation: "remove-user-aliases", userId: user.userId, aliases: [dropped] });
        rows.push({ ruleId, operation: "add-users", userId: user.userId, aliases: [extra] });
        expected.aliasesToRemove += 1;
        expected.aliasesToAdd += 1;
        break;
      }
    }
  }
  return { declared: declared.filter((_, i) => !removed.has(i)), rows, expected };
}

/** One rule's declaration: every tenth editable rule by name, like a user who does not look IDs up. */
function declarationOf(index: number, rule: SeedRule, users: readonly User[]): DesiredList {
  const byName = index % 10 === 9;
  return {
    constructPath: `bench/${rule.metadata.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    stack: "bench",
    ruleId: byName ? null : rule.metadata.observerRuleId,
    ruleName: byName ? rule.metadata.name : null,
    mode: "authoritative",
    allowMassRemoval: false,
    // In canonical order, as readDeclarations returns them from the synthesized JSON.
    users: canonicalUsers(users),
  };
}

/** What the change set does to one rule's `current` users, by the spec's kind of change. */
function ruleChange(
  change: ChangeSpec,
  random: Random,
  ruleId: string,
  current: readonly User[],
  newPerson: () => User,
  personIndexOf: ReadonlyMap<string, number>,
): RuleChange {
  switch (change.kind) {
    case "none":
      return { declared: current.map(copy), rows: [], expected: NO_EXPECTED };
    case "mixed":
      return mixedChange(random, ruleId, current, change.fraction, newPerson, personIndexOf);
    case "onboard": {
      const hires = Array.from({ length: change.newUsers }, newPerson);
      return {
        declared: [...current.map(copy), ...hires],
        rows: hires.map((u) => ({ ruleId, operation: "add-users" as const, userId: u.userId, aliases: [...u.aliases] })),
        expected: { ...NO_EXPECTED, usersToAdd: hires.length, aliasesToAdd: hires.reduce((n, u) => n + u.aliases.length, 0) },
      };
    }
  }
}

/** Generates a tenant, its declarations and its change set. */
export function generateTenant(spec: TenantSpec): GeneratedTenant {
  const random = mulberry32(spec.seed ?? 1);
  const aliasesPerUser = spec.aliasesPerUser;
  const pool = Math.max(spec.usersPerRule * 4, 2_000);
  // People at and above `pool` are new hires: not in any list yet.
  let nextNewHire = pool;
  const personIndexOf = new Map<string, number>();
  const userOf = (i: number): User => {
    const p = person(i, aliasesPerUser);
    if (spec.change.kind === "mixed") personIndexOf.set(p.userId, i);
    return { userId: p.userId, aliases: [...p.aliases] };
  };
  const newPerson = (): User => userOf(nextNewHire++);

  const rules: SeedRule[] = [];
  const declarations: DesiredList[] = [];
  const rows: PerUserRow[] = [];
  const expected = { rulesToUpdate: 0, ...NO_EXPECTED };
  let declaredAliases = 0;
  const declare = (index: number, rule: SeedRule, users: readonly User[]) => {
    declarations.push(declarationOf(index, rule, users));
    declaredAliases += users.reduce((n, u) => n + u.aliases.length, 0);
  };

  for (let r = 0; r < spec.rules; r++) {
    const meta = metadata(random, r, "none");
    const current = sample(random, pool, spec.usersPerRule).map(userOf);
    const rule: SeedRule = {
      metadata: meta,
      usersToAlertOn: r % 5 === 4 ? "ALL_USERS_NOT_SPECIFIED" : "SPECIFIED_USERS",
      users: current.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })),
    };
    rules.push(rule);
    const change = ruleChange(spec.change, random, meta.observerRuleId, current, newPerson, personIndexOf);
    declare(r, rule, change.declared);
    rows.push(...change.rows);
    if (change.rows.length > 0) expected.rulesToUpdate += 1;
    expected.usersToAdd += change.expected.usersToAdd;
    expected.aliasesToAdd += change.expected.aliasesToAdd;
    expected.aliasesToRemove += change.expected.aliasesToRemove;
    expected.usersToRemove += change.expected.usersToRemove;
  }

  // Rules whose lists cannot be edited through the interface: declared, reported as skipped.
  for (let s = 0; s < (spec.systemRules ?? 0); s++) {
    const index = spec.rules + s;
    const users = sample(random, pool, spec.usersPerRule).map(userOf);
    const rule: SeedRule = {
      metadata: metadata(random, index, "system"),
      usersToAlertOn: "SPECIFIED_USERS",
      users: users.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })),
    };
    rules.push(rule);
    declare(0, rule, [...users, newPerson()]);
  }
  for (let a = 0; a < (spec.allUsersRules ?? 0); a++) {
    const index = spec.rules + (spec.systemRules ?? 0) + a;
    const rule: SeedRule = { metadata: metadata(random, index, "all-users"), usersToAlertOn: "ALL_USERS", users: [] };
    rules.push(rule);
    declare(0, rule, sample(random, pool, 5).map(userOf));
  }

  return {
    seed: { tenantId: "5c6f3f0e-7b1d-4d6b-9a51-3e0d2b6c9f10", rules },
    declarations,
    rows,
    expected,
    declaredAliases,
  };
}
