/**
 * Execute a plan (design.md §5): the guards of src/core/guards.ts first (nothing is sent when one
 * refuses), then, for a saved plan, a fresh read of every rule it changes; then each changed
 * rule's calls in order, and a read back of every changed rule to verify it. One rule failing
 * never stops the others; every rule's outcome is reported.
 */
import type { RuleListClient } from "../api";
import { AlertRuleUsersError } from "../errors";
import { StalePlanError } from "../errors";
import type { ApplyResult, CallRecord, RuleResult } from "../core/apply-results";
import { applyResult, interruptedBeforeApply, interruptedRule, notApplied } from "../core/apply-results";
import { fingerprintList } from "../core/fingerprint";
import type { GuardOptions } from "../core/guards";
import { checkFresh, checkPlanIsApplicable } from "../core/guards";
import type { Plan, PlannedCall, RulePlan } from "../core/plan-schema";
import { checkRederived } from "../core/rederive";
import { mismatchMessage, plannedRuleFacts, remainingCalls } from "../core/verify";
import { readList, toObservedList } from "./observe";
import { mapPool } from "./pool";

export interface ApplyOptions extends GuardOptions {
  /** Most rules applied at once. @default 4 */
  readonly parallelism?: number;
  /**
   * Re-read every rule to change and refuse the plan if any list changed: "saved" for a saved
   * plan, "confirmed" for a plan a person confirmed (the lists may have changed while they read it).
   * @default - no re-read
   */
  readonly checkStale?: "saved" | "confirmed";
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Aborted by an interrupt (src/cli/interrupt.ts): no new call starts, calls in flight finish,
   * rules not done are reported `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/**
 * Re-reads every rule the plan would change and refuses the plan when any list differs from what
 * was planned, or when the plan's calls and mass-removal checks do not follow from its desired
 * lists and the lists read now (an edited saved plan, src/core/rederive.ts).
 */
export async function checkNotStale(plan: Plan, client: RuleListClient, parallelism: number, when: "saved" | "confirmed" = "saved"): Promise<void> {
  const changing = plan.rules.filter((r) => r.action === "update");
  const reads = await mapPool(changing, parallelism, async (rule) => readList(client, plannedRuleFacts(rule)));
  checkFresh(
    changing,
    reads.map((read) => (read.ok ? { ok: true as const, fingerprint: fingerprintList(read.list) } : { ok: false as const, message: read.message })),
    when,
  );
  checkRederived(plan, reads.flatMap((read) => (read.ok ? [read.list] : [])));
}

export async function applyPlan(plan: Plan, client: RuleListClient, options: ApplyOptions = {}): Promise<ApplyResult> {
  const parallelism = options.parallelism ?? 4;
  checkPlanIsApplicable(plan, options);
  if (options.checkStale !== undefined) await checkNotStale(plan, client, parallelism, options.checkStale);
  const signal = options.signal;
  if (signal?.aborted === true) return applyResult(interruptedBeforeApply(plan.rules));

  const changing = plan.rules.filter((r) => r.action === "update");
  let done = 0;
  const applied = await mapPool(changing, parallelism, async (rule) => {
    const result = signal?.aborted === true ? interruptedRule(rule) : await applyRule(rule, client, signal);
    options.onProgress?.(++done, changing.length);
    return result;
  });
  const byPath = new Map(applied.map((r) => [r.constructPath, r]));
  return applyResult(plan.rules.map((rule): RuleResult => byPath.get(rule.constructPath) ?? notApplied(rule)));
}

async function send(client: RuleListClient, rule: RulePlan, call: PlannedCall): Promise<void> {
  const ruleId = rule.ruleId ?? "";
  switch (call.operation) {
    case "add-users":
      return client.addUsers(ruleId, call.userList.map(toEntry));
    case "remove-user-aliases":
      return client.removeUserAliases(ruleId, call.userList.map(toEntry));
    case "remove-users":
      return client.removeUsers(ruleId, [...call.userIdList]);
    case "remove-all-users": {
      let attempt = 0;
      try {
        return await client.removeAllUsers(ruleId, { beforeAttempt: () => checkUnchanged(client, rule, ++attempt > 1) });
      } catch (err) {
        if (err instanceof AlreadyEmptied) return; // an earlier attempt landed (its response was lost): nothing left to send
        throw err;
      }
    }
  }
}

/** A retry of remove-all-users found the list empty: the attempt before it landed, though its answer was lost. */
class AlreadyEmptied extends Error {}

/**
 * design.md §9.3: remove-all-users is sent only right after a read of its rule that matches the
 * plan's fingerprint. Runs before every attempt (retries included); throws a StalePlanError when
 * the list changed, so the call is not sent and users added since the plan are kept. Before a
 * retry, an empty list means the previous attempt emptied it (a lost response): the call is not
 * sent again and the rule goes on to its next call.
 */
async function checkUnchanged(client: RuleListClient, rule: RulePlan, retry: boolean): Promise<void> {
  const list = toObservedList(await client.queryUsers(rule.ruleId ?? ""));
  if (fingerprintList(list) === rule.fingerprint) return;
  if (retry && list.entries.length === 0) throw new AlreadyEmptied();
  throw new StalePlanError(
    `refused: remove-all-users was not sent: a read of the rule right before it found the list changed since it was planned ` +
      `(someone else edited it), so users added meanwhile are kept. Run plan again to see the difference, then apply.`,
    [rule.constructPath],
  );
}

function toEntry(u: { userId: string; aliases: readonly string[] }) {
  return { userIdFromAuthority: u.userId, userAliasList: [...u.aliases] };
}

function callSize(call: PlannedCall): number {
  if (call.operation === "remove-all-users") return 0;
  return call.operation === "remove-users" ? call.userIdList.length : call.userList.length;
}

async function applyRule(rule: RulePlan, client: RuleListClient, signal: AbortSignal | undefined): Promise<RuleResult> {
  const facts = plannedRuleFacts(rule);
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action };
  const calls: CallRecord[] = [];
  const stopped = (): boolean => signal?.aborted === true;
  for (const call of rule.calls) {
    if (stopped()) return interruptedRule(rule, calls);
    try {
      await send(client, rule, call);
      calls.push({ operation: call.operation, users: callSize(call), status: "ok" });
    } catch (err) {
      if (err instanceof StalePlanError) return { ...base, outcome: "failed", calls, verified: null, message: err.message };
      if (!(err instanceof AlertRuleUsersError)) throw err;
      calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
      if (stopped()) return interruptedRule(rule, calls);
      // A failed or ambiguous write may still have landed: read back; if the list already matches, it converged.
      const read = await readList(client, facts);
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
  // An interrupt starts no new request, not even the read back: the next apply checks this rule again.
  if (stopped()) return interruptedRule(rule, calls);
  const read = await readList(client, facts);
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
    message: mismatchMessage(rule, read.list),
  };
}
