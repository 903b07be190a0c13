/**
 * The access report (docs/contract.md §10.3) as a pure function of what was read: every editable rule's
 * live list, joined, when the app's declarations were read, with the RuleUserLists that declare
 * each entry, its expiry and the policy checks it fails. No I/O; the clock (`now`) is an input.
 *
 * Policy violations are the plan's own (buildPlan on the live lists), so the report and `plan`
 * never disagree about them.
 */
import type { UsersToAlertOn } from "../../api/rules/schemas";
import { buildPlan } from "../engine/build-plan";
import { aliasKey, compareStrings } from "../engine/canonical";
import type { DesiredList, DesiredUser } from "../engine/desired";
import { describeRule } from "../engine/desired";
import { EXPIRING_SOON_DAYS, addDays, dayOf } from "../engine/expiry";
import type { RuleObservation } from "../engine/observation";
import type { Plan, PolicyViolation } from "../engine/plan-schema";
import { policyReason } from "../engine/policy";
import type { LiveRule } from "../live/who";
import { byNameThenId } from "../engine/canonical";
import { declaresRule } from "../live/who";

/** `expired`: its `expiresAt` has come and it is still in the live list; `expiring`: it comes within 14 days. */
export type ExpiryState = "expired" | "expiring" | "none";

/**
 * `declared`: in the live list and declared; `not-declared`: in the live list of a rule the app
 * manages, declared by no RuleUserList (drift: added in the console; an additive list allows it);
 * `not-live`: declared but not in the live list (drift: not applied yet); `not-managed`: in the
 * live list of a rule the app declares nothing for (not drift: the app does not manage that rule);
 * `unknown`: the declarations were not read.
 */
export type DeclarationState = "declared" | "not-declared" | "not-live" | "not-managed" | "unknown";

/** One entry of one rule's list: a person who can be alerted on, or is exempt. */
export interface AccessEntry {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly listType: UsersToAlertOn;
  /** The entry's user ID; null for an entry without one. */
  readonly userId: string | null;
  readonly aliases: readonly string[];
  readonly state: DeclarationState;
  /** Construct paths of the RuleUserLists that declare this person for this rule (empty when none). */
  readonly declaredBy: readonly string[];
  /** The earliest `expiresAt` of the declarations of this person for this rule; null when none carries one. */
  readonly expiresAt: string | null;
  readonly expiry: ExpiryState;
  /** The policy checks that name this user, as `check (policy PATH)`. */
  readonly violations: readonly string[];
}

/** One editable rule: its counts and the policy checks its list fails. */
export interface RuleAccess {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly listType: UsersToAlertOn;
  readonly entries: number;
  /** Entries with a drift state (`not-declared` or `not-live`). */
  readonly drift: number;
  /** Whether a RuleUserList of the app declares this rule (false too when the declarations were not read). */
  readonly managed: boolean;
  readonly expiring: number;
  readonly expired: number;
  /** Construct paths of the RuleUserLists that declare this rule. */
  readonly declaredBy: readonly string[];
  /** Every policy check the rule's list fails, with its message (as `plan` says it). */
  readonly violations: readonly string[];
  /** Why the plan could not evaluate this rule's declaration (e.g. declared twice); null otherwise. */
  readonly problem: string | null;
}

export interface AccessReport {
  /** The clock of the expiry states, `yyyy-MM-ddTHH:mm:ssZ`. */
  readonly now: string;
  readonly tenantId: string;
  /** Whether the app's declarations were read (else every state is `unknown`). */
  readonly withDeclarations: boolean;
  /** Editable rules, by name then ID. */
  readonly rules: readonly RuleAccess[];
  /** Every entry, rule by rule (the order of `rules`), then by user ID. */
  readonly entries: readonly AccessEntry[];
  /** Rules with no editable list (system rules), not read. */
  readonly systemRules: number;
  /** Declarations whose rule is not in the tenant, or matches several rules by name. */
  readonly unresolved: readonly { readonly constructPath: string; readonly rule: string; readonly reason: string }[];
}

