/**
 * `apply PLANFILE --require-declarations`, so that an apply sends only what was reviewed: the
 * app is synthesized again (or its output read, with --skip-synth) and the declarations compared
 * with those the plan records (src/core/changed-since/declaration-digest.ts). Any declaration added, removed or
 * changed since the plan was made is a change no reviewed plan showed: refused before any
 * connection, nothing sent. Runs after the plan's signature is checked, so the record is the
 * reviewed one.
 */
import { uncoveredDeclarations, withDeclarations, type UncoveredDeclaration } from "../../../core/changed-since/declaration-digest";
import type { DesiredList } from "../../../core/engine/desired";
import type { Plan } from "../../../core/engine/plan-schema";
import { UnreviewedDeclarationsError } from "../../../errors";
import { readDesired } from "./declared";
import { getPlan, type PlanClock } from "./plan";
import type { Session, SynthSettings } from "../session/session";

/** How many declarations the message names before "and N more". */
const NAMED = 10;

const WHY: Record<UncoveredDeclaration["kind"], string> = {
  changed: "declared differently from the plan",
  new: "not in the plan",
  gone: "in the plan, no longer declared",
  rule: "the plan's calls for it do not follow from what it declares",
};

/** Throws an UnreviewedDeclarationsError unless the declarations now are exactly those `plan` covered. */
export async function checkCoveredDeclarations(plan: Plan, file: string, settings: SynthSettings): Promise<void> {
  const found = uncoveredDeclarations(plan, await readDesired(settings));
  if (found === null) {
    throw new UnreviewedDeclarationsError(
      `nothing was applied: ${file} records no declarations, so --require-declarations cannot tell whether the declarations now are those it covered. Make the plan with this version of alert-rule-users.`,
    );
  }
  if (found.length === 0) return;
  const named = found.slice(0, NAMED).map((d) => `  ${d.constructPath} (stack ${d.stack}): ${WHY[d.kind]}`);
  if (found.length > NAMED) named.push(`  and ${found.length - NAMED} more`);
  throw new UnreviewedDeclarationsError(
    `nothing was applied: the declarations now differ from those ${file} covered, a change no reviewed plan showed:\n${named.join("\n")}\n` +
      "Plan the change (in a pull request, or 'alert-rule-users plan --out plan.json') and apply that plan; in CI, run the apply workflow by hand for a full plan of main.",
  );
}

/** A full plan of `declared` (every rule read), recording every declaration it was made from. */
export async function planDeclared(declared: readonly DesiredList[], session: Session, clock: PlanClock): Promise<Plan> {
  return withDeclarations(await getPlan(declared, session, clock), declared);
}
