/**
 * The one place that composes the steps (docs/architecture.md):
 *
 *   declaration → synth → decode → observe → plan → (save) → check → execute → verify
 *
 * Reads and writes happen here and in the io modules it calls; every decision is made by the pure
 * core (src/core). The CLI parses flags, asks, prints and maps errors to exit codes; it calls these
 * functions and nothing below them.
 */
import type { RuleListClient } from "../../api";
import type { ApplyResult } from "../../core/apply-results";
import { hasChanges } from "../../core/build-plan";
import { buildPlan } from "../../core/build-plan";
import type { DesiredList } from "../../core/desired";
import type { GuardOptions } from "../../core/guards";
import { checkPlanIsApplicable, checkSameConnection } from "../../core/guards";
import type { ImportCode } from "../../core/import-code";
import { generateImportCode } from "../../core/import-code";
import type { Plan } from "../../core/plan-schema";
import { ImportError, LiveReadError } from "../../errors";
import type { LiveRule } from "../../core/who";
import { applyPlan } from "../execute";
import { observe, readRuleLists, searchRules } from "../observe";
import { readPlanFile } from "../plan-file";
import { readDeclarations } from "../read-synth-output";
import { readAppCommand, runSynth } from "../synth";
import { TOOL_VERSION } from "../version";

/** How to get the synthesized declaration. */
export interface SynthSettings {
  /** The command that synthesizes the app. @default - the `app` of `<cwd>/cdktf.json` */
  readonly app: string | undefined;
  /** Where the app writes (CDKTF_OUTDIR) and where the declaration is read from. */
  readonly outdir: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly skipSynth: boolean;
  /** Only these stacks; empty for every stack. */
  readonly stacks: readonly string[];
}

/** A connected run: the client, where it points, and the engine settings. */
export interface Session {
  readonly client: RuleListClient;
  readonly connection: { readonly baseUrl: string; readonly tenantId: string };
  readonly parallelism: number;
  readonly pageSize: number;
  readonly batchSize: number;
  /** Progress of the long phases (reading lists, applying rules). */
  readonly onProgress?: (phase: "observe" | "apply", done: number, total: number) => void;
}

/** Synthesizes (unless skipSynth) and reads the declared lists. */
export async function readDesired(settings: SynthSettings): Promise<DesiredList[]> {
  if (!settings.skipSynth) {
    const app = settings.app ?? readAppCommand(settings.cwd);
    await runSynth({ app, outdir: settings.outdir, cwd: settings.cwd, env: settings.env });
  }
  return readDeclarations(settings.outdir, settings.stacks.length > 0 ? { stacks: settings.stacks } : {});
}

/**
 * Observes the declared rules and builds the plan. `now` is the plan's clock for expiries and
 * policies (`yyyy-MM-ddTHH:mm:ssZ`); `createdAt` when it was made (recorded as is).
 */
