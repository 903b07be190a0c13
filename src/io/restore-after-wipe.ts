/**
 * A rebuild whose add-users fails after its remove-all-users emptied the list (the service has no
 * transactions): the executor sends the add-users left again, within its retries; when they still
 * fail it puts back what the list held right before the wipe (as the guard read it) minus what the
 * plan removes (src/core/engine/restore-after-wipe.ts), reads the rule back, and fails the rule naming
 * exactly the users and aliases it could not put back, and what to run.
 */
import type { RuleListClient } from "../api";
import { AlertRuleUsersError } from "../errors";
import type { CallRecord, RuleResult } from "../core/engine/apply-results";
import type { ObservedList, RuleFacts } from "../core/engine/observation";
import { callSize, callsAdding, wireWrite } from "../core/engine/operations";
import type { PlannedCall, RulePlan } from "../core/engine/plan-schema";
import { describeUsers, missingFrom, usersToRestore } from "../core/engine/restore-after-wipe";
import { readBackProblem } from "../core/engine/verify";
import { readList } from "./observe";
import { messageOf } from "../shared/text";

/** At most this many users in one add-users of the restore (the service's batch). */
const RESTORE_BATCH = 100;

export interface RestoreRequest {
  readonly client: RuleListClient;
  readonly rule: RulePlan;
  /** The add-users that failed, and the calls of the rule after it. */
  readonly call: PlannedCall;
  readonly rest: readonly PlannedCall[];
  /** The list as the guard read it right before remove-all-users was sent. */
  readonly before: ObservedList;
  /** The rule's calls so far (the failed add-users last); appended to. */
  readonly calls: CallRecord[];
  readonly base: Pick<RuleResult, "ruleId" | "ruleName" | "constructPath" | "action">;
  readonly facts: RuleFacts;
  readonly error: AlertRuleUsersError;
  readonly retry: { readonly attempts: number; readonly delayMs: number; readonly sleep: (ms: number) => Promise<void> };
}

/** Sends `calls` in order; the first failure, or null when every one was answered with success. */
async function sendAll(request: RestoreRequest, calls: readonly PlannedCall[]): Promise<AlertRuleUsersError | null> {
  for (const call of calls) {
    try {
      await request.client.write(request.rule.ruleId ?? "", wireWrite(call));
      request.calls.push({ operation: call.operation, users: callSize(call), status: "ok" });
    } catch (err) {
      if (!(err instanceof AlertRuleUsersError)) throw err;
      request.calls.push({ operation: call.operation, users: callSize(call), status: "failed", error: err.message });
      return err;
    }
  }
  return null;
}

export async function restoreAfterFailedRebuild(request: RestoreRequest): Promise<RuleResult> {
  const { rule, base, facts } = request;
  let last: AlertRuleUsersError = request.error;
  // 1. the rebuild's add-users again, within the executor's retries
  for (let attempt = 1; attempt <= request.retry.attempts; attempt++) {
    await request.retry.sleep(request.retry.delayMs * attempt);
    const failed = await sendAll(request, [request.call, ...request.rest]);
    if (failed === null) {
      const read = await readList(request.client, facts);
      const problem = read.ok ? readBackProblem(rule, read.list) : `the rule could not be read back: ${read.message}`;
      return problem === null
        ? { ...base, outcome: "applied", calls: request.calls, verified: true, message: `add-users failed after remove-all-users (${request.error.message}) and was sent again: read back, the list matches the declaration` }
        : { ...base, outcome: "failed", calls: request.calls, verified: read.ok ? false : null, message: `add-users failed after remove-all-users and was sent again; ${problem}. Run apply again to converge.` };
    }
    last = failed;
  }
  // 2. what the list held before the wipe, less what the plan removes
  const wanted = usersToRestore(request.before.entries, rule.changes);
  const restoreFailed = await sendAll(request, callsAdding(wanted, RESTORE_BATCH));
  // 3. what is there now
  const read = await readList(request.client, facts);
  const missing = read.ok ? missingFrom(wanted, read.list.entries) : wanted;
  const what =
    `add-users failed after remove-all-users had emptied the list (${messageOf(last)}; sent ${request.retry.attempts + 1} times). ` +
    `The list held ${wanted.length} user${wanted.length === 1 ? "" : "s"} before the rebuild that the plan keeps; `;
  const outcome =
    missing.length === 0
      ? `all of them were put back${restoreFailed === null ? "" : " (a restore call failed, but the read back finds them)"}, without the plan's additions.`
      : `${read.ok ? "" : `the rule could not be read back (${read.message}), so none is known to be back; `}could not put back: ${describeUsers(missing)}.`;
  return {
    ...base,
    outcome: "failed",
    calls: request.calls,
    verified: read.ok ? false : null,
    message: `${what}${outcome} Run apply again to finish the rebuild${missing.length === 0 ? "" : ", or add the users named here back by hand"}.`,
  };
}