export interface AccessReportInput {
  readonly rules: readonly LiveRule[];
  /** The app's declared lists; undefined when the app was not read. */
  readonly declared?: readonly DesiredList[] | undefined;
  /** `yyyy-MM-ddTHH:mm:ssZ`. */
  readonly now: string;
  readonly tenantId: string;
}

/** What the declarations of one rule say about a person: by user ID and by alias key. */
interface RuleDeclarations {
  readonly byUserId: Map<string, Array<{ path: string; user: DesiredUser }>>;
  readonly byAlias: Map<string, Array<{ path: string; user: DesiredUser }>>;
  readonly paths: string[];
}

function indexDeclarations(lists: readonly DesiredList[]): RuleDeclarations {
  const byUserId = new Map<string, Array<{ path: string; user: DesiredUser }>>();
  const byAlias = new Map<string, Array<{ path: string; user: DesiredUser }>>();
  const push = <K>(map: Map<K, Array<{ path: string; user: DesiredUser }>>, key: K, value: { path: string; user: DesiredUser }) => {
    const at = map.get(key);
    if (at === undefined) map.set(key, [value]);
    else at.push(value);
  };
  for (const list of lists) {
    for (const user of list.users) {
      const value = { path: list.constructPath, user };
      push(byUserId, user.userId, value);
      for (const alias of new Set(user.aliases.map(aliasKey))) push(byAlias, alias, value);
    }
  }
  return { byUserId, byAlias, paths: lists.map((l) => l.constructPath).sort(compareStrings) };
}

/** The declarations of a live entry: same user ID, or a shared alias. */
function declarationsOf(index: RuleDeclarations, userId: string | null, aliases: readonly string[]): Array<{ path: string; user: DesiredUser }> {
  const found: Array<{ path: string; user: DesiredUser }> = userId === null ? [] : [...(index.byUserId.get(userId) ?? [])];
  for (const alias of aliases) {
    for (const d of index.byAlias.get(aliasKey(alias)) ?? []) if (!found.includes(d)) found.push(d);
  }
  return found;
}

function earliest(dates: readonly (string | undefined)[]): string | null {
  let first: string | null = null;
  for (const d of dates) if (d !== undefined && (first === null || d < first)) first = d;
  return first;
}

function expiryOf(expiresAt: string | null, today: string, horizon: string): ExpiryState {
  if (expiresAt === null) return "none";
  if (expiresAt <= today) return "expired";
  return expiresAt <= horizon ? "expiring" : "none";
}

/** The observation of a declaration among the live rules, as observe() would resolve it. */
function observationOf(list: DesiredList, rules: readonly LiveRule[]): RuleObservation {
  const matches = rules.filter(({ rule }) => declaresRule(list, rule));
  if (matches.length === 0) return { kind: "not-found" };
  if (matches.length > 1) return { kind: "ambiguous", ruleIds: matches.map((m) => m.rule.observerRuleId).sort(compareStrings) };
  return { kind: "found", rule: matches[0]!.rule, list: matches[0]!.list };
}

/** The rule a declaration resolves to (its ID once found), so that a rule declared by ID and by name is one. */
function ruleKey(list: DesiredList, observation: RuleObservation): string {
  if (observation.kind === "found") return `id:${observation.rule.observerRuleId}`;
  return list.ruleId !== null ? `id:${list.ruleId}` : `name:${list.ruleName ?? ""}`;
}

function violationLabel(v: PolicyViolation): string {
  return `${v.check} (policy ${v.policy})`;
}

