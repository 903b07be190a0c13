/**
 * The client-side rate limiter: one token bucket shared by every request of a run (reads,
 * writes and retries alike), whose fill rate follows the service, in the manner of the AWS SDKs'
 * adaptive retry mode (`DefaultRateLimiter` in aws-sdk-js-v3 util-retry), written for a service
 * whose limit is a few requests a second rather than thousands:
 *
 * - **Off until the service pushes back, after a slow start.** Without `--max-rps` nothing is
 *   spaced until the first 429. Until then the requests in flight are capped as TCP's slow start
 *   caps its window: one at first, one more for each answer the service admits (so 1, 2, 4, ...
 *   per round trip). A service without a limit pays a round trip or two; a limited one refuses
 *   the one to three requests that overran its burst, not every worker's.
 * - **Cut on a 429.** The first 429 sets the rate to `beta` × what the service admitted in the
 *   second before it (a token bucket's burst is about its rate).
 * - **Measure the limit between refusals.** A 429 is a moment the service's bucket was empty.
 *   Between two such moments the requests it admitted (counted by send time) are what it
 *   refilled, to within one request, so their count over the span is its rate. A later 429 sets
 *   the limit to that rate, measured from the earliest 429 of the last `windowMs` (the longer the
 *   span, the closer), and the rate to `measuredBeta` × the limit: a margin for the bucket to
 *   refill a little. With fewer than 20 admitted in between there is nothing to measure yet: the
 *   rate went over the limit soon after the last cut, so it goes back to that cut's rate and
 *   takes it as the limit. A 429 for a request sent before the last cut says nothing new and
 *   does not cut again.
 * - **Grow back on success.** Until the second 429 the rate grows fast (`probeGrowth` of itself
 *   a second), to find the limit; from then on slowly (`growth` of the limit a second: 4 % a
 *   minute), so the run sits just under the limit and probes above it rarely.
 * - **429s that do not follow the rate** (a service that refuses every Nth request whatever the
 *   rate): once the cuts have taken the rate a tenth below where they began while the service
 *   refuses about as often as before, the rate goes back to where they began, and refusals no more
 *   frequent than that no longer cut it (PERIODIC).
 * - **Retry-After** stays with the request it was sent for: the transport waits it before that
 *   request's retry (which takes a token like any send). It does not stop the other requests: a
 *   service may ask one request to wait without being out of capacity, and against a token
 *   bucket the cut spacing already waits about as long.
 * - **`maxRps`** (`--max-rps N`) is a hard cap: sends are spaced at least 1/N s apart, so no
 *   window of one second ever holds more than N sends, but for one exception: the read that
 *   guards remove-all-users and the call go out back to back ({@link RateLimiter.acquirePair}),
 *   with two intervals kept free on either side, so the pair never raises the average. The
 *   adaptive rate can only go below it.
 *
 * - **One rate for several processes**: the time of the next send and the learned limit live in a
 *   {@link SendClock} (src/api/http/send-clock.ts).
 *
 * The bucket holds one token (sends are spaced, never burst), so a cut takes effect at once. The
 * clock and the sleep are injected: tests drive the limiter without waiting. Every ticket
 * {@link RateLimiter.acquire} hands out goes back through {@link RateLimiter.settle} (answered)
 * or {@link RateLimiter.cancel} (never sent), or the slow start would wait for it forever.
 */
import { InvalidArgumentError } from "../../errors";
import { realSleep, type Sleep } from "./retry";
import { LocalSendClock, type LearnedLimit, type SendClock } from "./send-clock";
export { LocalSendClock, type LearnedLimit, type SendClock, type SendClockState } from "./send-clock";

