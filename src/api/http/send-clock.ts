/**
 * Where a rate limiter keeps the time of its next send and what the service's 429s taught it
 * (src/api/http/rate-limiter.ts): its own clock by default; the provider processes of one Terraform
 * command share one in a file (src/io/terraform-run.ts), so `max_rps` bounds them together and a
 * limit one of them learned paces the others at once (design §13.2).
 */

/** What a {@link SendClock} keeps: the earliest time of the next send, a count of the sends spaced, and what the service's 429s taught. */
export interface SendClockState {
  /** Earliest time of the next send (ms on the clock's `now`). */
  readonly nextAt: number;
  /** Sends taken under a rate so far (a pair's second send checks that none came between). */
  readonly sends: number;
  /** The service's limit as measured, where the cuts began, and how often it refused whatever the rate; undefined until learned. */
  readonly learned?: LearnedLimit | undefined;
}

/** A limit learned from the service's 429s, as another limiter of the run starts from it. */
export interface LearnedLimit {
  readonly limit: number;
  /** The rate the limiter that learned it sends at (at the limit's pace, or back where the cuts began once its 429s were found periodic). */
  readonly rps?: number | undefined;
  /** The rate the cuts began at, and the share of requests refused then (PERIODIC). */
  readonly episodeRps: number;
  readonly episodeFraction: number;
  /** The share of requests the service refuses whatever the rate, once found. */
  readonly periodic?: number | undefined;
}

/**
 * Where the next send's time is kept. Every change goes through `update`, atomically for every
 * limiter that shares the clock (one process: the limiter's own; the processes of one Terraform
 * command: a file, src/io/terraform-run.ts). `now` is the clock all of them read.
 */
export interface SendClock {
  now(): number;
  update<T>(step: (state: SendClockState) => { readonly state: SendClockState; readonly result: T }): T;
  /** The state as last written (no lock: for a look at `learned`). */
  peek(): SendClockState;
}

/** A clock of one limiter (the default). */
export class LocalSendClock implements SendClock {
  #state: SendClockState = { nextAt: -Infinity, sends: 0 };
  constructor(readonly now: () => number = () => performance.now()) {}
  update<T>(step: (state: SendClockState) => { readonly state: SendClockState; readonly result: T }): T {
    const { state, result } = step(this.#state);
    this.#state = state;
    return result;
  }
  peek(): SendClockState {
    return this.#state;
  }
}
