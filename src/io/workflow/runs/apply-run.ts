/**
 * `apply`, composed: a saved plan through its admission, or a fresh plan of the declaration
 * shown, confirmed and applied; the run recorded as it goes and its reports written however it
 * ends (applied, refused, failed, cancelled, interrupted). The front door made the request from
 * its flags; it shows the plan, asks, and prints the result it is handed.
 */
import { ENV_TOKEN } from "../../../api";
import type { ApplyReport, ApplyReportRecorder, ApplyReportSource } from "../../../core/report/apply-report";
import type { ApplyResult } from "../../../core/engine/apply-results";
import type { Plan } from "../../../core/engine/plan-schema";
import { applyFresh, applySavedPlan, checkRequiredTip, type SavedPlanFile } from "../steps/apply";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import { checkCoveredDeclarations } from "../steps/covered";
import { readDesired, readDesiredFromEnv } from "../steps/declared";
import { readPlanKey } from "../steps/plan-key";
import { openReportedSession, type ReportedSession } from "../session/reported-session";
import type { RunReporter } from "../session/reporter";
import { startApplyReport, writeApplyReports, type ReportFiles } from "../steps/output-files";
import type { RunOptions, SynthSettings } from "../session/session";

export interface ApplyRunRequest {
  /** Where the token and the plan key are read (for redaction and the signature). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the reports' paths are relative to. */
  readonly cwd: string;
  /** What the run applies, as the reports name it. */
  readonly source: ApplyReportSource;
  readonly reports: ReportFiles;
  /** The run's settings, or why the door could not make them (a flag at fault): recorded in the reports as the run's error, then thrown. */
  readonly run: ApplySettings | InvalidSettings;
}

/** What one apply does, from its flags. */
export interface ApplySettings {
  readonly session: SessionSettings | InvalidSettings;
  /** The saved plan to apply; without, a fresh plan of the declaration (or of `fromEnv`). */
  readonly planFile: SavedPlanFile | undefined;
  /** Where the declaration comes from (no plan file, or `requireDeclarations`). */
  readonly synth: SynthSettings;
  /** The one list of the ALERT_RULE_USERS_* environment instead of the app (`--from-env`). */
  readonly fromEnv: boolean;
  /** With a plan file: refuse unless the declarations now are those the plan covered. */
  readonly requireDeclarations: boolean;
  /** A fresh plan's clock (`yyyy-MM-ddTHH:mm:ssZ`). */
  readonly now: string;
  /** Apply a fresh plan without asking. */
  readonly autoApprove: boolean;
  /** The guards and `--require-tip` (the door's interrupt signal is added). */
  readonly guards: Omit<RunOptions, "signal">;
}

export interface ApplyDoor extends RunReporter {
  /** Aborted by an interrupt: no call starts after it. */
  readonly signal: AbortSignal;
  /** A fresh plan, before it is checked and confirmed. */
  showPlan(plan: Plan): void;
  /** Asks whether to apply `plan`; true to apply. */
  confirm(plan: Plan): Promise<boolean>;
  /** What was applied and verified (or failed), once the run has sent its calls. */
  showResult(result: ApplyResult): void;
  /** A saved plan whose every list is already as it leaves them (a re-run of its apply): nothing was sent. */
  alreadyApplied(result: ApplyResult): void;
  /** The answer was no: nothing was sent. */
  cancelled(): void;
  /** The run was interrupted (`signal`): what it did and how to finish, said to the user and recorded; the exit code. */
  interrupted(result: ApplyResult | null): { readonly message: string; readonly exitCode: number };
  /** A report could not be written (`completed`: the run itself ended without an error). */
  reportNotWritten(file: string, reason: string, completed: boolean): void;
}

export interface ApplyRunResult {
  /** 0 every changed rule applied and verified; 1 anything else; an interrupt's own code. */
  readonly exitCode: number;
  /** What was applied (shown by the door's showResult); null when nothing was (no changes, cancelled, interrupted before). */
  readonly result: ApplyResult | null;
}

/** The run's record and its secrets (masked in every report), fed as it goes. */
interface ApplyContext {
  readonly door: ApplyDoor;
  readonly recorder: ApplyReportRecorder;
  readonly secrets: Set<string>;
  readonly options: RunOptions;
}

