/**
 * Builds the whole plan from declarations and observations: pure (the clock and the connection
 * are passed in), so it can be tested without a service and gives the same plan for the same input.
 */
import { NO_CHANGES, NO_MASS_REMOVAL, diffRule } from "./diff";
import type { RuleFieldNames } from "./diff";
import type { Plan, PlanSummary, RemovedUser, RulePlan } from "./plan-schema";
import { canonicalUsers } from "./canonical";
import { countChanges } from "./change-kinds";
import { dayOf, isInstant, splitExpired } from "./expiry";
import type { ExpiringUser } from "./expiry";
import { withPolicies } from "./policy";
import { DEFAULT_BATCH_SIZE, PLAN_FORMAT_VERSION } from "./plan-schema";
import type { DesiredList } from "./desired";
import type { RuleObservation } from "./observation";
import { declaredAgain } from "./declared-rules-file";

export interface PlanInput {
  /** One observation per declaration, in the same order. */
  readonly declarations: readonly DesiredList[];
  readonly observations: readonly RuleObservation[];
  readonly connection: { readonly baseUrl: string; readonly tenantId: string };
  readonly createdAt: string;
  /**
   * The clock for expiries and policies, `yyyy-MM-ddTHH:mm:ssZ` (the CLI's `--now`).
   * @default - createdAt, to the second
   */
  readonly now?: string;
  /** The version of alert-rule-users that made the plan (recorded in it). */
  readonly toolVersion: string;
  readonly batchSize?: number;
  /** How the declarations name their rule, in messages. @default - the RuleUserList's props (CONSTRUCT_RULE_FIELDS) */
  readonly ruleFields?: RuleFieldNames;
}

export function buildPlan(input: PlanInput): Plan {
  if (input.declarations.length !== input.observations.length) {
    throw new Error("buildPlan: one observation is needed per declaration");
  }
  const batchSize = input.batchSize ?? DEFAULT_BATCH_SIZE;
  const now = input.now ?? `${input.createdAt.slice(0, 19)}Z`;
  if (!isInstant(now)) throw new Error(`buildPlan: now must be yyyy-MM-ddTHH:mm:ssZ, got ${JSON.stringify(now)}`);
  const today = dayOf(now);
  const splits = input.declarations.map((d) => splitExpired(canonicalUsers(d.users), today));
  const diffed = input.declarations.map((d, i) => {
    const split = splits[i]!;
    const rule = diffRule(split.active === d.users ? d : { ...d, users: split.active }, input.observations[i]!, { batchSize, ...(input.ruleFields === undefined ? {} : { ruleFields: input.ruleFields }) });
    return markExpired(rule, split.expired);
  });
  const rules = markDuplicates(diffed, input.declarations).map((rule, i) => {
    const observation = input.observations[i]!;
    return withPolicies(rule, { declared: input.declarations[i]!, observed: observation.kind === "found" ? observation.list : null, today });
  });
  const expiringSoon = rules.flatMap((rule, i) =>
    splits[i]!.expiringSoon.map((user) => ({
      ruleId: rule.ruleId,
      ruleName: rule.ruleName,
      constructPath: rule.constructPath,
      userId: user.userId,
      aliases: [...user.aliases],
      expiresAt: user.expiresAt,
    })),
  );
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    tool: { name: "alert-rule-users", version: input.toolVersion },
    createdAt: input.createdAt,
    now,
    connection: { baseUrl: input.connection.baseUrl, tenantId: input.connection.tenantId },
    options: { batchSize },
    rules,
    summary: { ...summarize(rules), expiringSoon },
  };
}

/**
 * Records the expired users on the rule and marks, among the users it removes, those removed because
 * they expired (`reason: "expired"`, with the date).
 */
function markExpired(rule: RulePlan, expired: readonly ExpiringUser[]): RulePlan {
  const entries = expired.map((u) => ({ userId: u.userId, aliases: [...u.aliases], expiresAt: u.expiresAt }));
  if (expired.length === 0) return { ...rule, expired: entries };
  const byId = new Map(expired.map((u) => [u.userId, u.expiresAt]));
  const removeUsers = rule.changes.removeUsers.map((user): RemovedUser => {
    const expiresAt = byId.get(user.userId);
    return expiresAt === undefined ? user : { ...user, reason: "expired", expiresAt };
  });
  return { ...rule, expired: entries, changes: { ...rule.changes, removeUsers } };
}

/**
 * The same rule declared twice (by ID, by name, or one of each) is an error on every declaration of
 * it, also when the other declaration is one of the app's that this run only knows by reference
 * (`declaredElsewhere`: the Terraform path applies one list at a time).
 */
function markDuplicates(rules: readonly RulePlan[], declarations: readonly DesiredList[]): RulePlan[] {
  const byRule = new Map<string, RulePlan[]>();
  for (const rule of rules) {
    const key = rule.ruleId ?? (rule.ruleName !== null ? `name:${rule.ruleName}` : null);
    if (key === null) continue;
    byRule.set(key, [...(byRule.get(key) ?? []), rule]);
  }
  return rules.map((rule, i) => {
    const key = rule.ruleId ?? (rule.ruleName !== null ? `name:${rule.ruleName}` : null);
    const here = key === null ? [] : (byRule.get(key) ?? []);
    const again = declaredAgain(rule, declarations[i]?.declaredElsewhere ?? []).filter((r) => !here.some((h) => h.constructPath === r.constructPath));
    const same = [...(here.length > 0 ? here : [rule]), ...again];
    if (same.length < 2) return rule;
    const where = same.map((r) => r.constructPath).join(", ");
    const label = rule.ruleId !== null ? `rule '${rule.ruleId}'` : `rule '${rule.ruleName ?? ""}'`;
    return {
      ...rule,
      action: "error",
      errorKind: "duplicate-rule",
      reason: `${label} is declared by ${same.length} RuleUserList constructs (${where}): keep exactly one declaration per rule.`,
      changes: NO_CHANGES,
      calls: [],
      massRemoval: NO_MASS_REMOVAL,
      warnings: [],
    };
  });
}

export function summarize(rules: readonly RulePlan[]): PlanSummary {
  let usersToAdd = 0;
  let aliasesToAdd = 0;
  let aliasesToRemove = 0;
  let usersToRemove = 0;
  let rebuilds = 0;
  let removeAll = 0;
  let calls = 0;
  let massRemovals = 0;
  for (const rule of rules) {
    if (rule.action !== "update") continue;
    const c = rule.changes;
    // the renderers' counting rule (src/core/engine/change-kinds.ts); the alias fields count every alias that enters or leaves the list
    const count = countChanges(c);
    usersToAdd += count.usersToAdd;
    aliasesToAdd += count.allAliasesToAdd;
    aliasesToRemove += count.allAliasesToRemove;
    usersToRemove += count.usersToRemove;
    if (c.rebuild) rebuilds += 1;
    else if (c.removeAll) removeAll += 1;
    calls += rule.calls.length;
    if (rule.massRemoval.triggered) massRemovals += 1;
  }
  return {
    rules: rules.length,
    toUpdate: rules.filter((r) => r.action === "update").length,
    noOp: rules.filter((r) => r.action === "no-op").length,
    skipped: rules.filter((r) => r.action === "skip").length,
    errors: rules.filter((r) => r.action === "error").length,
    usersToAdd,
    aliasesToAdd,
    aliasesToRemove,
    usersToRemove,
    rebuilds,
    removeAll,
    calls,
    massRemovals,
  };
}

export function hasChanges(plan: Plan): boolean {
  return plan.rules.some((r) => r.action === "update");
}
