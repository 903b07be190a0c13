/**
 * The error hierarchy of alert-rule-users.
 *
 * Every error the tool raises on purpose is an {@link AlertRuleUsersError}: it carries a stable
 * `code` and a message that says what happened and how to fix it. The CLI has one top-level
 * catch that maps these to exit codes; anything else is a bug and is reported as such.
 *
 * No message built here may contain a bearer token: errors that wrap HTTP failures are built
 * from redacted data only (see src/api/redact.ts).
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
  | "APPLY_FAILED"
  | "INVALID_ARGUMENT";

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
