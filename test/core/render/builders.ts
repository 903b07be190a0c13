/** Tiny builders of plans for the renderer tests: a declaration, what was observed, and the plan. */
import type { ApplyResult, CallRecord, RuleResult } from "../../../src/core/engine/apply-results";
import type { ObservedEntry, Plan, PlannedUser } from "../../../src/core/engine/plan-schema";
import type { DesiredList } from "../../../src/core/engine/desired";
import type { ObservedList, RuleFacts, RuleObservation } from "../../../src/core/engine/observation";
import { buildPlan } from "../../../src/core/engine/build-plan";
import { TOOL_VERSION } from "../../../src/io/version";

export const TENANT_ID = "tenant-7f3a9c2e-secret-looking";
export const BASE_URL = "https://alerts.internal.example.net/api";

export const user = (userId: string, ...aliases: string[]): PlannedUser => ({ userId, aliases });
export const entry = (userId: string | null, ...aliases: string[]): ObservedEntry => ({ userId, aliases });

export function declared(path: string, ruleId: string, users: PlannedUser[], extra: Partial<DesiredList> = {}): DesiredList {
  return { constructPath: `stack/${path}`, stack: "stack", ruleId, ruleName: null, mode: "authoritative", allowMassRemoval: false, users, ...extra };
}

export function facts(ruleId: string, name: string, extra: Partial<RuleFacts> = {}): RuleFacts {
  return { observerRuleId: ruleId, name, isSystem: false, ruleSource: "Alerting", ...extra };
}

export function inclusion(...entries: ObservedEntry[]): ObservedList {
  return { usersToAlertOn: "SPECIFIED_USERS", entries };
}

export function exclusion(...entries: ObservedEntry[]): ObservedList {
  return { usersToAlertOn: "ALL_USERS_NOT_SPECIFIED", entries };
}

export function found(ruleId: string, name: string, list: ObservedList | null, extra: Partial<RuleFacts> = {}): RuleObservation {
  return { kind: "found", rule: facts(ruleId, name, extra), list };
}

/** One declared rule with what was observed for it. */
export interface Case {
  readonly declaration: DesiredList;
  readonly observation: RuleObservation;
}

export function planOf(...cases: Case[]): Plan {
  return buildPlan({ toolVersion: TOOL_VERSION,
    declarations: cases.map((c) => c.declaration),
    observations: cases.map((c) => c.observation),
    connection: { baseUrl: BASE_URL, tenantId: TENANT_ID },
    createdAt: "2026-03-01T12:00:00.000Z",
  });
}

/** A rule whose declaration and list differ in every way an update can: new user, alias gained and lost, user removed. */
export function exfiltrationCase(): Case {
  return {
    declaration: declared("exfiltration-watch", "c3e0a1b2", [
      user("9101", "dave@example.com"),
      user("9102", "alice@example.com", "alice@corp.example"),
      user("9103", "bob@example.com", "bob2@example.com"),
    ]),
    observation: found(
      "c3e0a1b2",
      "Endpoint exfiltration",
      inclusion(entry("9101", "dave@example.com"), entry("9103", "bob@example.com", "bob@old.example.com"), entry("9104", "carol@example.com")),
    ),
  };
}

/** A rule with an entry without a user ID: rebuilt. */
export function rebuildCase(): Case {
  return {
    declaration: declared("insider-watch", "d4f5", [user("9201", "erin@example.com")]),
    observation: found(
      "d4f5",
      "Insider watch",
      exclusion(entry("9201", "erin@example.com"), entry(null, "x@example.com")),
    ),
  };
}

export function noOpCase(n: number): Case {
  return {
    declaration: declared(`same-${n}`, `same-${n}`, [user("1", "same@example.com")]),
    observation: found(`same-${n}`, `Same ${n}`, inclusion(entry("1", "same@example.com"))),
  };
}

export function systemCase(): Case {
  return {
    declaration: declared("departing", "sys-1", [user("1", "a@example.com")]),
    observation: found("sys-1", "Departing employee exfiltration", null, { ruleSource: "Departing Employee" }),
  };
}

export function unknownCase(): Case {
  return { declaration: declared("typo", "no-such-rule", [user("1", "a@example.com")]), observation: { kind: "not-found" } };
}

/** A list of 10 entries of which the declaration keeps 2: the mass-removal guard trips. */
export function massRemovalCase(): Case {
  const entries = Array.from({ length: 10 }, (_, i) => entry(`${5000 + i}`, `u${i}@example.com`));
  return {
    declaration: declared("big", "big-1", [user("5000", "u0@example.com"), user("5001", "u1@example.com")]),
    observation: found("big-1", "Big list", inclusion(...entries)),
  };
}

export function call(operation: CallRecord["operation"], users: number, status: CallRecord["status"] = "ok", error?: string): CallRecord {
  return error === undefined ? { operation, users, status } : { operation, users, status, error };
}

export function ruleResult(over: Partial<RuleResult> & Pick<RuleResult, "outcome">): RuleResult {
  return {
    ruleId: "c3e0a1b2",
    ruleName: "Endpoint exfiltration",
    constructPath: "stack/exfiltration-watch",
    action: "update",
    calls: [],
    verified: null,
    message: null,
    ...over,
  };
}

export function applyResult(...rules: RuleResult[]): ApplyResult {
  const count = (o: RuleResult["outcome"]) => rules.filter((r) => r.outcome === o).length;
  const summary = { applied: count("applied"), unchanged: count("unchanged"), skipped: count("skipped"), failed: count("failed"), interrupted: count("interrupted") };
  return { ok: summary.failed === 0 && summary.interrupted === 0, rules, summary };
}

export const ANSI = /\u001b\[[0-9;]*m/;
