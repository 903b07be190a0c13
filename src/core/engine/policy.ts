/**
 * Evaluation of RuleUserListPolicy checks (docs/contract.md §9.1): a pure function of one rule's plan,
 * its declaration (with the policies that apply to it), what was observed and the day of `now`.
 * A rule that fails any check becomes `action: "error"`, `errorKind: "policy"`, sends nothing,
 * and its reason names each policy, check and user at fault.
 */
import { aliasDomain } from "./canonical";
import type { DesiredList } from "./desired";
import { NO_CHANGES, NO_MASS_REMOVAL } from "./diff";
import { addDays } from "./expiry";
import { suggest } from "./suggest";
import type { ObservedList } from "./observation";
import type { PolicyViolation, RulePlan } from "./plan-schema";
import type { ListPolicy } from "./policy-schema";

/** What a policy looks at besides the rule's plan. */
export interface PolicyContext {
  /** The declaration, users with their `expiresAt`. */
  readonly declared: DesiredList;
  /** The observed list; null when it was not read. */
  readonly observed: ObservedList | null;
  /** The day (`yyyy-MM-dd`, UTC) of the plan's `now`. */
  readonly today: string;
}

/** Most user IDs a reason names per check; the violation's `users` carries them all. */
const NAMED = 10;


/** "; exmaple.com looks like example.com (a typo?)" for refused domains a small edit away from an allowed one. */
function lookAlikes(aliases: readonly string[], allowed: ReadonlySet<string>): string {
  const pairs = new Map<string, string>();
  for (const alias of aliases) {
    const domain = aliasDomain(alias);
    const near = domain === null ? undefined : suggest(domain, allowed);
    if (domain !== null && near !== undefined) pairs.set(domain, near);
  }
  return [...pairs].map(([domain, near]) => `; ${domain} looks like ${near} (a typo?)`).join("");
}

function names(items: readonly string[]): string {
  return items.length <= NAMED ? items.join(", ") : `${items.slice(0, NAMED).join(", ")} and ${items.length - NAMED} more`;
}

/** Users in the list after apply: the declaration (authoritative), or what is there plus what is added (additive). */
function usersAfter(rule: RulePlan, observed: ObservedList | null): number {
  if (rule.mode === "authoritative" || observed === null) return rule.desired.length;
  const ids = new Set<string>();
  let withoutId = 0;
  for (const entry of observed.entries) {
    if (entry.userId === null) withoutId += 1;
    else ids.add(entry.userId);
  }
  return ids.size + withoutId + rule.changes.addUsers.length;
}

function check(policy: ListPolicy, rule: RulePlan, context: PolicyContext): PolicyViolation[] {
  const out: PolicyViolation[] = [];
  const violation = (check: PolicyViolation["check"], users: readonly string[], message: string) =>
    out.push({ policy: policy.path, check, users: [...users], message });
  const active = rule.desired;

  if (policy.maxUsers !== undefined) {
    const count = usersAfter(rule, context.observed);
    if (count > policy.maxUsers) {
      const added = rule.changes.addUsers.map((u) => u.userId);
      violation(
        "maxUsers",
        added,
        `maxUsers ${policy.maxUsers}: the list would have ${count} users` + (added.length > 0 ? ` (adds ${names(added)})` : ""),
      );
    }
  }

  if (policy.allowedAliasDomains !== undefined) {
    const allowed = new Set(policy.allowedAliasDomains.map((d) => d.trim().toLowerCase()));
    const bad = active.flatMap((user) => {
      const aliases = user.aliases.filter((alias) => {
        const domain = aliasDomain(alias);
        return domain === null || !allowed.has(domain);
      });
      return aliases.length > 0 ? [{ userId: user.userId, aliases }] : [];
    });
    if (bad.length > 0) {
      violation(
        "allowedAliasDomains",
        bad.map((b) => b.userId),
        `allowedAliasDomains [${[...allowed].join(", ")}]: ${names(bad.map((b) => `${b.userId} (${b.aliases.join(", ")})`))}` +
          lookAlikes(bad.flatMap((b) => b.aliases), allowed),
      );
    }
  }

  if (policy.exclusionListsRequireExpiry !== undefined && rule.listType === "ALL_USERS_NOT_SPECIFIED") {
    const { maxDays } = policy.exclusionListsRequireExpiry;
    const latest = addDays(context.today, maxDays);
    const activeIds = new Set(active.map((u) => u.userId));
    const bad = context.declared.users.flatMap((user) => {
      if (!activeIds.has(user.userId)) return [];
      if (user.expiresAt === undefined) return [{ userId: user.userId, why: `${user.userId} (no expiresAt)` }];
      return user.expiresAt > latest ? [{ userId: user.userId, why: `${user.userId} (expires ${user.expiresAt}, after ${latest})` }] : [];
    });
    if (bad.length > 0) {
      violation(
        "exclusionListsRequireExpiry",
        bad.map((b) => b.userId),
        `exclusionListsRequireExpiry (maxDays ${maxDays}): every user of an exclusion list needs an expiresAt on or before ${latest}: ${names(bad.map((b) => b.why))}`,
      );
    }
  }

  if (policy.forbidRemovalsFromInclusionLists === true && rule.listType === "SPECIFIED_USERS") {
    const c = rule.changes;
    const removed = [
      ...c.removeUsers.map((u) => (u.reason === "expired" ? `${u.userId} (expired on ${u.expiresAt ?? "?"})` : u.userId)),
      ...c.removeAliases.map((u) => `${u.userId} (aliases ${u.aliases.join(", ")})`),
      ...c.removeEntriesWithoutId.map((e) => `an entry without user ID (${e.aliases.join(", ")})`),
    ];
    if (removed.length > 0 || c.removeAll) {
      violation(
        "forbidRemovalsFromInclusionLists",
        [...c.removeUsers.map((u) => u.userId), ...c.removeAliases.map((u) => u.userId)],
        `forbidRemovalsFromInclusionLists: this inclusion list would lose ${removed.length > 0 ? names(removed) : "every entry"}`,
      );
    }
  }
  return out;
}

/** The violations of every policy that applies to the rule; none for rules not resolved, skipped or in error. */
export function policyViolations(rule: RulePlan, context: PolicyContext): PolicyViolation[] {
  const policies = context.declared.policies ?? [];
  if (policies.length === 0 || (rule.action !== "update" && rule.action !== "no-op")) return [];
  return policies.flatMap((policy) => check(policy, rule, context));
}

/** The reason of a rule in policy error: each violation, naming its policy. */
export function policyReason(violations: readonly PolicyViolation[]): string {
  return violations.map((v) => `policy ${v.policy}: ${v.message}`).join("; ");
}

/** The rule with its violations: unchanged when there are none, else a policy error that sends nothing. */
export function withPolicies(rule: RulePlan, context: PolicyContext): RulePlan {
  const violations = policyViolations(rule, context);
  if (violations.length === 0) return { ...rule, violations: [] };
  return {
    ...rule,
    action: "error",
    errorKind: "policy",
    reason: policyReason(violations),
    changes: NO_CHANGES,
    calls: [],
    massRemoval: NO_MASS_REMOVAL,
    violations,
  };
}
