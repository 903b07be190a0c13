/**
 * Sends an admitted plan (the checks before the first write are the workflow's:
 * src/io/workflow/steps/apply.ts): each changed rule's calls in order, and a read back of every changed
 * rule to verify it. One rule failing
 * never stops the others; every rule's outcome is reported.
 */
import type { RuleListClient } from "../api";
import { ApiError, NotSentError } from "../api";
import { AlertRuleUsersError } from "../errors";
import { StalePlanError } from "../errors";
import type { ApplyResult, CallRecord, RuleResult } from "../core/engine/apply-results";
import { applyResult, interruptedBeforeApply, interruptedRule, notApplied } from "../core/engine/apply-results";
import { callSize, isGuarded, phaseOf, wireWrite } from "../core/engine/operations";
import type { ObservedList } from "../core/engine/observation";
import { restoreAfterFailedRebuild } from "./restore-after-wipe";
import type { Plan, PlannedCall, RulePlan } from "../core/engine/plan-schema";
import { plannedRuleFacts, readBackProblem } from "../core/engine/verify";
import { AlreadyEmptied, checkUnchanged, MayHaveLanded } from "./fresh-read";
import { readList } from "./observe";
import { mapPool } from "./pool";

/** How to send an admitted plan (src/io/workflow/steps/apply.ts checked it). */
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
   * Runs right before every write (before a remove-all-users' guard read, never between it and
   * the call): `apply --require-tip` (src/io/git/tip.ts). What it throws stops every write not yet
   * started, on every rule: before the first write of the run it refuses the whole plan (thrown,
   * nothing sent); after, each rule with calls left fails with that reason, its calls left "not
   * sent".
   */
  readonly beforeEachWrite?: () => void | Promise<void>;
  /**
   * When a rebuild's add-users fails after its remove-all-users emptied the list: how many more
   * times the executor sends it (each after the client's own retries gave up), `delayMs` times the
   * attempt apart, before it puts back what the list held (restoreAfterFailedRebuild).
   * @default - 2 attempts, 2 s apart (then 4 s)
   */
  readonly rebuildRetry?: Partial<RebuildRetry>;
}

export interface RebuildRetry {
  readonly attempts: number;
  readonly delayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The check before every write, shared by the rules of one apply: once it refuses, no write starts. */
class WriteGate {
  readonly #check: () => void | Promise<void>;
  /** What the check threw, once it did. */
  refusal: AlertRuleUsersError | null = null;
  /** A write was started (sent, or sending) in this apply. */
  wrote = false;

  constructor(check: () => void | Promise<void>) {
    this.#check = check;
  }

