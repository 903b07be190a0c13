/**
 * The fresh read before a write: the lists the plan changes read again right before the first
 * write of an admitted plan (`readAgain`, which the workflow's admission checks with
 * src/core/engine/still-planned.ts: src/io/workflow/steps/apply.ts), and the rule read right before each
 * attempt of remove-all-users (`checkUnchanged`, sent by src/io/execute.ts).
 */
import type { GuardSlot, RuleListClient } from "../api";
import { StalePlanError } from "../errors";
import { fingerprintList } from "../core/engine/fingerprint";
import type { ListRead, ObservedList, RuleFacts } from "../core/engine/observation";
import type { RulePlan } from "../core/engine/plan-schema";
import { readList, toObservedList } from "./observe";
import { mapPool } from "./pool";

/** Reads every given rule's list now (one query-users each, `parallelism` at once), in order. */
export function readAgain(client: RuleListClient, rules: readonly RuleFacts[], parallelism: number): Promise<ListRead[]> {
  return mapPool(rules, parallelism, (rule) => readList(client, rule));
}

/** A retry of remove-all-users found the list empty: the attempt before it landed, though its answer was lost. */
export class AlreadyEmptied extends Error {}

/**
 * A retry of remove-all-users found the list neither as planned nor empty: the attempt before it
 * was sent and not answered with success, so it may have landed (and someone added users since),
 * or not (and someone edited the list). Either way it is not sent again: users added meanwhile
 * are kept, and the rule goes on with its other calls (add-users only: the declared users back).
 */
export class MayHaveLanded extends Error {}

/**
 * docs/contract.md §9.3: remove-all-users is sent only right after a read of its rule that matches the
 * plan's fingerprint. Runs before every attempt (retries included), the read sent on the rate
 * limiter's ticket taken together with the call's own and with the call's token (nothing waits
 * between them, src/api/http/turn.ts); throws a StalePlanError when the list changed and no
 * earlier attempt may have landed (none yet, or each refused with 429 or 401), so the call is not
 * sent and users added since the plan are kept. After an attempt that may have landed (a lost
 * answer, a 5xx, a timeout), an empty list means that attempt emptied it: the call is not sent
 * again and the rule goes on to its next call; any other list, that it may have landed
 * (MayHaveLanded).
 */
export async function checkUnchanged(client: RuleListClient, rule: RulePlan, slot: GuardSlot): Promise<ObservedList> {
  const list = toObservedList(await client.queryUsers(rule.ruleId ?? "", { ticket: slot.ticket, token: slot.token }));
  // the list as the guard read it: what a failed rebuild restores (src/io/execute.ts)
  if (fingerprintList(list) === rule.fingerprint) return list;
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
