/**
 * Sends an admitted plan (the checks before the first write are the workflow's:
 * src/io/workflow/apply.ts): each changed rule's calls in order, and a read back of every changed
 * rule to verify it. One rule failing
 * never stops the others; every rule's outcome is reported.
 */
import type { RuleListClient } from "../api";
import { AlertRuleUsersError } from "../errors";
import { StalePlanError } from "../errors";
import type { ApplyResult, CallRecord, RuleResult } from "../core/apply-results";
import { applyResult, interruptedBeforeApply, interruptedRule, notApplied } from "../core/apply-results";
import { callSize, type CallOf } from "../core/operations";
import type { Plan, PlannedCall, RulePlan } from "../core/plan-schema";
import { plannedRuleFacts, readBackProblem } from "../core/verify";
import { AlreadyEmptied, checkUnchanged, MayHaveLanded } from "./fresh-read";
import { readList } from "./observe";
import { mapPool } from "./pool";

/** How to send an admitted plan (src/io/workflow/apply.ts checked it). */
export interface ApplyOptions {
  /** Most rules applied at once. @default 4 */
  readonly parallelism?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Aborted by an interrupt (src/cli/interrupt.ts): no new call starts, calls in flight finish,
   * rules not done are reported `interrupted`.
   */
  readonly signal?: AbortSignal;
  /**
   * Runs once after the checks and the stale check's reads, right before the first write; what it
   * throws refuses the whole plan, nothing sent (`apply --require-tip`, src/io/git/tip.ts).
   */
  readonly beforeFirstWrite?: () => void | Promise<void>;
}

/**
 * Sends the calls of a plan that passed its admission and verifies each rule. Checks nothing
 * before writing: call it only through the workflow (applySavedPlan, applyFresh).
 */
export async function applyPlan(plan: Plan, client: RuleListClient, options: ApplyOptions = {}): Promise<ApplyResult> {
  const parallelism = options.parallelism ?? 4;
  const signal = options.signal;
  if (signal?.aborted === true) return applyResult(interruptedBeforeApply(plan.rules));
  if (plan.rules.some((r) => r.action === "update")) await options.beforeFirstWrite?.();

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

type Sender<K extends PlannedCall["operation"]> = (client: RuleListClient, rule: RulePlan, call: CallOf<K>) => Promise<void>;

/**
 * How each write operation is sent: a record over every operation of the plan, so a new operation
 * (src/core/operations.ts) does not compile until it is sent here.
 */
const SENDERS: { readonly [K in PlannedCall["operation"]]: Sender<K> } = {
  "add-users": (client, rule, call) => client.addUsers(rule.ruleId ?? "", call.userList.map(toEntry)),
  "remove-user-aliases": (client, rule, call) => client.removeUserAliases(rule.ruleId ?? "", call.userList.map(toEntry)),
  "remove-users": (client, rule, call) => client.removeUsers(rule.ruleId ?? "", [...call.userIdList]),
  "remove-all-users": async (client, rule) => {
    let attempt = 0;
    try {
      await client.removeAllUsers(rule.ruleId ?? "", { beforeAttempt: (ticket) => checkUnchanged(client, rule, ++attempt > 1, ticket) });
    } catch (err) {
      if (err instanceof AlreadyEmptied) return; // an earlier attempt landed (its response was lost): nothing left to send
      throw err;
    }
  },
};

function send(client: RuleListClient, rule: RulePlan, call: PlannedCall): Promise<void> {
  return (SENDERS[call.operation] as Sender<PlannedCall["operation"]>)(client, rule, call);
}

function toEntry(u: { userId: string; aliases: readonly string[] }) {
  return { userIdFromAuthority: u.userId, userAliasList: [...u.aliases] };
}

async function applyRule(rule: RulePlan, client: RuleListClient, signal: AbortSignal | undefined): Promise<RuleResult> {
  const facts = plannedRuleFacts(rule);
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action };
  const calls: CallRecord[] = [];
  const stopped = (): boolean => signal?.aborted === true;
  /** What a remove-all-users that may have landed left to say (MayHaveLanded). */
  let landed: string | null = null;
  for (const call of rule.calls) {
    if (stopped()) return interruptedRule(rule, calls);
    try {
      await send(client, rule, call);
      calls.push({ operation: call.operation, users: callSize(call), status: "ok" });
    } catch (err) {
      if (err instanceof StalePlanError) return { ...base, outcome: "failed", calls, verified: null, message: err.message };
      if (err instanceof MayHaveLanded) {
        calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
        landed = err.message;
        continue;
      }
      if (!(err instanceof AlertRuleUsersError)) throw err;
      calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
      if (stopped()) return interruptedRule(rule, calls);
      // A failed or ambiguous write may still have landed: read back; if the list already matches, it converged.
      const read = await readList(client, facts);
      if (read.ok && readBackProblem(rule, read.list) === null) {
        return { ...base, outcome: "applied", calls, verified: true, message: `converged despite a failed ${call.operation} (read back and verified)` };
      }
      return {
        ...base,
        outcome: "failed",
        calls,
        verified: read.ok ? false : null,
        message: `${landed === null ? "" : `${landed}; then `}${call.operation} failed: ${err.message}${read.ok ? "" : `; reading the rule back also failed: ${read.message}`}. Run apply again to converge what is left.`,
      };
    }
  }
  // An interrupt starts no new request, not even the read back: the next apply checks this rule again.
  if (stopped()) return interruptedRule(rule, calls);
  const read = await readList(client, facts);
  if (!read.ok) {
    return { ...base, outcome: "failed", calls, verified: null, message: `the calls were sent but the rule could not be read back to verify: ${read.message}` };
  }
  const problem = readBackProblem(rule, read.list);
  if (problem === null) return { ...base, outcome: "applied", calls, verified: true, message: landed === null ? null : `${landed}; read back, the list matches the declaration` };
  return {
    ...base,
    outcome: "failed",
    calls,
    verified: false,
    message:
      landed === null ? problem : `${landed}; the rule's other calls were sent (the declared users added back), and ${problem}`,
  };
}
