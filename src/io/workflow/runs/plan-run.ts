/**
 * `plan`, composed: open the session, read the declarations (all of them, or what changed since
 * a git revision), observe, build the plan, hand it to the front door, save it. The front door
 * made the request from its flags and prints what it is handed.
 */
import { hasChanges } from "../../../core/engine/build-plan";
import type { Plan } from "../../../core/engine/plan-schema";
import { readChangedSince, planChangedSince, type ChangedSinceRead } from "../steps/changed-since";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import { planDeclared } from "../steps/covered";
import { readDesired } from "../steps/declared";
import { getPlan, planDocument, savePlan } from "../steps/plan";
import { readPlanKey } from "../steps/plan-key";
import { withSession } from "../session/reported-session";
import type { RunReporter } from "../session/reporter";
import type { SynthSettings } from "../session/session";

export interface PlanRunRequest {
  /** Where the plan key (ALERT_RULE_USERS_PLAN_KEY) is read. */
  readonly env: NodeJS.ProcessEnv;
  readonly session: SessionSettings | InvalidSettings;
  readonly synth: SynthSettings;
  /** The plan's clock (`yyyy-MM-ddTHH:mm:ssZ`). */
  readonly now: string;
  /** Plan only what changed since this git revision (`--changed-since REF`). */
  readonly changedSince?: string | undefined;
  /** Also hand the door the plan's JSON document (signed when the plan key is set). */
  readonly document: boolean;
  /** Save the plan (its JSON document) to this absolute path. */
  readonly out?: string | undefined;
}

export interface PlanDoor extends RunReporter {
  /**
   * Runs the read of what changed since REF so that an interrupt stops it: `work` gets the
   * signal that aborts it. What the door throws instead ends the run.
   */
  interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The plan (redacted) and, when asked for, its JSON document: before it is saved. */
  show(plan: Plan, document: string | undefined): void;
}

export interface PlanRunResult {
  readonly plan: Plan;
  /** The plan has a call to send. */
  readonly changes: boolean;
}

/** Plans the declaration against the live lists (no write), shows the plan through `door`, and saves it when asked. */
export async function planRun(request: PlanRunRequest, door: PlanDoor): Promise<PlanRunResult> {
  const planKey = readPlanKey(request.env);
  return withSession(request.session, door, async (session) => {
    const ref = request.changedSince;
    const since = ref === undefined ? null : await door.interruptible((signal) => readChangedSince(ref, request.synth, signal));
    if (since !== null) tellChangedSince(since, door);
    const declared = since === null ? await readDesired(request.synth) : since.declared;
    if (declared.length === 0) door.warn("the app declares no RuleUserList: there is nothing to plan.");
    // Redacted once (by getPlan), so the JSON shown and the file saved are the same valid plan.
    // The plan records every declaration it was made from (apply --require-declarations checks them).
    const clock = { createdAt: new Date(), now: request.now, secrets: session.secrets };
    const plan = await (since === null ? planDeclared(declared, session, clock) : planChangedSince(since, (desired) => getPlan(desired, session, clock))).finally(() => session.close());
    door.show(plan, request.document ? planDocument(plan, planKey) : undefined);
    if (request.out !== undefined) await savePlan(request.out, plan, planKey);
    return { plan, changes: hasChanges(plan) };
  });
}

/** What the read of REF found worth saying: no app at REF, the fallback to a full plan, REF's own dependencies. */
function tellChangedSince(read: ChangedSinceRead, door: RunReporter): void {
  if (read.noAppAtRef !== null) door.note(`${read.noAppAtRef}.`);
  if (read.fallback !== null) door.warn(`--changed-since ${read.ref}: every declared rule is read, because ${read.fallback}.`);
  if (read.refDependencies?.how === "installed") door.note(`--changed-since ${read.ref}: ${read.refDependencies.reason}.`);
}
