/**
 * The simulator's rate limit (`--rate-limit-rps R`): one token bucket per simulator, shared by
 * every client, refilled at R tokens a second and holding at most R (a burst of one second).
 * A request that finds no token is answered 429 with a truthful wait: a request sent after
 * `Retry-After` (whole seconds, rounded up) or `Retry-After-Ms` finds a token, unless another
 * client took it first.
 */

export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

/** Milliseconds from an arbitrary origin that never goes back. */
export type MonotonicClock = () => number;

export const monotonicNow: MonotonicClock = () => performance.now();

export class TokenBucket {
  readonly rps: number;
  readonly capacity: number;
  #tokens: number;
  #last: number;
  readonly #now: MonotonicClock;

  /** `rps` > 0: the refill rate and the burst (capacity at least 1). Starts full. */
  constructor(rps: number, now: MonotonicClock = monotonicNow) {
    if (!Number.isFinite(rps) || rps <= 0) throw new RangeError(`rateLimitRps must be a number above 0, not ${rps}`);
    this.rps = rps;
    this.capacity = Math.max(1, rps);
    this.#now = now;
    this.#tokens = this.capacity;
    this.#last = now();
  }

  /** Takes one token, or says how long until one is there. */
  take(): RateDecision {
    const now = this.#now();
    this.#tokens = Math.min(this.capacity, this.#tokens + ((now - this.#last) * this.rps) / 1000);
    this.#last = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.max(1, Math.ceil(((1 - this.#tokens) * 1000) / this.rps)) };
  }
}

/** The headers of a 429 for a wait of `retryAfterMs`: whole seconds (rounded up, at least 1) and milliseconds. */
export function retryAfterHeaders(retryAfterMs: number): Record<string, string> {
  return { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))), "Retry-After-Ms": String(Math.ceil(retryAfterMs)) };
}