/** The report: one entry per live list entry (and, with declarations, per declared person not in the live list). */
export function buildAccessReport(input: AccessReportInput): AccessReport {
  const today = dayOf(input.now);
  const horizon = addDays(today, EXPIRING_SOON_DAYS);
  const declared = input.declared ?? [];
  const ordered = [...input.rules].sort((a, b) =>
    byNameThenId(a.rule, b.rule),
  );

  const observations = declared.map((d) => observationOf(d, input.rules));
  const plan = policyPlan(input, declared, observations);
  const declaredTimes = new Map<string, string[]>();
  declared.forEach((d, i) => declaredTimes.set(ruleKey(d, observations[i]!), [...(declaredTimes.get(ruleKey(d, observations[i]!)) ?? []), d.constructPath]));
  const unresolved = unresolvedDeclarations(declared, observations);

  const rules: RuleAccess[] = [];
  const entries: AccessEntry[] = [];
  for (const { rule, list } of ordered) {
    if (list === null) continue;
    const { ruleEntries, access } = ruleAccess(rule, list, { input, declared, plan, declaredTimes, today, horizon });
    entries.push(...ruleEntries);
    rules.push(access);
  }
  return {
    now: input.now,
    tenantId: input.tenantId,
    withDeclarations: input.declared !== undefined,
    rules,
    entries,
    systemRules: ordered.filter((r) => r.list === null).length,
    unresolved,
  };
}

/** The plan of the rules a policy applies to, for its verdicts (null when no declared rule has a policy). */
function policyPlan(input: AccessReportInput, declared: readonly DesiredList[], observations: readonly RuleObservation[]): Plan | null {
  // The plan's own verdicts on the rules a policy applies to (the others can have no violation, and
  // a plan of every list costs as much as `plan`): their declarations, all of them (a rule declared
  // twice is an error there, not a violation), and what was read.
  const policed = new Set(declared.flatMap((d, i) => ((d.policies ?? []).length > 0 ? [ruleKey(d, observations[i]!)] : [])));
  const planned = declared.flatMap((d, i) => (policed.has(ruleKey(d, observations[i]!)) ? [i] : []));
  const plan =
    planned.length === 0
      ? null
      : buildPlan({
          declarations: planned.map((i) => declared[i]!),
          observations: planned.map((i) => observations[i]!),
          connection: { baseUrl: "", tenantId: input.tenantId },
          createdAt: input.now,
          now: input.now,
          toolVersion: "",
        });
  return plan;
}

/** The declarations that name no rule of the tenant, or a name several rules have. */
function unresolvedDeclarations(declared: readonly DesiredList[], observations: readonly RuleObservation[]): AccessReport["unresolved"] {
  const unresolved = declared.flatMap((d, i) => {
    const o = observations[i]!;
    if (o.kind === "not-found") return [{ constructPath: d.constructPath, rule: describeRule(d), reason: "no such rule in the tenant" }];
    if (o.kind === "ambiguous") return [{ constructPath: d.constructPath, rule: describeRule(d), reason: `the name matches ${o.ruleIds.length} rules (${o.ruleIds.join(", ")}); declare it by ruleId` }];
    return [];
  });
  return unresolved;
}

/** What one rule's read is joined with: the report's input, the declarations, the policy plan, how often each rule is declared, and the day. */
interface RuleContext {
  readonly input: AccessReportInput;
  readonly declared: readonly DesiredList[];
  readonly plan: Plan | null;
  readonly declaredTimes: ReadonlyMap<string, string[]>;
  readonly today: string;
  readonly horizon: string;
}

