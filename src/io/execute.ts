/**
 * apply: design.md §5. Refuses the whole plan before sending anything when a declaration is in
 * error, when the mass-removal guard trips, or (saved plans) when a list changed since the plan;
 * then sends each changed rule's calls in order, reads every changed rule back and verifies it.
 * One rule failing never stops the others; every rule's outcome is reported.
 */
import type { RuleListClient } from "../api";
import { AlertRuleUsersError } from "../errors";
import { mapPool } from "./pool";
import { diffRule } from "../core/diff";
import { MassRemovalError, StalePlanError, UnresolvedRulesError } from "../core/errors";
import { fingerprintList } from "../core/fingerprint";
import type { Plan, PlannedCall, RulePlan } from "../core/plan-schema";
import type { ObservedList } from "../core/observation";
import { readList } from "./observe";
import { blockingErrors } from "../core/build-plan";

export interface ApplyOptions {
  /** Most rules applied at once. @default 4 */
  readonly parallelism?: number;
  /** --allow-mass-removal: lets every rule pass the mass-removal guard. */
  readonly allowMassRemoval?: boolean;
  /** Honour each rule's own allowMassRemoval (the construct prop; the Terraform path). */
  readonly honourRuleMassRemovalFlag?: boolean;
  /** A saved plan: re-read every rule to change and refuse the plan if any list changed. */
  readonly checkStale?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

export type RuleOutcome = "applied" | "unchanged" | "skipped" | "failed";

export interface CallRecord {
  readonly operation: PlannedCall["operation"];
  /** Users (or user IDs) the call carried; 0 for remove-all-users. */
  readonly users: number;
  readonly status: "ok" | "failed";
  readonly error?: string;
}

export interface RuleResult {
  readonly ruleId: string | null;
  readonly ruleName: string | null;
  readonly constructPath: string;
  readonly action: RulePlan["action"];
  readonly outcome: RuleOutcome;
  readonly calls: readonly CallRecord[];
  /** true: read back and matched; false: read back and did not match; null: nothing to verify. */
  readonly verified: boolean | null;
  readonly message: string | null;
}

export interface ApplyResult {
  readonly ok: boolean;
  readonly rules: readonly RuleResult[];
  readonly summary: { readonly applied: number; readonly unchanged: number; readonly skipped: number; readonly failed: number };
}

/** Checks that need no request: declarations in error and the mass-removal guard. Throws when refused. */
export function checkPlanIsApplicable(plan: Plan, options: ApplyOptions): void {
  const blocking = blockingErrors(plan);
  if (blocking.length > 0) {
    throw new UnresolvedRulesError(
      "nothing was applied: the declaration has errors that must be fixed first:\n" +
        blocking.map((r) => `  ${r.constructPath}: ${r.reason ?? r.errorKind ?? "error"}`).join("\n"),
    );
  }
  const guarded = plan.rules.filter(
    (r) =>
      r.action === "update" &&
      r.massRemoval.triggered &&
      !(options.allowMassRemoval === true || (options.honourRuleMassRemovalFlag === true && r.allowMassRemoval)),
  );
  if (guarded.length > 0) {
    throw new MassRemovalError(
      "nothing was applied: the mass-removal guard refused the plan:\n" +
        guarded
          .map(
            (r) =>
              `  ${r.constructPath} (rule ${r.ruleId ?? "?"}): ${r.massRemoval.lost} of ${r.massRemoval.entries} entries would be removed`,
          )
          .join("\n") +
        "\nIf this is intended, apply again with --allow-mass-removal (on the Terraform path: set allowMassRemoval: true on the RuleUserList).",
    );
  }
}

/** Re-reads every rule the plan would change and refuses the plan when any list differs from what was planned. */
export async function checkNotStale(plan: Plan, client: RuleListClient, parallelism: number): Promise<void> {
  const changing = plan.rules.filter((r) => r.action === "update");
  const stale = await mapPool(changing, parallelism, async (rule) => {
    const read = await readList(client, facts(rule));
    if (!read.ok) return `${rule.constructPath}: could not be read again (${read.message})`;
    return fingerprintList(read.list) === rule.fingerprint ? null : `${rule.constructPath} (rule ${rule.ruleId ?? "?"})`;
  });
  const changed = stale.filter((s): s is string => s !== null);
  if (changed.length > 0) {
    throw new StalePlanError(
      "nothing was applied: the saved plan is stale, these lists changed since it was made:\n" +
        changed.map((s) => `  ${s}`).join("\n") +
        "\nRun 'alert-rule-users plan --out FILE' again, review it, and apply the new plan.",
      changed,
    );
  }
}

export async function applyPlan(plan: Plan, client: RuleListClient, options: ApplyOptions = {}): Promise<ApplyResult> {
  const parallelism = options.parallelism ?? 4;
  checkPlanIsApplicable(plan, options);
  if (options.checkStale === true) await checkNotStale(plan, client, parallelism);

  const changing = plan.rules.filter((r) => r.action === "update");
  let done = 0;
  const applied = await mapPool(changing, parallelism, async (rule) => {
    const result = await applyRule(rule, client);
    options.onProgress?.(++done, changing.length);
    return result;
  });
  const byPath = new Map(applied.map((r) => [r.constructPath, r]));
  const rules = plan.rules.map((rule): RuleResult => byPath.get(rule.constructPath) ?? notApplied(rule));
  const count = (o: RuleOutcome) => rules.filter((r) => r.outcome === o).length;
  const summary = { applied: count("applied"), unchanged: count("unchanged"), skipped: count("skipped"), failed: count("failed") };
  return { ok: summary.failed === 0, rules, summary };
}

function notApplied(rule: RulePlan): RuleResult {
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action, calls: [], verified: null };
  if (rule.action === "skip") return { ...base, outcome: "skipped", message: rule.reason };
  if (rule.action === "error") return { ...base, outcome: "failed", message: rule.reason };
  return { ...base, outcome: "unchanged", message: null };
}