/** Applies a saved plan or a fresh one, and writes the reports; throws (after writing them) what stopped the run. */
export async function applyRun(request: ApplyRunRequest, door: ApplyDoor): Promise<ApplyRunResult> {
  const recorder = startApplyReport(new Date(), request.source);
  const secrets = new Set<string>([request.env[ENV_TOKEN]?.trim() ?? ""]);
  let ran: { exitCode: number; result: ApplyResult | null };
  try {
    if ("invalid" in request.run) throw request.run.invalid;
    const options: RunOptions = { ...request.run.guards, signal: door.signal };
    checkRequiredTip(options); // before the synth and any request: the workflow checks again before the first write
    const context: ApplyContext = { door, recorder, secrets, options };
    ran = request.run.planFile !== undefined ? await applySaved(request.env, request.run, request.run.planFile, context) : await applyDeclared(request.env, request.cwd, request.run, context);
  } catch (err) {
    // an interrupt also stops what it reaches (a synth app, a prompt): report the interrupt, not its echo
    if (!door.signal.aborted) {
      await writeReports(request, recorder.fail(err, new Date().toISOString()), secrets, door, false);
      throw err;
    }
    ran = { exitCode: 1, result: null };
  }
  let exitCode = ran.exitCode;
  if (door.signal.aborted) {
    const interrupted = door.interrupted(ran.result);
    recorder.interrupted(interrupted.message);
    exitCode = interrupted.exitCode;
  }
  const written = await writeReports(request, recorder.finish(exitCode, new Date().toISOString()), secrets, door, true);
  return { exitCode: written || door.signal.aborted ? exitCode : 1, result: ran.result };
}

/** A saved plan, through the workflow's admission (it connects only once the file passed). */
async function applySaved(env: NodeJS.ProcessEnv, settings: ApplySettings, file: SavedPlanFile, { door, recorder, secrets, options }: ApplyContext) {
  const planKey = readPlanKey(env);
  if (planKey !== undefined) secrets.add(planKey);
  let session: ReportedSession | undefined;
  let saved: Plan | undefined;
  const outcome = await applySavedPlan(file, planKey, options, {
    planReady: (plan) => {
      saved = plan;
      recorder.planReady(plan);
    },
    warn: (message) => door.warn(message),
    connect: async () => {
      // After the signature: the record compared is the reviewed one; before any connection.
      if (settings.requireDeclarations && saved !== undefined) await checkCoveredDeclarations(saved, file.name, settings.synth);
      session = await openReportedSession(settings.session, door);
      for (const secret of session.secrets) secrets.add(secret);
      recorder.connected(session.connection);
      return session;
    },
  }).finally(() => session?.close());
  if (outcome.kind === "already-applied") {
    recorder.alreadyApplied(outcome.result);
    door.alreadyApplied(outcome.result);
    return { exitCode: 0, result: outcome.result };
  }
  return applied(outcome.result, recorder, door);
}

/** A fresh plan of the declaration (the app, or the environment's one list): shown, confirmed, applied. */
async function applyDeclared(env: NodeJS.ProcessEnv, cwd: string, settings: ApplySettings, { door, recorder, secrets, options }: ApplyContext) {
  // Validate the declaration before any request: --from-env reads it from the environment.
  const fromEnv = settings.fromEnv ? readDesiredFromEnv(env, cwd) : null;
  const session = await openReportedSession(settings.session, door);
  for (const secret of session.secrets) secrets.add(secret);
  recorder.connected(session.connection);
  const desired = fromEnv ?? (await readDesired(settings.synth));
  const outcome = await applyFresh(desired, session, options, { createdAt: new Date(), now: settings.now, secrets: [...secrets] }, {
    planReady: (plan) => {
      session.close();
      recorder.planReady(plan);
      door.showPlan(plan);
    },
    confirm: async (plan) => settings.autoApprove || (await door.confirm(plan)),
    recheckAfterConfirm: !settings.autoApprove,
  }).finally(() => session.close());
  if (outcome.kind === "interrupted") {
    recorder.planReady(outcome.plan);
    return { exitCode: 1, result: null };
  }
  if (outcome.kind === "no-changes") return { exitCode: outcome.plan.summary.errors > 0 ? 1 : 0, result: null };
  if (outcome.kind === "cancelled") {
    recorder.cancelled();
    door.cancelled();
    return { exitCode: 1, result: null };
  }
  return applied(outcome.result, recorder, door);
}

/** What was sent: recorded, shown, and the exit code (0 when every changed rule applied and verified). */
function applied(result: ApplyResult, recorder: ApplyReportRecorder, door: ApplyDoor): { exitCode: number; result: ApplyResult } {
  recorder.applied(result);
  door.showResult(result);
  return { exitCode: result.ok ? 0 : 1, result };
}

/**
 * Writes the requested reports (atomically, every secret masked: src/io/workflow/steps/output-files.ts). A
 * report that cannot be written is an error of the run.
 */
async function writeReports(request: ApplyRunRequest, report: ApplyReport, secrets: ReadonlySet<string>, door: ApplyDoor, completed: boolean): Promise<boolean> {
  const failed = await writeApplyReports(request.reports, report, [...secrets], request.cwd);
  for (const { file, reason } of failed) door.reportNotWritten(file, reason, completed);
  return failed.length === 0;
}