export async function getPlan(desired: readonly DesiredList[], session: Session, createdAt: Date, now?: string): Promise<Plan> {
  const observations = await observe(session.client, desired, {
    parallelism: session.parallelism,
    pageSize: session.pageSize,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  return buildPlan({
    declarations: desired,
    observations,
    connection: { baseUrl: session.connection.baseUrl, tenantId: session.connection.tenantId },
    createdAt: createdAt.toISOString(),
    ...(now === undefined ? {} : { now }),
    toolVersion: TOOL_VERSION,
    batchSize: session.batchSize,
  });
}

export interface ApplyHooks {
  /** The plan that is about to be applied (or checked). */
  readonly planReady?: (plan: Plan) => void;
}

/** Reads and checks a saved plan (format version, schema, checksum) before anything connects. */
export function loadSavedPlan(file: string): Plan {
  return readPlanFile(file);
}

/**
 * Applies a saved plan: same connection, guards, every changed list re-read and compared with the
 * plan's fingerprints (refused, nothing sent, when any differs), then execute and verify.
 */
export async function applySavedPlan(plan: Plan, session: Session, options: RunOptions): Promise<ApplyResult> {
  checkSameConnection(plan, session.connection);
  return execute(plan, session, { ...options, checkStale: "saved" });
}

/** The guards, and the signal of an interrupt (src/cli/interrupt.ts): once aborted, no new call starts. */
export interface RunOptions extends GuardOptions {
  readonly signal?: AbortSignal;
  /** Right before the first write (src/io/execute.ts): `apply --require-tip`. */
  readonly beforeFirstWrite?: () => void | Promise<void>;
}

export type FreshApply =
  | { readonly kind: "applied"; readonly plan: Plan; readonly result: ApplyResult }
  | { readonly kind: "no-changes"; readonly plan: Plan }
  | { readonly kind: "cancelled"; readonly plan: Plan }
  /** An interrupt came before the first write: nothing was sent. */
  | { readonly kind: "interrupted"; readonly plan: Plan };

export interface FreshApplyHooks extends ApplyHooks {
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
export async function applyFresh(
  desired: readonly DesiredList[],
  session: Session,
  options: RunOptions,
  createdAt: Date,
  hooks: FreshApplyHooks,
  now?: string,
): Promise<FreshApply> {
  const interrupted = (): boolean => options.signal?.aborted === true;
  const plan = await getPlan(desired, session, createdAt, now);
  if (interrupted()) return { kind: "interrupted", plan };
  hooks.planReady?.(plan);
  checkPlanIsApplicable(plan, options);
  if (!hasChanges(plan)) return { kind: "no-changes", plan };
  const approved = await hooks.confirm(plan);
  if (interrupted()) return { kind: "interrupted", plan };
  if (!approved) return { kind: "cancelled", plan };
  const recheck = hooks.recheckAfterConfirm ? { checkStale: "confirmed" as const } : {};
  return { kind: "applied", plan, result: await execute(plan, session, { ...options, ...recheck }) };
}

function execute(plan: Plan, session: Session, options: RunOptions & { checkStale?: "saved" | "confirmed" }): Promise<ApplyResult> {
  return applyPlan(plan, session.client, {
    ...options,
    parallelism: session.parallelism,
    onProgress: (done, total) => session.onProgress?.("apply", done, total),
  });
}

/**
 * Reads live rules (every rule of the tenant with ruleIds null) and generates their declarations.
 * Throws an ImportError, writing nothing, when a requested rule does not exist or a list cannot be read.
 * `fileName` (the module's file, as the user named it) goes into the header's command that runs it.
 */
export async function importRules(session: Session, ruleIds: readonly string[] | null, functionName: string, fileName?: string): Promise<ImportCode> {
  const metadata = await searchRules(session.client, ruleIds, session.connection.tenantId, session.pageSize);
  if (ruleIds !== null) {
    const found = new Set(metadata.map((m) => m.observerRuleId));
    const missing = ruleIds.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new ImportError(`import: no rule with observerRuleId ${missing.join(", ")} in this tenant; nothing was written. Check the IDs (the rule search of the console shows them).`);
    }
  }
  const rules = [...metadata].sort(byNameThenId);
  const read = await readRuleLists(session.client, rules, {
    parallelism: session.parallelism,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  const failed = read.filter((r) => r.failure !== null);
  if (failed.length > 0) {
    throw new ImportError(
      "import: nothing was written: these rule lists could not be read:\n" +
        failed.map((r) => `  "${r.rule.name}" (${r.rule.observerRuleId}): ${r.failure ?? ""}`).join("\n") +
        "\nRun import again (the service may have been unavailable).",
    );
  }
  return generateImportCode(
    read.map(({ rule, list }) => ({ rule, list })),
    { functionName, toolVersion: TOOL_VERSION, ...(fileName === undefined ? {} : { fileName }) },
  );
}

/**
 * Every rule of the tenant with its list, live: one metadata search (every page) and one
 * query-users per editable rule (system rules are not read). Throws a LiveReadError naming every
 * list that could not be read: `rules list` and `who` never print a partial answer.
 */
export async function readLiveRules(session: Session, command: string): Promise<LiveRule[]> {
  const metadata = await searchRules(session.client, null, session.connection.tenantId, session.pageSize);
  const read = await readRuleLists(session.client, metadata, {
    parallelism: session.parallelism,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  const failed = read.filter((r) => r.failure !== null);
  if (failed.length > 0) {
    throw new LiveReadError(
      `${command}: these rule lists could not be read, so the answer would be incomplete:\n` +
        failed.map((r) => `  "${r.rule.name}" (${r.rule.observerRuleId}): ${r.failure ?? ""}`).join("\n") +
        `\nRun ${command} again (the service may have been unavailable).`,
    );
  }
  return read.map(({ rule, list }) => ({ rule, list }));
}

function byNameThenId(a: { name: string; observerRuleId: string }, b: { name: string; observerRuleId: string }): number {
  const ka = [a.name.toLowerCase(), a.name, a.observerRuleId];
  const kb = [b.name.toLowerCase(), b.name, b.observerRuleId];
  for (let i = 0; i < ka.length; i += 1) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}
