/**
 * The deadline of one request: all its attempts and the waits between them must end within the
 * request's own deadline, or the run's when that comes first (src/api/http/read-limits.ts). Gives
 * each attempt its time limit (the per-attempt timeout, or what is left when that is less) and
 * the error that names whichever deadline passed.
 */
import { ReadLimitError } from "./errors";
import { ENV_REQUEST_DEADLINE_SECONDS, ENV_RUN_DEADLINE_SECONDS, RUN_DEADLINE_FLAG, seconds } from "./read-limits";

/**
 * The deadline of a run, shared by every request: when it passes, no attempt starts and no wait
 * goes on. `at` is on the transport's clock; `ms` and `source` (the flag or variable that set it)
 * are for the message.
 */
export interface RunDeadline {
  readonly at: number;
  readonly ms: number;
  readonly source: string;
}

export interface RequestDeadlineOptions {
  readonly now: () => number;
  /** The request's own deadline, from its start. */
  readonly requestDeadlineMs: number;
  /** Time limit of each attempt. */
  readonly timeoutMs: number;
  readonly runDeadline: RunDeadline | undefined;
}

/** The deadline of one request, started when it is made. */
export class RequestDeadline {
  /** When the request must be over, on the clock of `now`. */
  readonly at: number;
  /** The run's deadline comes first (the errors name it). */
  readonly byRun: boolean;
  readonly #options: RequestDeadlineOptions;

  constructor(options: RequestDeadlineOptions) {
    this.#options = options;
    const ownAt = options.now() + options.requestDeadlineMs;
    const run = options.runDeadline;
    this.byRun = run !== undefined && run.at <= ownAt;
    this.at = run !== undefined && this.byRun ? run.at : ownAt;
  }

  /** The deadline has come. */
  passed(): boolean {
    return this.#options.now() >= this.at;
  }

  /** A wait of `delayMs` from now would reach the deadline. */
  reachedAfter(delayMs: number): boolean {
    return this.#options.now() + delayMs >= this.at;
  }

  /**
   * How long the next attempt may take: the per-attempt timeout, or what is left of the deadline
   * when that is less. Throws the deadline's error when nothing is left.
   */
  attemptBudget(operation: string, ruleId: string | undefined, attemptsMade: number): number {
    const left = this.at - this.#options.now();
    if (left <= 0) throw this.reached(operation, ruleId, attemptsMade);
    return Math.min(this.#options.timeoutMs, left);
  }

  /** The deadline's error, after `attempts` attempts of the request. */
  reached(operation: string, ruleId: string | undefined, attempts: number): ReadLimitError {
    const { runDeadline, requestDeadlineMs, timeoutMs } = this.#options;
    const tries = `${attempts} attempt${attempts === 1 ? "" : "s"}`;
    if (this.byRun && runDeadline !== undefined) {
      return new ReadLimitError({
        operation,
        ruleId,
        limit: "run-deadline",
        what: `the run's deadline of ${seconds(runDeadline.ms)} (${runDeadline.source}) passed (${tries} of this request); no further request is started`,
        fix: `If the run needs longer, raise ${RUN_DEADLINE_FLAG} SECONDS or ${ENV_RUN_DEADLINE_SECONDS}; otherwise check the service (it may be answering 429 or failing every request).`,
      });
    }
    return new ReadLimitError({
      operation,
      ruleId,
      limit: "deadline",
      what:
        attempts === 0
          ? `the request could not start within its overall deadline of ${seconds(requestDeadlineMs)}: waiting for its turn at the rate limiter (--max-rps, or the pace the service's 429s set) took all of it`
          : `the request did not complete within its overall deadline of ${seconds(requestDeadlineMs)} (${tries}, each allowed ${seconds(timeoutMs)}, and the waits between them)`,
      fix: `If the service is this slow, raise ${ENV_REQUEST_DEADLINE_SECONDS}; otherwise check the service, which keeps the answer from ending.`,
    });
  }
}
