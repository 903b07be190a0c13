/**
 * Applying: one admission for every plan before its first write, then execute and verify.
 *
 * A saved plan:  tip → parse → signature → age → no expired adds → connect → same connection
 *                → applicable → read again → still as planned → (tip, right before the first write) send,
 *                or already applied (every list as it leaves them) → nothing to send
 * A fresh plan:   tip → plan → applicable → confirm → (read again → still as planned, when a person
 *                answered) → (tip, right before the first write) send
 *
 * Each check runs once, here, and is pure (src/core); what reads, sends or redacts is the
 * session's (src/io/workflow/session/session.ts): `send` (src/io/execute.ts) only sends and verifies.
 */
import { alreadyAppliedResult, type ApplyResult } from "../../../core/engine/apply-results";
import { hasChanges } from "../../../core/engine/build-plan";
import type { DesiredList } from "../../../core/engine/desired";
import { admitSavedPlanFile, admitted, checkNoExpiredDeclaredAdds } from "../../../core/engine/admission";
import { checkPlanIsApplicable, checkSameConnection } from "../../../core/engine/guards";
import type { ListRead } from "../../../core/engine/observation";
import type { Plan } from "../../../core/engine/plan-schema";
import { admitSavedPlanReads, checkStillPlanned, rulesToReadAgain } from "../../../core/engine/still-planned";
import { checkTip } from "../../git/tip";
import { readPlanFile } from "../../plan-file";
import { getPlan, type PlanClock } from "./plan";
import type { RunOptions, SendOptions, Session } from "../session/session";

/** A saved plan file: where it is, its name as the user gave it (for messages), and how old it may be. */
export interface SavedPlanFile {
  readonly path: string;
  readonly name: string;
  /** The oldest plan applied, by its `createdAt` against this machine's clock (`--max-plan-age`). */
  readonly maxAge: { readonly ms: number; readonly text: string };
}

export interface SavedPlanHooks {
  /** The plan was read and its format checked (before the signature). */
  readonly planReady?: (plan: Plan) => void;
  /** Connects (after the plan and its signature were checked, so a refused file makes no connection). */
  readonly connect: () => Session | Promise<Session>;
  /** A warning for the user (a signed plan whose key is not set). */
  readonly warn: (message: string) => void;
}

/** What applying a saved plan came to: its calls sent, or nothing left to send. */
export type SavedPlanApply =
  | { readonly kind: "applied"; readonly result: ApplyResult }
  /** Every list it changes is already as it leaves them (a re-run of its apply): nothing was sent. */
  | { readonly kind: "already-applied"; readonly result: ApplyResult };

/**
 * Applies a saved plan after its admission: the file's format and checksum, its signature (with
 * `planKey`: only a plan signed with that key), the same service and tenant, the declaration
 * errors and the mass-removal guard, and a fresh read of every rule it changes (refused, nothing
 * sent, when any list differs or the plan's calls do not follow from it; nothing sent and nothing
 * refused when every list is already as it leaves them). Then executes and verifies.
 */
export async function applySavedPlan(file: SavedPlanFile, planKey: string | undefined, options: RunOptions, hooks: SavedPlanHooks): Promise<SavedPlanApply> {
  checkRequiredTip(options);
  const plan = readPlanFile(file.path);
  hooks.planReady?.(plan);
  admitSavedPlanFile(plan, { name: file.name, key: planKey, now: new Date(), maxAge: file.maxAge }, hooks.warn);
  const session = await hooks.connect();
  checkBeforeReading(plan, session, options);
  if (admitSavedPlanReads(plan, await session.readAgain(rulesToReadAgain(plan))) === "already-applied") return { kind: "already-applied", result: alreadyAppliedResult(plan) };
  return { kind: "applied", result: await session.send(admitted(plan), sendOptions(options)) };
}

/**
 * The admission of a plan the native provider made (Terraform kept it in the planned private
 * data), then its calls: against the session's service, the same service and tenant, the
 * declaration errors and the mass-removal guard, and the rules as the caller just read them, right
 * before this call (else they are read here): StalePlanError, nothing sent, when a list differs
 * from what the plan read or its calls do not follow from it. Then sends and verifies.
 */
export async function applyPlanned(plan: Plan, source: { readonly session: Session; readonly readNow?: readonly ListRead[] }, options: RunOptions): Promise<ApplyResult> {
  const { session, readNow } = source;
  checkBeforeReading(plan, session, options);
  checkStillPlanned(plan, readNow ?? (await session.readAgain(rulesToReadAgain(plan))), "saved");
  return session.send(admitted(plan), sendOptions(options));
}

/** The checks of a plan made earlier that need no read: the same service and tenant, the declaration errors, the mass-removal guard. */
function checkBeforeReading(plan: Plan, session: Session, options: RunOptions): void {
  checkSameConnection(plan, session.connection);
  checkPlanIsApplicable(plan, options);
}

export type FreshApply =
  | { readonly kind: "applied"; readonly plan: Plan; readonly result: ApplyResult }
  | { readonly kind: "no-changes"; readonly plan: Plan }
  | { readonly kind: "cancelled"; readonly plan: Plan }
  /** An interrupt came before the first write: nothing was sent. */
  | { readonly kind: "interrupted"; readonly plan: Plan };

export interface FreshApplyHooks {
  /** The plan that is about to be checked and confirmed (shown to the user). */
  readonly planReady?: (plan: Plan) => void;
  /** Asks for confirmation; true to apply. */
  readonly confirm: (plan: Plan) => Promise<boolean>;
  /**
   * A person answered the confirmation (not --auto-approve): every rule to change is read again
   * after the answer, before the first write, and the plan is refused (nothing sent) when any
   * list changed while it was on screen.
   */
  readonly recheckAfterConfirm: boolean;
}

/**
 * Plans the declaration, shows it (hooks.planReady), checks the guards, asks (confirm), re-reads
 * the changed rules when a person answered, then executes and verifies.
 */
export async function applyFresh(desired: readonly DesiredList[], session: Session, options: RunOptions, clock: PlanClock, hooks: FreshApplyHooks): Promise<FreshApply> {
  const interrupted = (): boolean => options.signal?.aborted === true;
  checkRequiredTip(options);
  const plan = await getPlan(desired, session, clock);
  if (interrupted()) return { kind: "interrupted", plan };
  hooks.planReady?.(plan);
  checkPlanIsApplicable(plan, options);
  // The real clock, whatever `--now`: a user who has expired is not added.
  checkNoExpiredDeclaredAdds(plan, desired, new Date().toISOString().slice(0, 10));
  if (!hasChanges(plan)) return { kind: "no-changes", plan };
  const approved = await hooks.confirm(plan);
  if (interrupted()) return { kind: "interrupted", plan };
  if (!approved) return { kind: "cancelled", plan };
  if (hooks.recheckAfterConfirm) checkStillPlanned(plan, await session.readAgain(rulesToReadAgain(plan)), "confirmed");
  return { kind: "applied", plan, result: await session.send(admitted(plan), sendOptions(options)) };
}

/**
 * How an admitted plan is sent besides the session's parallelism and progress: the run's
 * interrupt (one before the first write sends nothing), `--require-tip` before every write.
 */
function sendOptions(options: RunOptions): SendOptions {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.requireTip === undefined ? {} : { beforeEachWrite: () => checkRequiredTip(options) }),
  };
}

/** `--require-tip`: refuses (nothing sent) when the checkout is not the ref's tip. */
export function checkRequiredTip(options: RunOptions): void {
  if (options.requireTip !== undefined) checkTip(options.requireTip.ref, options.requireTip.cwd);
}
