/**
 * The client-side rate limiter: one token bucket shared by every request of a run (reads,
 * writes and retries alike), whose fill rate follows the service, in the manner of the AWS SDKs'
 * adaptive retry mode (`DefaultRateLimiter` in aws-sdk-js-v3 util-retry), written for a service
 * whose limit is a few requests a second rather than thousands:
 *
 * - **Off until the service pushes back.** Without `--max-rps` nothing is gated until the first
 *   429: a service without a limit pays nothing.
 * - **Cut multiplicatively on a 429.** The first 429 sets the rate to `beta` × what the service
 *   admitted in the second before it (a token bucket's burst is about its rate). Later 429s set it to
 *   `beta` × the lower of the current rate and the rate the service admitted over the last
 *   `windowMs` (the admitted rate is what the limit really is; the rate at the 429 overshoots it
 *   by the burst the service let through). A 429 for a request sent before the last cut says
 *   nothing new and does not cut again.
 * - **Grow back on success.** Until the second 429 the rate grows fast (`probeGrowth` of itself a
 *   second), to find the limit; from then on slowly (`growth` of the estimated limit a second),
 *   so the run sits just under the limit and probes above it rarely.
 * - **Retry-After** stays with the request it was sent for: the transport waits it before that
 *   request's retry (which takes a token like any send). It does not stop the other requests: a
 *   service may ask one request to wait without being out of capacity, and against a token
 *   bucket the cut spacing already waits about as long.
 * - **`maxRps`** (`--max-rps N`) is a hard cap: sends are spaced at least 1/N s apart, so no
 *   window of one second ever holds more than N sends. The adaptive rate can only go below it.
 *
 * The bucket holds one token (sends are spaced, never burst), so a cut takes effect at once. The
 * clock and the sleep are injected: tests drive the limiter without waiting.
 * A 429 cuts only if its request was sent after the last cut (tickets count the sends).
 */
import { InvalidArgumentError } from "../errors";
import { realSleep, type Sleep } from "./retry";

export interface RateLimiterOptions {
  /** Hard cap, requests a second (`--max-rps`). @default - no cap */
  readonly maxRps?: number | undefined;
  /** Follow the service's 429s. @default true */
  readonly adaptive?: boolean | undefined;
  /** The rate is multiplied by this on a 429. @default 0.95 */
  readonly beta?: number | undefined;
  /** Growth once the limit is known: this fraction of the limit, per second. @default 0.0025 */
  readonly growth?: number | undefined;
  /** Growth while looking for the limit (before the second 429): this fraction of the rate, per second. @default 0.1 */
  readonly probeGrowth?: number | undefined;
  /** Window of the admitted rate. @default 10000 */
  readonly windowMs?: number | undefined;
  /** The adaptive rate never goes below this. @default 0.5 */
  readonly minRps?: number | undefined;
  /** Milliseconds on a clock that never goes back. @default - performance.now */
  readonly now?: (() => number) | undefined;
  /** @default - a real timer */
  readonly sleep?: Sleep | undefined;
}

/** What the limiter is doing, for progress lines and reports. */
export interface RateLimiterState {
  /** True once the service answered 429 (the adaptive rate is in force). */
  readonly throttled: boolean;
  /** The rate sends are spaced at now, requests a second; undefined when nothing gates them. */
  readonly rps: number | undefined;
  readonly maxRps: number | undefined;
  /** 429s that cut the rate. */
  readonly cuts: number;
  /** 429s seen in all. */
  readonly throttles: number;
}

/** How an attempt ended, as the limiter needs it. */
export interface SendOutcome {
  /** The service answered 429. */
  readonly throttled: boolean;
}

/**
 * Tuned against a token bucket of 2 and of 50 requests a second (the simulator's) with four
 * workers: a 5 % cut and a slow climb keep a 200-request run within about 5 % of the limit's
 * pace with about 2.5 % of the requests refused, most of them in the first second.
 */
const DEFAULTS = { beta: 0.95, growth: 0.0025, probeGrowth: 0.1, windowMs: 10_000, minRps: 0.5 } as const;
/** The first 429's estimate: what the service admitted in this last stretch. */
const FIRST_ESTIMATE_MS = 1000;
/** Below this much history the admitted rate is not used (too few requests to mean anything). */
const MIN_HISTORY_MS = 2000;

export class RateLimiter {
  readonly maxRps: number | undefined;
  readonly adaptive: boolean;
  readonly #beta: number;
  readonly #growth: number;
  readonly #probeGrowth: number;
  readonly #windowMs: number;
  readonly #minRps: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;

  /** Earliest time of the next send (the one-token bucket). */
  #nextAt = -Infinity;
  /** The adaptive rate: undefined until the first 429. */
  #cut: { readonly at: number; readonly rps: number; readonly limit: number | undefined; readonly lastTicket: number } | undefined;
  /** Sends so far: the tickets. */
  #sent = 0;
  #firstThrottleAt: number | undefined;
  #cuts = 0;
  #throttles = 0;
  /** Times of admitted (non-429) answers within the window. */
  #admitted: number[] = [];

