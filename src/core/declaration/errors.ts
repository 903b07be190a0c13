import { AlertRuleUsersError } from "../../errors";

/** One failure of a declaration: the construct path (or file location) and what is wrong. */
export interface DeclarationFailure {
  readonly path: string;
  readonly message: string;
}

/**
 * One or more invalid rule-list declarations. The message lists every failure, one per line,
 * each prefixed with the construct path, so a user can fix them all in one go.
 */
export class DeclarationError extends AlertRuleUsersError {
  readonly failures: readonly DeclarationFailure[];

  constructor(failures: readonly DeclarationFailure[], heading = "Invalid RuleUserList declaration") {
    super("DECLARATION", `${heading}:\n${failures.map((f) => `  [${f.path}] ${f.message}`).join("\n")}`);
    this.failures = [...failures];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), failures: this.failures.map((f) => ({ path: f.path, message: f.message })) };
  }
}

/** Details of a failed synth: the command run, its exit code (or signal) and the end of its stderr. */
export interface SynthFailure {
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: string;
}

/** The cdktf app could not be run or did not synthesize. */
export class SynthError extends AlertRuleUsersError {
  readonly details: SynthFailure | undefined;

  constructor(message: string, details?: SynthFailure, options?: { cause?: unknown }) {
    super("SYNTH", message, options);
    this.details = details;
  }
}