function facts(rule: RulePlan) {
  return { observerRuleId: rule.ruleId ?? "", name: rule.ruleName ?? "", isSystem: false, ruleSource: "Alerting" };
}

/** Calls still needed to bring `list` to the rule's desired state; none means it converged. */
export function remainingCalls(rule: RulePlan, list: ObservedList): number {
  const desired = {
    constructPath: rule.constructPath,
    stack: rule.stack,
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    mode: rule.mode,
    allowMassRemoval: rule.allowMassRemoval,
    users: rule.desired,
  };
  return diffRule(desired, { kind: "found", rule: facts(rule), list }, { batchSize: Number.MAX_SAFE_INTEGER }).calls.length;
}

async function send(client: RuleListClient, ruleId: string, call: PlannedCall): Promise<void> {
  switch (call.operation) {
    case "add-users":
      return client.addUsers(ruleId, call.userList.map(toEntry));
    case "remove-user-aliases":
      return client.removeUserAliases(ruleId, call.userList.map(toEntry));
    case "remove-users":
      return client.removeUsers(ruleId, [...call.userIdList]);
    case "remove-all-users":
      return client.removeAllUsers(ruleId);
  }
}

function toEntry(u: { userId: string; aliases: readonly string[] }) {
  return { userIdFromAuthority: u.userId, userAliasList: [...u.aliases] };
}

function callSize(call: PlannedCall): number {
  if (call.operation === "remove-all-users") return 0;
  return call.operation === "remove-users" ? call.userIdList.length : call.userList.length;
}

async function applyRule(rule: RulePlan, client: RuleListClient): Promise<RuleResult> {
  const ruleId = rule.ruleId ?? "";
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action };
  const calls: CallRecord[] = [];
  for (const call of rule.calls) {
    try {
      await send(client, ruleId, call);
      calls.push({ operation: call.operation, users: callSize(call), status: "ok" });
    } catch (err) {
      if (!(err instanceof AlertRuleUsersError)) throw err;
      calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
      // A failed or ambiguous write may still have landed: read back; if the list already matches, it converged.
      const read = await readList(client, facts(rule));
      if (read.ok && remainingCalls(rule, read.list) === 0) {
        return { ...base, outcome: "applied", calls, verified: true, message: `converged despite a failed ${call.operation} (read back and verified)` };
      }
      return {
        ...base,
        outcome: "failed",
        calls,
        verified: read.ok ? false : null,
        message: `${call.operation} failed: ${err.message}${read.ok ? "" : `; reading the rule back also failed: ${read.message}`}. Run apply again to converge what is left.`,
      };
    }
  }
  const read = await readList(client, facts(rule));
  if (!read.ok) {
    return { ...base, outcome: "failed", calls, verified: null, message: `the calls were sent but the rule could not be read back to verify: ${read.message}` };
  }
  const left = remainingCalls(rule, read.list);
  if (left === 0) return { ...base, outcome: "applied", calls, verified: true, message: null };
  return {
    ...base,
    outcome: "failed",
    calls,
    verified: false,
    message: "read back after apply, the list does not match the declaration (it may have been changed concurrently): run plan to see the difference, then apply again",
  };
}
