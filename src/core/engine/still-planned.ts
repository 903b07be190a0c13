/**
 * The plan still holds against the lists read now, right before its first write (docs/contract.md
 * §9.3): every rule it changes is read again (by the caller: the session's `readAgain`,
 * src/io/workflow/session/session.ts), and the plan is refused, nothing sent, when a list differs from
 * what was planned or the plan's calls do not follow from its desired lists and those lists
 * (src/core/engine/rederive.ts). A saved plan whose every list is already as it leaves them (a
 * re-run of its apply) is told apart: nothing to send, nothing refused. Pure.
 */
import { fingerprintList } from "./fingerprint";
import { checkFresh } from "./guards";
import type { ListRead, RuleFacts } from "./observation";
import type { Plan, RulePlan } from "./plan-schema";
import { checkRederived } from "./rederive";
import { plannedRuleFacts, readBackProblem } from "./verify";

/** The rules a plan changes, in its order: what is read again before its first write. */
export function rulesToReadAgain(plan: Plan): RuleFacts[] {
  return plan.rules.filter((r) => r.action === "update").map(plannedRuleFacts);
}

/**
 * Refuses the plan when a list read again (`reads[i]` for the i-th of {@link rulesToReadAgain})
 * could not be read or differs from what was planned (StalePlanError), or when the plan's calls
 * and mass-removal checks do not follow from its desired lists and those lists (an edited saved
 * plan: PlanFileError).
 */
export function checkStillPlanned(plan: Plan, reads: readonly ListRead[], when: "saved" | "confirmed" = "saved"): void {
  checkFreshReads(plan, reads, when, []);
}

/** {@link checkStillPlanned}, with `notes[i]` said beside the i-th rule when it is stale. */
function checkFreshReads(plan: Plan, reads: readonly ListRead[], when: "saved" | "confirmed", notes: readonly (string | null)[]): void {
  const changing = plan.rules.filter((r) => r.action === "update");
  checkFresh(
    changing,
    reads.map((read) => (read.ok ? { ok: true as const, fingerprint: fingerprintList(read.list) } : { ok: false as const, message: read.message })),
    when,
    notes,
  );
  checkRederived(plan, reads.flatMap((read) => (read.ok ? [read.list] : [])));
}

/** What a saved plan's lists, read again right before its first write, say: send its calls, or nothing is left to send. */
export type SavedPlanVerdict = "still-planned" | "already-applied";

/** Whether `read` shows `rule`'s list as the plan leaves it: its calls, derived again from the list, are none, and it is of the planned type. */
const leftAsPlanned = (rule: RulePlan, read: ListRead | undefined): boolean => read?.ok === true && readBackProblem(rule, read.list) === null;

/**
 * The admission of a saved plan against its lists read again (`reads[i]` for the i-th of
 * {@link rulesToReadAgain}): `still-planned` when every list is the one it read and its calls
 * follow from them (send them); `already-applied` when every rule it changes has changed since
 * it was made to just what it would leave (an earlier run applied this plan, or the same
 * change was made elsewhere: nothing to send, the lists are what the reviewer saw). Anything else
 * throws as {@link checkStillPlanned} does, each rule already as planned named so.
 */
export function admitSavedPlanReads(plan: Plan, reads: readonly ListRead[]): SavedPlanVerdict {
  const changing = plan.rules.filter((r) => r.action === "update");
  const unchanged = (rule: RulePlan, i: number): boolean => {
    const read = reads[i];
    return read?.ok === true && fingerprintList(read.list) === rule.fingerprint;
  };
  const applied = changing.map((rule, i) => !unchanged(rule, i) && leftAsPlanned(rule, reads[i]));
  if (changing.length > 0 && applied.every(Boolean)) return "already-applied";
  const notes = applied.map((done) => (done ? "already as this plan leaves it (an earlier apply of it was cut short?)" : null));
  checkFreshReads(plan, reads, "saved", notes);
  return "still-planned";
}
