/**
 * What every step of the workflow is given: where the declaration comes from (SynthSettings), a
 * connected run (Session) and the options of a run that writes (RunOptions).
 */
import type { RuleListClient } from "../../api";
import type { GuardOptions } from "../../core/guards";
import type { RuleObservation } from "../../core/observation";
import type { RuleReference } from "../observe";

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
  /**
   * How a plan resolves its rules (each found without its list, not found, or ambiguous, in the
   * given order). The provider sets it so that the many one-rule runs Terraform starts at once share
   * their metadata searches (src/io/workflow/one-rule.ts, RuleLookup).
   * @default - one search of the plan's own
   */
  readonly lookupRules?: (references: readonly RuleReference[]) => Promise<RuleObservation[]>;
}

/** The guards, and the signal of an interrupt (src/cli/interrupt.ts): once aborted, no new call starts. */
export interface RunOptions extends GuardOptions {
  readonly signal?: AbortSignal;
  /**
   * `apply --require-tip REF`: write only when the checkout at `cwd` is REF's tip, checked when the
   * admission starts (before any request) and again right before the first write (src/io/git/tip.ts).
   */
  readonly requireTip?: { readonly ref: string; readonly cwd: string };
}