  constructor(options: RateLimiterOptions = {}) {
    const problems: string[] = [];
    const positive = (name: string, value: number | undefined, max = Infinity) => {
      if (value !== undefined && !(Number.isFinite(value) && value > 0 && value <= max)) {
        problems.push(`${name} must be a number above 0${max === Infinity ? "" : ` and at most ${max}`} (got ${value})`);
      }
    };
    positive("maxRps", options.maxRps);
    positive("beta", options.beta, 1);
    positive("growth", options.growth);
    positive("probeGrowth", options.probeGrowth);
    positive("windowMs", options.windowMs);
    positive("minRps", options.minRps);
    if (problems.length > 0) throw new InvalidArgumentError(`Invalid rate limiter: ${problems.join("; ")}.`);
    this.maxRps = options.maxRps;
    this.adaptive = options.adaptive ?? true;
    this.#beta = options.beta ?? DEFAULTS.beta;
    this.#growth = options.growth ?? DEFAULTS.growth;
    this.#probeGrowth = options.probeGrowth ?? DEFAULTS.probeGrowth;
    this.#windowMs = options.windowMs ?? DEFAULTS.windowMs;
    this.#minRps = Math.min(options.minRps ?? DEFAULTS.minRps, options.maxRps ?? Infinity);
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? realSleep;
  }

  /**
   * Waits until a request may be sent, and takes its token. Returns the send's ticket, to be
   * given back to {@link settle} with the answer.
   */
  async acquire(): Promise<number> {
    for (;;) {
      const now = this.#now();
      const rps = this.#rps(now);
      const earliest = rps === undefined ? -Infinity : this.#nextAt;
      if (now >= earliest) {
        if (rps !== undefined) this.#nextAt = Math.max(this.#nextAt, now) + 1000 / rps;
        this.#sent += 1;
        return this.#sent;
      }
      // Sleep, then look again: a 429 meanwhile may have cut the rate.
      await this.#sleep(earliest - now);
    }
  }

  /** Reports how the attempt of `ticket` (from {@link acquire}) was answered. */
  settle(ticket: number, outcome: SendOutcome): void {
    const now = this.#now();
    if (!outcome.throttled) {
      this.#admitted.push(now);
      this.#forget(now);
      return;
    }
    this.#throttles += 1;
    if (!this.adaptive) return;
    // Sent before the last cut: that request was already counted against the old rate.
    if (this.#cut !== undefined && ticket <= this.#cut.lastTicket) return;
    this.#forget(now);
    let limit: number | undefined;
    let rps: number;
    if (this.#firstThrottleAt === undefined) {
      this.#firstThrottleAt = now;
      rps = this.#beta * (this.#admittedSince(now - FIRST_ESTIMATE_MS) / (FIRST_ESTIMATE_MS / 1000));
    } else {
      const current = this.#adaptiveRps(now) ?? Infinity;
      const history = Math.min(this.#windowMs, now - this.#firstThrottleAt);
      const admitted = history >= MIN_HISTORY_MS ? this.#admittedSince(now - history) / (history / 1000) : Infinity;
      limit = Math.max(this.#minRps, Math.min(current, admitted));
      rps = this.#beta * limit;
    }
    rps = Math.max(this.#minRps, rps);
    if (this.maxRps !== undefined) rps = Math.min(rps, this.maxRps);
    this.#cut = { at: now, rps, limit, lastTicket: this.#sent };
    this.#cuts += 1;
    // The next send waits for the new spacing, counted from now.
    this.#nextAt = Math.max(this.#nextAt, now + 1000 / rps);
  }

  state(): RateLimiterState {
    return {
      throttled: this.#cut !== undefined,
      rps: this.#rps(this.#now()),
      maxRps: this.maxRps,
      cuts: this.#cuts,
      throttles: this.#throttles,
    };
  }

  /** The rate sends are spaced at: the adaptive rate under the cap, or undefined when ungated. */
  #rps(now: number): number | undefined {
    const adaptive = this.#adaptiveRps(now);
    if (adaptive === undefined) return this.maxRps;
    return this.maxRps === undefined ? adaptive : Math.min(adaptive, this.maxRps);
  }

  #adaptiveRps(now: number): number | undefined {
    const cut = this.#cut;
    if (cut === undefined) return undefined;
    const seconds = Math.max(0, now - cut.at) / 1000;
    if (cut.limit === undefined) return cut.rps * (1 + this.#probeGrowth * seconds);
    return cut.rps + this.#growth * cut.limit * seconds;
  }

  #admittedSince(from: number): number {
    let count = 0;
    for (let i = this.#admitted.length - 1; i >= 0 && (this.#admitted[i] ?? -Infinity) > from; i -= 1) count += 1;
    return count;
  }

  #forget(now: number): void {
    const horizon = now - Math.max(this.#windowMs, FIRST_ESTIMATE_MS);
    let drop = 0;
    while (drop < this.#admitted.length && (this.#admitted[drop] ?? Infinity) <= horizon) drop += 1;
    if (drop > 0) this.#admitted.splice(0, drop);
  }
}
