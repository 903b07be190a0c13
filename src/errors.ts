/**
 * The error hierarchy of alert-rule-users: every error of the tool's own, in one module (the
 * client's HTTP errors sit beside the client, in src/api/http/errors.ts).
 *
 * Every error the tool raises on purpose is an {@link AlertRuleUsersError}: it carries a stable
 * `code` and a message that says what happened and how to fix it. The CLI has one top-level
 * catch that maps these to exit codes; anything else is a bug and is reported as such.
 *
 * No message built here may contain a bearer token: errors that wrap HTTP failures are built
 * from redacted data only (see src/api/http/redact.ts).
 */
export type ErrorCode =
  | "USAGE"
  | "CONFIG"
  | "DECLARATION"
  | "SYNTH"
  | "PLAN_FILE"
  | "STALE_PLAN"
  | "MASS_REMOVAL"
  | "UNRESOLVED_RULES"
  | "API"
  | "RESPONSE_SHAPE"
  | "READ_LIMIT"
  | "OUTPUT_FILE"
  | "APPLY_FAILED"
  | "INVALID_ARGUMENT"
  | "CONNECTION_MISMATCH"
  | "IMPORT"
  | "LIVE_READ"
  | "CREDENTIALS"
  | "PLAN_TOO_OLD"
  | "EXPIRED_USERS"
  | "TIP_MISMATCH"
  | "CHANGED_SINCE"
  | "UNREVIEWED_DECLARATIONS";

export class AlertRuleUsersError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }

  /** A plain, token-free representation (for `--format json` error output and logs). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Wrong command-line usage: unknown flag, missing argument, bad value. */
export class UsageError extends AlertRuleUsersError {
  constructor(message: string) {
    super("USAGE", message);
  }
}

/** Missing or invalid connection settings or configuration files. */
export class ConfigError extends AlertRuleUsersError {
  constructor(message: string) {
    super("CONFIG", message);
  }
}

/** A value refused before any request is sent (bad case number, bad event ID, bad filter). */
export class InvalidArgumentError extends AlertRuleUsersError {
  constructor(message: string) {
    super("INVALID_ARGUMENT", message);
  }
}

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

/** A plan file that cannot be read, is not a plan, is of another format version, or was modified. */
export class PlanFileError extends AlertRuleUsersError {
  constructor(message: string) {
    super("PLAN_FILE", message);
  }
}

/** A file the tool was asked to write (--out, a report, --data) that cannot be written there. */
export class OutputFileError extends AlertRuleUsersError {
  /** The system's error code (ENOENT, EACCES, ...). */
  readonly reason: string;

  constructor(message: string, reason: string) {
    super("OUTPUT_FILE", message);
    this.reason = reason;
  }
}

/** A saved plan whose observed lists no longer match: nothing was sent. */
export class StalePlanError extends AlertRuleUsersError {
  readonly staleRules: readonly string[];
  constructor(message: string, staleRules: readonly string[]) {
    super("STALE_PLAN", message);
    this.staleRules = staleRules;
  }
}

/** A saved plan made against another service or tenant than this run's: nothing was sent. */
export class ConnectionMismatchError extends AlertRuleUsersError {
  constructor(message: string) {
    super("CONNECTION_MISMATCH", message);
  }
}

/** The mass-removal guard refused the plan: nothing was sent. */
export class MassRemovalError extends AlertRuleUsersError {
  constructor(message: string) {
    super("MASS_REMOVAL", message);
  }
}

/** Unknown, ambiguous or duplicated rules in the declaration: nothing was sent. */
export class UnresolvedRulesError extends AlertRuleUsersError {
  constructor(message: string) {
    super("UNRESOLVED_RULES", message);
  }
}

/** `import` cannot write what was asked: a rule asked for by ID does not exist, a list cannot be read. */
export class ImportError extends AlertRuleUsersError {
  constructor(message: string) {
    super("IMPORT", message);
  }
}

/** `rules list` or `who` could not read every list it needs: an incomplete answer is never printed. */
export class LiveReadError extends AlertRuleUsersError {
  constructor(message: string) {
    super("LIVE_READ", message);
  }
}

/**
 * The app and alert-rule-users do not share one copy of `constructs` and of cdktf (or cdktn), or a
 * copy is outside the supported versions: thrown when a RuleUserList is created.
 */
export class IncompatibleDependenciesError extends ConfigError {}

/** A saved plan older than `--max-plan-age` (or whose createdAt is in the future): nothing was sent. */
export class PlanTooOldError extends AlertRuleUsersError {
  constructor(message: string) {
    super("PLAN_TOO_OLD", message);
  }
}

/** A saved plan that would add users whose expiresAt has passed by the real clock: nothing was sent. */
export class ExpiredUsersError extends AlertRuleUsersError {
  constructor(message: string) {
    super("EXPIRED_USERS", message);
  }
}

/** `apply --require-tip REF`: the checked-out commit is not REF's tip (or REF cannot be resolved): nothing was sent. */
export class TipMismatchError extends AlertRuleUsersError {
  constructor(message: string) {
    super("TIP_MISMATCH", message);
  }
}

/**
 * `apply PLANFILE --require-declarations`: the declarations synthesized now are not those the plan
 * covered (a change no reviewed plan showed), or the plan records none: nothing was sent.
 */
export class UnreviewedDeclarationsError extends AlertRuleUsersError {
  constructor(message: string) {
    super("UNREVIEWED_DECLARATIONS", message);
  }
}

/** Why `plan --changed-since REF` could not tell what changed. */
export type ChangedSinceCause = "not-a-git-checkout" | "unknown-ref" | "ref-synth-failed" | "ref-worktree";

/**
 * `plan --changed-since REF` cannot compare with REF: not a git checkout, REF unknown, REF's app
 * fails to synthesize (docs/contract.md §10.1). Raised before anything is read; never a full plan instead.
 */
export class ChangedSinceError extends AlertRuleUsersError {
  readonly reason: ChangedSinceCause;
  constructor(reason: ChangedSinceCause, message: string, options?: { cause?: unknown }) {
    super("CHANGED_SINCE", message, options);
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}