  /** Null when the next write may start (it is then counted as started); else the refusal. */
  async pass(): Promise<AlertRuleUsersError | null> {
    if (this.refusal !== null) return this.refusal;
    try {
      await this.#check();
    } catch (error) {
      if (!(error instanceof AlertRuleUsersError)) throw error;
      this.refusal ??= error;
      return this.refusal;
    }
    if (this.refusal !== null) return this.refusal;
    this.wrote = true;
    return null;
  }
}

/**
 * Sends the calls of a plan that passed its admission and verifies each rule. Checks nothing
 * before writing: call it only through the workflow (applySavedPlan, applyFresh).
 */
export async function applyPlan(plan: Plan, client: RuleListClient, options: ApplyOptions = {}): Promise<ApplyResult> {
  const parallelism = options.parallelism ?? 4;
  const signal = options.signal;
  if (signal?.aborted === true) return applyResult(interruptedBeforeApply(plan.rules));
  const gate = options.beforeEachWrite === undefined ? undefined : new WriteGate(options.beforeEachWrite);

  const changing = plan.rules.filter((r) => r.action === "update");
  let done = 0;
  const applied = await mapPool(changing, parallelism, async (rule) => {
    const result = signal?.aborted === true ? interruptedRule(rule) : await applyRule(rule, client, signal, gate, { attempts: options.rebuildRetry?.attempts ?? 2, delayMs: options.rebuildRetry?.delayMs ?? 2_000, sleep: options.rebuildRetry?.sleep ?? delay });
    options.onProgress?.(++done, changing.length);
    return result;
  });
  // Refused before anything was written: the whole plan is refused, as before any write.
  if (gate?.refusal != null && !gate.wrote) throw gate.refusal;
  const byPath = new Map(applied.map((r) => [r.constructPath, r]));
  return applyResult(plan.rules.map((rule): RuleResult => byPath.get(rule.constructPath) ?? notApplied(rule)));
}

/**
 * Sends one call as its row of the operation table words its request (wireWrite,
 * src/core/engine/operations.ts), so every operation is sent the same way. A guarded one (its row says so:
 * remove-all-users) has the rule read again right before each attempt, and nothing is sent when it changed.
 */
async function send(client: RuleListClient, rule: RulePlan, call: PlannedCall, onGuardRead?: (list: ObservedList) => void): Promise<void> {
  const ruleId = rule.ruleId ?? "";
  if (!isGuarded(call)) return client.write(ruleId, wireWrite(call));
  try {
    await client.write(ruleId, wireWrite(call), {
      beforeAttempt: async (slot) => {
        onGuardRead?.(await checkUnchanged(client, rule, slot));
      },
    });
  } catch (err) {
    if (err instanceof AlreadyEmptied) return; // an earlier attempt landed (its response was lost): nothing left to send
    throw err;
  }
}

/** The call certainly changed nothing: given up before it was sent, or every attempt refused (429, 401) or never sent. */
function notSent(err: AlertRuleUsersError): boolean {
  return err instanceof NotSentError || (err instanceof ApiError && err.notSent);
}

/** A call that emptied the list (phase `empty`: remove-all-users) and may have landed. */
const sentWipe = (record: CallRecord): boolean => phaseOf(record.operation) === "empty" && record.status !== "not-sent";

/** A rebuild's add-users right after its remove-all-users was sent (phases `add` after `empty`). */
function rebuildsAfterWipe(call: PlannedCall, previous: CallRecord | undefined): boolean {
  return phaseOf(call.operation) === "add" && previous !== undefined && sentWipe(previous);
}

async function applyRule(rule: RulePlan, client: RuleListClient, signal: AbortSignal | undefined, gate: WriteGate | undefined, rebuildRetry: RebuildRetry): Promise<RuleResult> {
  const facts = plannedRuleFacts(rule);
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action };
  const calls: CallRecord[] = [];
  const stopped = (): boolean => signal?.aborted === true;
  /** What a remove-all-users that may have landed left to say (MayHaveLanded). */
  let landed: string | null = null;
  /** The list as the guard read it right before remove-all-users was sent: what a failed rebuild puts back. */
  const guard: { read: ObservedList | null } = { read: null };
  for (const [index, call] of rule.calls.entries()) {
    if (stopped()) return interruptedRule(rule, calls);
    // A rebuild's add-users right after its remove-all-users was sent is not stopped: it puts the
    // declared users back (stopping it would leave the list empty until the next apply).
    const rebuilding = rebuildsAfterWipe(call, calls.at(-1));
    const refusal = rebuilding ? null : ((await gate?.pass()) ?? null);
    if (refusal !== null) {
      for (const left of rule.calls.slice(index)) calls.push({ operation: left.operation, users: callSize(left), status: "not-sent", error: refusal.message });
      return { ...base, outcome: "failed", calls, verified: null, message: `${refusal.message} No further write was sent.` };
    }
    try {
      await send(client, rule, call, (list) => (guard.read = list));
      calls.push({ operation: call.operation, users: callSize(call), status: "ok" });
    } catch (err) {
      const before = guard.read;
      const wiped = before !== null && phaseOf(call.operation) === "add" && calls.some(sentWipe);
      if (wiped && before !== null && err instanceof AlertRuleUsersError && !stopped()) {
        calls.push({ operation: call.operation, users: callSize(call), status: notSent(err) ? "not-sent" : "failed", error: err.message });
        return restoreAfterFailedRebuild({ client, rule, call, rest: rule.calls.slice(index + 1), before, calls, base, facts, error: err, retry: rebuildRetry });
      }
      if (err instanceof StalePlanError) return { ...base, outcome: "failed", calls, verified: null, message: err.message };
      if (err instanceof MayHaveLanded) {
        calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
        landed = err.message;
        continue;
      }
      if (!(err instanceof AlertRuleUsersError)) throw err;
      calls.push({ operation: call.operation, users: callSize(call), status: notSent(err) ? "not-sent" : "failed", error: err.message });
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
