/**
 * Sends an admitted plan (the checks before the first write are the workflow's:
 * src/io/workflow/apply.ts): each changed rule's calls in order, and a read back of every changed
 * rule to verify it. One rule failing
 * never stops the others; every rule's outcome is reported.
 */
import type { GuardSlot, RuleListClient } from "../api";
import { ApiError, NotSentError } from "../api";
import { AlertRuleUsersError } from "../errors";
import { StalePlanError } from "../errors";
import type { ApplyResult, CallRecord, RuleResult } from "../core/apply-results";
import { applyResult, interruptedBeforeApply, interruptedRule, notApplied } from "../core/apply-results";
import { fingerprintList } from "../core/fingerprint";
import { checkFresh } from "../core/guards";
import { callSize, type CallOf } from "../core/operations";
import type { Plan, PlannedCall, RulePlan } from "../core/plan-schema";
import { checkRederived } from "../core/rederive";
import { plannedRuleFacts, readBackProblem } from "../core/verify";
import { readList, toObservedList } from "./observe";
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
   * Runs right before every write (before a remove-all-users' guard read, never between it and
   * the call): `apply --require-tip` (src/io/git-tip.ts). What it throws stops every write not yet
   * started, on every rule: before the first write of the run it refuses the whole plan (thrown,
   * nothing sent); after, each rule with calls left fails with that reason, its calls left "not
   * sent".
   */
  readonly beforeEachWrite?: () => void | Promise<void>;
}

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
    const result = signal?.aborted === true ? interruptedRule(rule) : await applyRule(rule, client, signal, gate);
    options.onProgress?.(++done, changing.length);
    return result;
  });
  // Refused before anything was written: the whole plan is refused, as before any write.
  if (gate?.refusal != null && !gate.wrote) throw gate.refusal;
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
    try {
      await client.removeAllUsers(rule.ruleId ?? "", { beforeAttempt: (slot) => checkUnchanged(client, rule, slot) });
    } catch (err) {
      if (err instanceof AlreadyEmptied) return; // an earlier attempt landed (its response was lost): nothing left to send
      throw err;
    }
  },
};

function send(client: RuleListClient, rule: RulePlan, call: PlannedCall): Promise<void> {
  return (SENDERS[call.operation] as Sender<PlannedCall["operation"]>)(client, rule, call);
}

/** A retry of remove-all-users found the list empty: the attempt before it landed, though its answer was lost. */
class AlreadyEmptied extends Error {}

/**
 * A retry of remove-all-users found the list neither as planned nor empty: the attempt before it
 * was sent and not answered with success, so it may have landed (and someone added users since),
 * or not (and someone edited the list). Either way it is not sent again: users added meanwhile
 * are kept, and the rule goes on with its other calls (add-users only: the declared users back).
 */
class MayHaveLanded extends Error {}

/**
 * docs/contract.md §9.3: remove-all-users is sent only right after a read of its rule that matches the
 * plan's fingerprint. Runs before every attempt (retries included), the read sent on the rate
 * limiter's ticket taken together with the call's own and with the call's token (nothing waits
 * between them, src/api/http/transport.ts); throws a StalePlanError when the list changed and no
 * earlier attempt may have landed (none yet, or each refused with 429 or 401), so the call is not
 * sent and users added since the plan are kept. After an attempt that may have landed (a lost
 * answer, a 5xx, a timeout), an empty list means that attempt emptied it: the call is not sent
 * again and the rule goes on to its next call; any other list, that it may have landed
 * (MayHaveLanded).
 */
async function checkUnchanged(client: RuleListClient, rule: RulePlan, slot: GuardSlot): Promise<void> {
  const list = toObservedList(await client.queryUsers(rule.ruleId ?? "", { ticket: slot.ticket, token: slot.token }));
  if (fingerprintList(list) === rule.fingerprint) return;
  const retry = slot.mayHaveLanded;
  if (retry && list.entries.length === 0) throw new AlreadyEmptied();
  if (retry) {
    throw new MayHaveLanded(
      `remove-all-users was sent but not answered with success (a lost answer, a 5xx or a timeout), so it may have landed; ` +
        `the read before its retry found the list neither as planned nor empty (someone else changed it meanwhile), ` +
        `so it was not sent again and users added meanwhile are kept`,
    );
  }
  throw new StalePlanError(
    `refused: remove-all-users was not sent: a read of the rule right before it found the list changed since it was planned ` +
      `(someone else edited it), so users added meanwhile are kept. Run plan again to see the difference, then apply.`,
    [rule.constructPath],
  );
}

/** The call certainly changed nothing: given up before it was sent, or every attempt refused (429, 401) or never sent. */
function notSent(err: AlertRuleUsersError): boolean {
  return err instanceof NotSentError || (err instanceof ApiError && err.notSent);
}

function toEntry(u: { userId: string; aliases: readonly string[] }) {
  return { userIdFromAuthority: u.userId, userAliasList: [...u.aliases] };
}

async function applyRule(rule: RulePlan, client: RuleListClient, signal: AbortSignal | undefined, gate: WriteGate | undefined): Promise<RuleResult> {
  const facts = plannedRuleFacts(rule);
  const base = { ruleId: rule.ruleId, ruleName: rule.ruleName, constructPath: rule.constructPath, action: rule.action };
  const calls: CallRecord[] = [];
  const stopped = (): boolean => signal?.aborted === true;
  /** What a remove-all-users that may have landed left to say (MayHaveLanded). */
  let landed: string | null = null;
  for (const [index, call] of rule.calls.entries()) {
    if (stopped()) return interruptedRule(rule, calls);
    // A rebuild's add-users right after its remove-all-users was sent is not stopped: it puts the
    // declared users back (stopping it would leave the list empty until the next apply).
    const rebuilding = call.operation === "add-users" && calls.at(-1)?.operation === "remove-all-users" && calls.at(-1)?.status !== "not-sent";
    const refusal = rebuilding ? null : ((await gate?.pass()) ?? null);
    if (refusal !== null) {
      for (const left of rule.calls.slice(index)) calls.push({ operation: left.operation, users: callSize(left), status: "not-sent", error: refusal.message });
      return { ...base, outcome: "failed", calls, verified: null, message: `${refusal.message} No further write was sent.` };
    }
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