/** One rule's entries (live, and declared but not live) and its summary row. */
function ruleAccess(rule: LiveRule["rule"], list: NonNullable<LiveRule["list"]>, context: RuleContext): { ruleEntries: AccessEntry[]; access: RuleAccess } {
  const { input, declared, plan, declaredTimes, today, horizon } = context;
  const lists = declared.filter((d) => declaresRule(d, rule));
  const index = indexDeclarations(lists);
  const violations = plan === null ? [] : plan.rules.filter((r) => r.ruleId === rule.observerRuleId).flatMap((r) => r.violations ?? []);
  const twice = declaredTimes.get(`id:${rule.observerRuleId}`) ?? [];
  const problem = twice.length > 1 ? `declared by ${twice.length} RuleUserList constructs (${twice.join(", ")}): keep exactly one declaration per rule` : null;
  const base = { ruleId: rule.observerRuleId, ruleName: rule.name, listType: list.usersToAlertOn };
  const ruleEntries: AccessEntry[] = [];
  const liveIds = new Set<string>();
  const liveKeys = new Set<string>();

  for (const entry of list.entries) {
    if (entry.userId !== null) liveIds.add(entry.userId);
    for (const alias of entry.aliases) liveKeys.add(aliasKey(alias));
    const found = declarationsOf(index, entry.userId, entry.aliases);
    const expiresAt = earliest(found.map((d) => d.user.expiresAt));
    ruleEntries.push({
      ...base,
      userId: entry.userId,
      aliases: [...entry.aliases],
      state: liveEntryState(input.declared !== undefined, lists.length > 0, found.length > 0),
      declaredBy: found.length === 1 ? [found[0]!.path] : [...new Set(found.map((d) => d.path))].sort(compareStrings),
      expiresAt,
      expiry: expiryOf(expiresAt, today, horizon),
      violations: violations.filter((v) => entry.userId !== null && v.users.includes(entry.userId)).map(violationLabel),
    });
  }

  // Declared people not in the live list: pending an apply (those whose expiresAt has come are rightly absent).
  const pending = new Map<string, { aliases: readonly string[]; paths: Set<string>; dates: (string | undefined)[] }>();
  for (const decl of lists) {
    for (const user of decl.users) {
      if (liveIds.has(user.userId) || user.aliases.some((a) => liveKeys.has(aliasKey(a)))) continue;
      if (user.expiresAt !== undefined && user.expiresAt <= today) continue;
      const seen = pending.get(user.userId) ?? { aliases: user.aliases, paths: new Set<string>(), dates: [] };
      seen.paths.add(decl.constructPath);
      seen.dates.push(user.expiresAt);
      pending.set(user.userId, seen);
    }
  }
  for (const [userId, { aliases, paths, dates }] of pending) {
    const expiresAt = earliest(dates);
    ruleEntries.push({
      ...base,
      userId,
      aliases: [...aliases],
      state: "not-live",
      declaredBy: [...paths].sort(compareStrings),
      expiresAt,
      expiry: expiryOf(expiresAt, today, horizon),
      violations: violations.filter((v) => v.users.includes(userId)).map(violationLabel),
    });
  }

  ruleEntries.sort((a, b) => compareStrings(a.userId ?? "\uffff", b.userId ?? "\uffff") || compareStrings(a.aliases.join(","), b.aliases.join(",")));
  const access: RuleAccess = {
    ...base,
    entries: ruleEntries.length,
    drift: ruleEntries.filter(isDrift).length,
    managed: lists.length > 0,
    expiring: ruleEntries.filter((e) => e.expiry === "expiring").length,
    expired: ruleEntries.filter((e) => e.expiry === "expired").length,
    declaredBy: index.paths,
    violations: violations.map((v) => policyReason([v])),
    problem,
  };
  return { ruleEntries, access };
}

/**
 * The state of a live entry: unknown without the declarations; in a rule no RuleUserList declares,
 * `not-managed` (the app does not manage that rule, so nothing in it is drift); else declared or not.
 */
function liveEntryState(withDeclarations: boolean, ruleManaged: boolean, declared: boolean): DeclarationState {
  if (!withDeclarations) return "unknown";
  if (!ruleManaged) return "not-managed";
  return declared ? "declared" : "not-declared";
}

/** Entries in rules the app declares nothing for (see {@link DeclarationState}). */
export function isNotManaged(entry: Pick<AccessEntry, "state">): boolean {
  return entry.state === "not-managed";
}

/** Whether an entry is drift: live but declared by no construct, or declared but not live. */
export function isDrift(entry: Pick<AccessEntry, "state">): boolean {
  return entry.state === "not-declared" || entry.state === "not-live";
}
