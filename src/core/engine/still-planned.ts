/**
 * The plan still holds against the lists read now, right before its first write (docs/contract.md
 * §9.3): every rule it changes is read again (by the caller: the session's `readAgain`,
 * src/io/workflow/session/session.ts), and the plan is refused, nothing sent, when a list differs from
 * what was planned or the plan's calls do not follow from its desired lists and those lists
 * (src/core/engine/rederive.ts). Pure.
 */
import { fingerprintList } from "./fingerprint";
import { checkFresh } from "./guards";
import type { ListRead, RuleFacts } from "./observation";
import type { Plan } from "./plan-schema";
import { checkRederived } from "./rederive";
import { plannedRuleFacts } from "./verify";

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
  const changing = plan.rules.filter((r) => r.action === "update");
  checkFresh(
    changing,
    reads.map((read) => (read.ok ? { ok: true as const, fingerprint: fingerprintList(read.list) } : { ok: false as const, message: read.message })),
    when,
  );
  checkRederived(plan, reads.flatMap((read) => (read.ok ? [read.list] : [])));
}
