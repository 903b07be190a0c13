/**
 * observe: reads what the service has for every declared list. Rule metadata for all declarations
 * in one OR-ed search (one group per rule, every page read), then one query-users per editable rule,
 * with bounded parallelism. A failure reading one rule's list is recorded for that rule only.
 * Also the reads of `import`: every rule of the tenant (or some by ID) and their lists.
 */
import type { RuleListClient } from "../api";
import { filter, group } from "../api";
import type { RuleMetadata, UsersInRuleResponse } from "../api/rules/schemas";
import { isMissingUserId } from "../api/rules/schemas";
import { AlertRuleUsersError } from "../errors";
import { mapPool } from "./pool";
import type { DesiredList } from "../core/engine/desired";
import { isSystemRule } from "../core/engine/rule-facts";
import type { ListRead, ObservedList, RuleFacts, RuleObservation } from "../core/engine/observation";

export interface ObserveOptions {
  /** Most query-users calls in flight. @default 4 */
  readonly parallelism?: number;
  /** Page size of the rule-metadata search. @default 100 */
  readonly pageSize?: number;
  /** Called after each rule's list is read (for progress output). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Resolves the declarations' rules instead of the one search of this call (each found without
   * its list, not found, or ambiguous, in order): lookups shared with other calls in flight.
   * @default - one OR-ed search of every declaration
   */
  readonly lookup?: (references: readonly RuleReference[]) => Promise<RuleObservation[]>;
}

export async function observe(
  client: RuleListClient,
  declarations: readonly DesiredList[],
  options: ObserveOptions = {},
): Promise<RuleObservation[]> {
  const { metadata, references } = await resolveDeclared(client, declarations, options);
  const resolved = await withKnownNames(client, metadata, references, options.pageSize ?? 100);
  const toRead = resolved.filter((o): o is FoundWithoutList => o.kind === "found" && !isSystemRule(o.rule));
  let done = 0;
  const lists = await mapPool(toRead, options.parallelism ?? 4, async (o) => {
    const result = await readList(client, o.rule);
    options.onProgress?.(++done, toRead.length);
    return [o.rule.observerRuleId, result] as const;
  });
  const byRule = new Map(lists);
  return resolved.map((o): RuleObservation => {
    if (o.kind !== "found" || isSystemRule(o.rule)) return o;
    const read = byRule.get(o.rule.observerRuleId);
    if (read === undefined) return o;
    return read.ok ? { kind: "found", rule: o.rule, list: read.list } : { kind: "failed", rule: o.rule, message: read.message };
  });
}

type FoundWithoutList = { kind: "found"; rule: RuleFacts; list: null };

/** The declarations' rules resolved: by the given lookup, or by one search (whose answer also names rules for suggestions). */
async function resolveDeclared(
  client: RuleListClient,
  declarations: readonly DesiredList[],
  options: ObserveOptions,
): Promise<{ metadata: readonly RuleMetadata[]; references: readonly (RuleObservation | FoundWithoutList)[] }> {
  if (options.lookup !== undefined) return { metadata: [], references: await options.lookup(declarations) };
  const metadata = await searchDeclaredRules(client, declarations, options.pageSize ?? 100);
  return { metadata, references: declarations.map((d) => resolve(d, metadata)) };
}

/** A rule as a declaration names it: by ID or by exact name. */
export type RuleReference = Pick<DesiredList, "ruleId" | "ruleName">;

/**
 * Resolves rule references with one metadata search (one OR-ed group per distinct reference, every
 * page read): each is found (its list not read yet), not found, or ambiguous, in the given order.
 */
export async function lookupRules(
  client: RuleListClient,
  references: readonly RuleReference[],
  pageSize: number,
  /** Sees the search's answer whole (facts the observations do not carry, e.g. isEnabled). */
  onMetadata?: (metadata: readonly RuleMetadata[]) => void,
): Promise<RuleObservation[]> {
  const metadata = await searchDeclaredRules(client, references, pageSize);
  onMetadata?.(metadata);
  return references.map((r) => resolve(r, metadata));
}

function ruleGroup(d: RuleReference) {
  return d.ruleId !== null ? group([filter("ObserverRuleId", "Is", d.ruleId)]) : group([filter("Name", "Is", d.ruleName ?? "")]);
}

