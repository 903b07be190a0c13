/** Tiny builders for engine fixtures: declarations, observed lists and rule facts. */
import type { UsersToAlertOn } from "../../src/api/rules/schemas";
import type { DesiredList, ListMode } from "../../src/core/engine/desired";
import type { ObservedEntry, PlannedUser } from "../../src/core/engine/plan-schema";
import type { ObservedList, RuleFacts, RuleObservation } from "../../src/core/engine/observation";

export function user(userId: string, ...aliases: string[]): PlannedUser {
  return { userId, aliases };
}

export function entry(userId: string | null, ...aliases: string[]): ObservedEntry {
  return { userId, aliases };
}

export function declared(
  users: PlannedUser[],
  opts: { ruleId?: string; ruleName?: string; mode?: ListMode; path?: string; allowMassRemoval?: boolean } = {},
): DesiredList {
  const ruleId = opts.ruleId ?? (opts.ruleName === undefined ? "rule-1" : null);
  return {
    constructPath: opts.path ?? `stack/${ruleId ?? opts.ruleName ?? "list"}`,
    stack: "stack",
    ruleId,
    ruleName: opts.ruleName ?? null,
    mode: opts.mode ?? "authoritative",
    allowMassRemoval: opts.allowMassRemoval ?? false,
    users,
  };
}

export function facts(overrides: Partial<RuleFacts> = {}): RuleFacts {
  return { observerRuleId: "rule-1", name: "Rule one", isSystem: false, ruleSource: "Alerting", ...overrides };
}

export function listOf(entries: ObservedEntry[], usersToAlertOn: UsersToAlertOn = "SPECIFIED_USERS"): ObservedList {
  return { usersToAlertOn, entries };
}

export function found(list: ObservedList | null, rule: Partial<RuleFacts> = {}): RuleObservation {
  return { kind: "found", rule: facts(rule), list };
}

/** A deterministic PRNG for property tests (the simulator's mulberry32). */
export { mulberry32 as prng } from "../../src/simulator/prng";
