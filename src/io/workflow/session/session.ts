/**
 * What every step of the workflow is given: where the declaration comes from (SynthSettings), a
 * connected run (Session) and the options of a run that writes (RunOptions).
 */
import type { RuleListClient } from "../../../api";
import type { AdmittedPlan } from "../../../core/engine/admission";
import type { ApplyResult } from "../../../core/engine/apply-results";
import type { GuardOptions } from "../../../core/engine/guards";
import type { ListRead, RuleFacts } from "../../../core/engine/observation";
import type { ApplyOptions } from "../../execute";

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

/**
 * A connected run: the client, where it points, the engine settings, and what an apply asks of
 * the service and of the secrets registry once its plan is made, each bound to this run
 * (connectedSession, src/io/workflow/session/connect.ts, makes them). The workflow checks; the session
 * reads, sends and redacts. They are bound when the session is made: a copy that overrides
 * `client`, `parallelism` or `onProgress` still reads and sends with the old ones, so make a new
 * session with connectedSession instead.
 */
export interface Session {
  readonly client: RuleListClient;
  readonly connection: { readonly baseUrl: string; readonly tenantId: string };
  readonly parallelism: number;
  readonly pageSize: number;
  readonly batchSize: number;
  /** Progress of the long phases (reading lists, applying rules). */
  readonly onProgress?: (phase: "observe" | "apply", done: number, total: number) => void;
  /** Reads the given rules' lists now, `parallelism` at once, in order (src/io/fresh-read.ts). */
  readonly readAgain: (rules: readonly RuleFacts[]) => Promise<ListRead[]>;
  /**
   * Sends an admitted plan and verifies each rule, `parallelism` rules at once, with the run's
   * progress (src/io/execute.ts). Checks nothing before writing: it takes only a plan that the
   * workflow's admission marked (AdmittedPlan, src/core/engine/admission.ts).
   */
  readonly send: (plan: AdmittedPlan, options: SendOptions) => Promise<ApplyResult>;
  /** `value` with every registered secret and each of `secrets` removed from its strings, in every form (src/api/http/redact.ts). */
  readonly redact: <T>(value: T, secrets?: readonly string[]) => T;
}

/** What a run adds to the session's own settings when it sends a plan: its interrupt, and the check before every write. */
export type SendOptions = Pick<ApplyOptions, "signal" | "beforeEachWrite">;

/** The guards, and the signal of an interrupt (src/cli/interrupt.ts): once aborted, no new call starts. */
export interface RunOptions extends GuardOptions {
  readonly signal?: AbortSignal;
  /**
   * `apply --require-tip REF`: write only when the checkout at `cwd` is REF's tip, checked when the
   * admission starts (before any request) and again right before the first write (src/io/git/tip.ts).
   */
  readonly requireTip?: { readonly ref: string; readonly cwd: string };
}