export interface RateLimiterOptions {
  /** Hard cap, requests a second (`--max-rps`). @default - no cap */
  readonly maxRps?: number | undefined;
  /** Follow the service's 429s. @default true */
  readonly adaptive?: boolean | undefined;
  /** The rate is multiplied by this on the first 429. @default 0.98 */
  readonly beta?: number | undefined;
  /** On later 429s, the rate becomes this times the measured limit. @default 0.99 */
  readonly measuredBeta?: number | undefined;
  /** Growth after the second 429: this fraction of the limit, per second. @default 0.0007 */
  readonly growth?: number | undefined;
  /** Growth while looking for the limit (until the second 429): this fraction of the rate, per second. @default 0.1 */
  readonly probeGrowth?: number | undefined;
  /** Longest span the limit is measured over. @default 60000 */
  readonly windowMs?: number | undefined;
  /** The adaptive rate never goes below this. @default 0.5 */
  readonly minRps?: number | undefined;
  /** Cap the requests in flight before the first 429 (1, then one more per admitted answer; not with maxRps). @default true */
  readonly slowStart?: boolean | undefined;
  /** Milliseconds on a clock that never goes back. @default - the send clock's, else performance.now */
  readonly now?: (() => number) | undefined;
  /** Where the next send's time and the learned limit are kept. @default - a clock of this limiter's own */
  readonly clock?: SendClock | undefined;
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
 * Tuned on the limiter's virtual-clock harness against token buckets of 2, 5, 10 and 50 requests
 * a second (the simulator's, burst = rate) with four workers, and checked in `npm run bench`:
 * small cuts, because the measured limit is the service's rate itself and not an overshoot, and
 * a slow climb once it is measured (docs/performance.md, "Rate limits").
 */
const DEFAULTS = { beta: 0.98, measuredBeta: 0.99, growth: 0.0007, probeGrowth: 0.1, windowMs: 60_000, minRps: 0.5 } as const;
/** The first 429's estimate: what the service admitted in this last stretch. */
const FIRST_ESTIMATE_MS = 1000;
/**
 * Fewest requests admitted between two refusals for their rate to be taken as the limit: the
 * count is the refill to within one request, so 20 measure it to within 5 %.
 */
const MIN_MEASURED = 20;
/**
 * Added to that count: the refill is the count give or take one, and a rate set low costs time
 * on every request while one set a little high costs a refused request now and then.
 */
const COUNT_ALLOWANCE = 0.5;

/**
 * 429s that do not follow the rate (a service that refuses every Nth request, whatever the rate):
 * once the rate has fallen a tenth below where the cuts began and the service refuses about as
 * often as it did then, the cuts did not help. The rate goes back to where they began, and
 * refusals no more frequent than that no longer cut it (a real limit refuses more often as the
 * rate grows past it, and cuts again).
 */
const PERIODIC = { drop: 0.9, sameFraction: 0.75, minSends: 14, margin: 1.25 } as const;

/** Where the cuts began: the rate after the first cut, and how often the service refused before it. */
interface Episode {
  readonly at: number;
  readonly rps: number;
  readonly limit: number | undefined;
  readonly fraction: number;
}

interface Cut {
  readonly at: number;
  readonly rps: number;
  /** The measured limit; undefined while looking for it. */
  readonly limit: number | undefined;
  /** The last ticket sent before this cut. */
  readonly lastTicket: number;
}

export class RateLimiter {
  readonly maxRps: number | undefined;
  readonly adaptive: boolean;
  readonly #beta: number;
  readonly #measuredBeta: number;
  readonly #growth: number;
  readonly #probeGrowth: number;
  readonly #windowMs: number;
  readonly #minRps: number;
  readonly #slowStart: boolean;
  readonly #now: () => number;
  readonly #sleep: Sleep;

  /** Earliest time of the next send (the one-token bucket) and the learned limit: this limiter's, or shared. */
  readonly #clock: SendClock;
  /** The clock's send count right after this limiter took a pair (its second send checks none came between). */
  #pairSends = -1;
  /** The adaptive rate: undefined until the first 429. */
  #cut: Cut | undefined;
  /** Sends so far: the tickets. */
  #sent = 0;
  #cuts = 0;
  #throttles = 0;
  /** Send time of each ticket not yet settled or cancelled. */
  readonly #sentAt = new Map<number, number>();
  /** Send times of admitted (non-429) attempts within the window. */
  readonly #admitted: number[] = [];
  /** Send times of refused (429) attempts within the window: moments the service's bucket was empty. */
  readonly #refused: number[] = [];
  /** Slow start: most requests in flight before the first 429. */
  #window = 1;
  /** Where the cuts began (undefined before the first 429). */
  #episode: Episode | undefined;
  /** The fraction of requests the service refuses whatever the rate, once found. */
  #periodic: number | undefined;
  readonly #waiting: Array<() => void> = [];

  constructor(options: RateLimiterOptions = {}) {
    const problems: string[] = [];
    const positive = (name: string, value: number | undefined, max = Infinity) => {
      if (value !== undefined && !(Number.isFinite(value) && value > 0 && value <= max)) {
        problems.push(`${name} must be a number above 0${max === Infinity ? "" : ` and at most ${max}`} (got ${value})`);
      }
    };
    positive("maxRps", options.maxRps);
    positive("beta", options.beta, 1);
    positive("measuredBeta", options.measuredBeta, 1);
    positive("growth", options.growth);
    positive("probeGrowth", options.probeGrowth);
    positive("windowMs", options.windowMs);
    positive("minRps", options.minRps);
    if (problems.length > 0) throw new InvalidArgumentError(`Invalid rate limiter: ${problems.join("; ")}.`);
    this.maxRps = options.maxRps;
    this.adaptive = options.adaptive ?? true;
    this.#beta = options.beta ?? DEFAULTS.beta;
    this.#measuredBeta = options.measuredBeta ?? DEFAULTS.measuredBeta;
    this.#growth = options.growth ?? DEFAULTS.growth;
    this.#probeGrowth = options.probeGrowth ?? DEFAULTS.probeGrowth;
    this.#windowMs = options.windowMs ?? DEFAULTS.windowMs;
    this.#minRps = Math.min(options.minRps ?? DEFAULTS.minRps, options.maxRps ?? Infinity);
    this.#slowStart = (options.slowStart ?? true) && this.adaptive && options.maxRps === undefined;
    this.#clock = options.clock ?? new LocalSendClock(options.now);
    this.#now = options.now ?? (() => this.#clock.now());
    this.#sleep = options.sleep ?? realSleep;
  }

  /**
   * Waits until a request may be sent, and takes its token. Returns the send's ticket, to be
   * given back to {@link settle} with the answer, or to {@link cancel} if it is not sent.
   */
  async acquire(): Promise<number> {
    for (;;) {
      if (this.#startingSlowly() && this.#sentAt.size >= this.#window) {
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
        continue;
      }
      const now = this.#now();
      this.#adoptLearned(now);
      const rps = this.#rps(now);
      if (rps === undefined) return this.#take(now);
      const wait = this.#clock.update((state) =>
        now >= state.nextAt ? { state: { ...state, nextAt: Math.max(state.nextAt, now) + 1000 / rps, sends: state.sends + 1 }, result: 0 } : { state, result: state.nextAt - now },
      );
      if (wait <= 0) return this.#take(now);
      // Sleep, then look again: a 429 meanwhile may have cut the rate.
      await this.#sleep(wait);
    }
  }

  /**
   * Waits until two requests may go out back to back, and takes both tokens: the read that guards
   * a write and the write itself (remove-all-users is sent only right after a read of its rule
   * that still matches the plan; the wait comes before the read, so nothing waits between them).
   * Under a rate the pair takes two intervals on each side of its first send: the average stays
   * within the rate, and the pair is the one place two sends come closer than one interval (at
   * `--max-rps 1` or below too: a guard read followed by a wait would let a change in unseen). A
   * service that refuses the pair's second send (429) is answered by the caller with a new pair, its
   * read sent again. Send the first ticket's request at once; call {@link begin} right before
   * sending the second's.
   */
  async acquirePair(): Promise<[number, number]> {
    for (;;) {
      if (this.#startingSlowly() && this.#sentAt.size >= this.#window) {
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
        continue;
      }
      const now = this.#now();
      this.#adoptLearned(now);
      const rps = this.#rps(now);
      if (rps === undefined) return [this.#take(now), this.#take(now)];
      const { wait, sends } = this.#clock.update((state) => {
        const earliest = state.nextAt + 1000 / rps;
        return now >= earliest
          ? { state: { ...state, nextAt: now + 2000 / rps, sends: state.sends + 1 }, result: { wait: 0, sends: state.sends + 1 } }
          : { state, result: { wait: earliest - now, sends: -1 } };
      });
      if (wait <= 0) {
        this.#pairSends = sends;
        return [this.#take(now), this.#take(now)];
      }
      await this.#sleep(wait);
    }
  }

  /**
   * Right before sending the second request of a pair: true when it may go now. False when the
   * first took so long that other sends were let out meanwhile (two intervals passed): the pair's
   * second send would then crowd them; cancel it and take a new ticket or pair.
   */
  begin(ticket: number): boolean {
    if (!this.#sentAt.has(ticket)) return false;
    const now = this.#now();
    const rps = this.#rps(now);
    if (rps !== undefined && this.#sent !== ticket) return false;
    if (rps !== undefined) {
      // another limiter of the clock (another process of the run) sent since the pair was taken: lapsed
      const pairSends = this.#pairSends;
      const still = this.#clock.update((state) =>
        pairSends >= 0 && state.sends !== pairSends ? { state, result: false } : { state: { ...state, nextAt: Math.max(state.nextAt, now + 1000 / rps), sends: state.sends + 1 }, result: true },
      );
      if (!still) return false;
    }
    this.#sentAt.set(ticket, now);
    return true;
  }

  #take(now: number): number {
    this.#sent += 1;
    this.#sentAt.set(this.#sent, now);
    return this.#sent;
  }

  /** Gives back the ticket of a request that was not sent after all. */
  cancel(ticket: number): void {
    if (this.#sentAt.delete(ticket)) this.#wake();
  }

  /** Reports how the attempt of `ticket` (from {@link acquire}) was answered. */
  settle(ticket: number, outcome: SendOutcome): void {
    const now = this.#now();
    const sentAt = this.#sentAt.get(ticket) ?? now;
    this.#sentAt.delete(ticket);
    try {
      if (!outcome.throttled) {
        this.#window += 1;
        this.#admitted.push(sentAt);
        this.#forget(now);
        return;
      }
      this.#throttles += 1;
      this.#refused.push(sentAt);
      if (!this.adaptive) return;
      // Sent before the last cut: that request was already counted against the old rate.
      if (this.#cut !== undefined && ticket <= this.#cut.lastTicket) return;
      this.#forget(now);
      if (this.#notFollowingTheRate(now)) return;
      this.#cutAt(now, sentAt);
    } finally {
      this.#wake();
    }
  }

  /**
   * Starts from a limit measured earlier (by another process of the same run: the provider
   * processes of one Terraform command share it), as if this limiter had measured it: that rate,
   * no slow start, the slow climb. Ignored once this limiter has cut on a 429 of its own.
   */
  startFrom(limit: number | LearnedLimit): void {
    const value = typeof limit === "number" ? limit : limit.limit;
    if (!this.adaptive || this.#cut !== undefined || !(Number.isFinite(value) && value > 0)) return;
    const now = this.#now();
    let rps = Math.max(this.#minRps, typeof limit === "number" || limit.rps === undefined ? this.#measuredBeta * value : limit.rps);
    if (this.maxRps !== undefined) rps = Math.min(rps, this.maxRps);
    this.#cut = { at: now, rps, limit: value, lastTicket: this.#sent };
    if (typeof limit === "number") return;
    // where the cuts began, as the limiter that learned the limit saw it: 429s that do not follow the
    // rate are told apart as that limiter told them (without it every periodic 429 cut again, down to minRps)
    this.#episode = { at: now, rps: limit.episodeRps, limit: value, fraction: limit.episodeFraction };
    this.#periodic ??= limit.periodic;
  }

  /** A limit another limiter of the shared clock learned, taken up while this one has none of its own. */
  #adoptLearned(now: number): void {
    if (!this.adaptive || this.#cut !== undefined) return;
    const learned = this.#clock.peek().learned;
    if (learned !== undefined) {
      this.startFrom(learned);
      this.#nextAt(now);
    }
  }

  /** Makes the clock's next send no earlier than `now` plus this limiter's interval (after a cut or an adoption). */
  #nextAt(now: number): void {
    const rps = this.#rps(now);
    if (rps !== undefined) this.#clock.update((state) => ({ state: { ...state, nextAt: Math.max(state.nextAt, now + 1000 / rps) }, result: undefined }));
  }

  /** Writes what this limiter learned into the clock, for the other limiters that share it. */
  #publish(): void {
    const cut = this.#cut;
    const episode = this.#episode;
    if (cut === undefined || episode === undefined) return;
    // the rate it sends at goes with the limit: a limiter that found its 429s periodic went back to
    // where the cuts began, and another that took up only the last measured limit would start lower
    const learned: LearnedLimit = {
      limit: cut.limit ?? cut.rps,
      rps: cut.rps,
      episodeRps: episode.rps,
      episodeFraction: episode.fraction,
      ...(this.#periodic === undefined ? {} : { periodic: this.#periodic }),
    };
    this.#clock.update((state) => ({ state: { ...state, learned }, result: undefined }));
  }

  /** The service's limit as measured (between two 429s, or given to {@link startFrom}); undefined before. */
  measuredLimit(): number | undefined {
    return this.#cut?.limit;
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

  #cutAt(now: number, sentAt: number): void {
    let limit: number | undefined;
    let rps: number;
    if (this.#cut === undefined) {
      rps = this.#beta * (this.#admittedIn(now - FIRST_ESTIMATE_MS, Infinity) / (FIRST_ESTIMATE_MS / 1000));
    } else {
      const current = this.#adaptiveRps(now) ?? Infinity;
      const anchor = this.#refused.find((t) => t >= now - this.#windowMs) ?? sentAt;
      const span = sentAt - anchor;
      const admitted = this.#admittedIn(anchor, sentAt);
      if (admitted >= MIN_MEASURED && span > 0) {
        limit = Math.max(this.#minRps, (admitted + COUNT_ALLOWANCE) / (span / 1000));
        rps = this.#measuredBeta * limit;
      } else {
        // Too few admitted since the earliest refusal to measure: the rate went over the limit
        // soon after the last cut, so the limit is near that cut's rate. Back to it, and climb
        // slowly from there.
        limit = Math.max(this.#minRps, Math.min(current, this.#cut.limit ?? this.#cut.rps));
        rps = this.#cut.limit === undefined ? limit : this.#measuredBeta * limit;
      }
    }
    rps = Math.max(this.#minRps, rps);
    if (this.maxRps !== undefined) rps = Math.min(rps, this.maxRps);
    this.#cut = { at: now, rps, limit, lastTicket: this.#sent };
    this.#episode ??= { at: now, rps, limit, fraction: this.#refusedFraction(now - Math.max(this.#windowMs, FIRST_ESTIMATE_MS)).fraction };
    this.#cuts += 1;
    // The next send waits for the new spacing, counted from now.
    this.#clock.update((state) => ({ state: { ...state, nextAt: Math.max(state.nextAt, now + 1000 / rps) }, result: undefined }));
    this.#publish();
  }

  /** Refused / sent among the attempts sent after `from`. */
  #refusedFraction(from: number): { fraction: number; sends: number } {
    const refused = this.#refused.filter((t) => t > from).length;
    const sends = refused + this.#admittedIn(from, Infinity);
    return { fraction: sends === 0 ? 0 : refused / sends, sends };
  }

  /**
   * A 429 that says nothing of the rate (PERIODIC): true when it is to be counted but not cut on;
   * the first time, the rate goes back to where the cuts began.
   */
  #notFollowingTheRate(now: number): boolean {
    const episode = this.#episode;
    const cut = this.#cut;
    if (episode === undefined || cut === undefined) return false;
    if (this.#periodic !== undefined) return this.#refusedFraction(now - this.#windowMs).fraction <= this.#periodic * PERIODIC.margin;
    const current = this.#adaptiveRps(now) ?? Infinity;
    if (current > PERIODIC.drop * episode.rps) return false;
    const recent = this.#refusedFraction(episode.at);
    if (recent.sends < PERIODIC.minSends || recent.fraction < PERIODIC.sameFraction * episode.fraction) return false;
    this.#periodic = Math.max(recent.fraction, episode.fraction);
    this.#cut = { at: now, rps: episode.rps, limit: episode.limit, lastTicket: this.#sent };
    this.#clock.update((state) => ({ state: { ...state, nextAt: Math.min(state.nextAt, now + 1000 / episode.rps) }, result: undefined }));
    this.#publish();
    return true;
  }

  /** True while the slow start caps the requests in flight: before the first 429. */
  #startingSlowly(): boolean {
    return this.#slowStart && this.#throttles === 0 && this.#cut === undefined;
  }

  #wake(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
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

  /** Admitted attempts sent after `from` and at or before `to`. */
  #admittedIn(from: number, to: number): number {
    let count = 0;
    for (const t of this.#admitted) if (t > from && t <= to) count += 1;
    return count;
  }

  /** Drops the send times older than the window (from the front: they are pushed about in order). */
  #forget(now: number): void {
    const horizon = now - Math.max(this.#windowMs, FIRST_ESTIMATE_MS);
    dropUntil(this.#admitted, horizon);
    dropUntil(this.#refused, horizon);
  }
}

function dropUntil(times: number[], horizon: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] ?? Infinity) <= horizon) drop += 1;
  if (drop > 0) times.splice(0, drop);
}