async function searchDeclaredRules(
  client: RuleListClient,
  declarations: readonly RuleReference[],
  pageSize: number,
): Promise<RuleMetadata[]> {
  if (declarations.length === 0) return [];
  // One group per distinct reference: a rule declared twice is still searched once.
  const seen = new Set<string>();
  const groups = [];
  for (const d of declarations) {
    const key = d.ruleId !== null ? `id:${d.ruleId}` : `name:${d.ruleName ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push(ruleGroup(d));
  }
  return client.searchRuleMetadata(groups, { groupClause: "OR", pageSize });
}

function facts(m: RuleMetadata): RuleFacts {
  return { observerRuleId: m.observerRuleId, name: m.name, isSystem: m.isSystem, ruleSource: m.ruleSource };
}

function resolve(d: RuleReference, metadata: readonly RuleMetadata[]): RuleObservation | FoundWithoutList {
  const matches =
    d.ruleId !== null ? metadata.filter((m) => m.observerRuleId === d.ruleId) : metadata.filter((m) => m.name === d.ruleName);
  const distinct = [...new Map(matches.map((m) => [m.observerRuleId, m])).values()];
  if (distinct.length === 0) return { kind: "not-found" };
  if (distinct.length > 1) return { kind: "ambiguous", ruleIds: distinct.map((m) => m.observerRuleId).sort() };
  return { kind: "found", rule: facts(distinct[0]!), list: null };
}

/**
 * "Did you mean" for rules not found (src/core/engine/diff.ts): the names a typo may have meant. Free when
 * the service matched the name without case (the search's answer holds the rule); otherwise one
 * bounded request, sent only when some declaration was not found: the first page of the tenant's
 * rules (`pageSize` of them). It may fail or miss a rule beyond that page: the plan is an error
 * for that rule either way, only the suggestion is lost.
 */
async function withKnownNames<T extends RuleObservation | FoundWithoutList>(
  client: RuleListClient,
  metadata: readonly RuleMetadata[],
  resolved: readonly T[],
  pageSize: number,
): Promise<readonly (T | RuleObservation)[]> {
  if (!resolved.some((o) => o.kind === "not-found")) return resolved;
  const knownNames = await knownRuleNames(client, pageSize, metadata);
  return resolved.map((o) => (o.kind === "not-found" ? { kind: "not-found", knownNames } : o));
}

/**
 * The names a typo may have meant: those of `metadata` (the search's answer) and of the first page
 * of the tenant's rules (one bounded request; on failure, only the suggestion is lost).
 */
export async function knownRuleNames(client: RuleListClient, pageSize: number, metadata: readonly RuleMetadata[] = []): Promise<string[]> {
  const names = new Set(metadata.map((m) => m.name));
  try {
    const page = await client.queryRuleMetadataPage([group([filter("TenantId", "Is", client.tenantId)])], { groupClause: "OR", pageSize, pageNumber: 0 });
    for (const m of page.ruleMetadata) names.add(m.name);
  } catch (err) {
    if (!(err instanceof AlertRuleUsersError)) throw err;
  }
  return [...names];
}

/** The observed list in the engine's terms: entries without a usable user ID get `userId: null`. */
export function toObservedList(response: UsersInRuleResponse): ObservedList {
  return {
    usersToAlertOn: response.usersToAlertOn,
    entries: response.users.map((bag) => ({
      userId: isMissingUserId(bag.userIdFromAuthority) ? null : bag.userIdFromAuthority,
      aliases: bag.userAliasList,
    })),
  };
}

/** Reads one rule's list; an error of the tool's own kinds (HTTP, bad response) is a value, anything else throws. */
export async function readList(client: RuleListClient, rule: RuleFacts): Promise<ListRead> {
  try {
    return { ok: true, list: toObservedList(await client.queryUsers(rule.observerRuleId)) };
  } catch (err) {
    if (err instanceof AlertRuleUsersError) return { ok: false, message: err.message };
    throw err;
  }
}

/** One search: every rule of the tenant, or one OR-ed group per requested ID; every page read; each rule once. */
export async function searchRules(
  client: RuleListClient,
  ruleIds: readonly string[] | null,
  tenantId: string,
  pageSize: number,
): Promise<RuleMetadata[]> {
  const groups = ruleIds === null ? [group([filter("TenantId", "Is", tenantId)])] : ruleIds.map((id) => group([filter("ObserverRuleId", "Is", id)]));
  const found = await client.searchRuleMetadata(groups, { groupClause: "OR", pageSize });
  return [...new Map(found.map((m) => [m.observerRuleId, m])).values()];
}

/** A rule with its list (null for system rules, which are not read) or why the list could not be read. */
export interface RuleWithList {
  readonly rule: RuleFacts & { readonly isEnabled: boolean };
  readonly list: ObservedList | null;
  readonly failure: string | null;
}

/** One query-users per rule that has an editable list; system rules are not read. */
export async function readRuleLists(
  client: RuleListClient,
  rules: readonly RuleMetadata[],
  options: Pick<ObserveOptions, "parallelism" | "onProgress"> = {},
): Promise<RuleWithList[]> {
  const toRead = rules.filter((m) => !isSystemRule(m)).length;
  let done = 0;
  return mapPool(rules, options.parallelism ?? 4, async (m): Promise<RuleWithList> => {
    const rule = { observerRuleId: m.observerRuleId, name: m.name, isSystem: m.isSystem, ruleSource: m.ruleSource, isEnabled: m.isEnabled };
    if (isSystemRule(rule)) return { rule, list: null, failure: null };
    const result = await readList(client, rule);
    options.onProgress?.(++done, toRead);
    return result.ok ? { rule, list: result.list, failure: null } : { rule, list: null, failure: result.message };
  });
}
