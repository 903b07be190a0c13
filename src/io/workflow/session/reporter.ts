/**
 * What a command's run tells the front door that started it, while it runs: warnings and notes
 * as sentences, retries and progress as plain events. The CLI writes them on stderr
 * (src/cli/reporter.ts); nothing in the workflow knows a stream.
 */
import type { RateLimiterState, RequestEvent, RetryPolicy } from "../../../api";

/** A request that failed and is sent again. */
export interface RetryReport {
  /** The attempt that failed (`outcome` "retry"). */
  readonly event: RequestEvent;
  /** Where the session sends its requests (it may carry a password: a door shows it without). */
  readonly baseUrl: string;
  readonly policy: Pick<RetryPolicy, "maxAttempts" | "maxRateLimitRetries">;
  /** After a 429: the most requests a second the run sends from now on. */
  readonly rps: number | undefined;
}

/** How far a long phase is: reading the rule lists, or applying. */
export interface ProgressReport {
  readonly phase: "observe" | "apply";
  readonly done: number;
  readonly total: number;
  /** The rate limiter at that moment (throttled by the service, capped by --max-rps). */
  readonly rate: RateLimiterState | undefined;
}

export interface RunReporter {
  /** Something works but needs the user's attention (a CLI shows "Warning: " and the sentence). */
  warn(message: string): void;
  /** Something the user should know (a CLI shows "Note: " and the sentence). */
  note(message: string): void;
  /** A line for the user as it is (it carries its own label, or none). */
  say(line: string): void;
  retry(report: RetryReport): void;
  progress(report: ProgressReport): void;
  /** The long phases are over: a result or a question follows. */
  idle(): void;
}
