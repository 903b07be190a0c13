/**
 * Fault injection: latency, failures before applying (503), lost responses (applied, then 502),
 * rate limiting (429 with Retry-After), and misbehaving responses.
 *
 * Random decisions are a pure function of the seed, the request (its path and body) and how many
 * times that same request has met the draw before: the n-th time a request arrives it meets the
 * same fault whatever else arrived, in whatever order. A failure rate thus stays a rate per
 * request under concurrency. (A single PRNG stream drawn in arrival order does not: every run of
 * a seed replays the same stream, timing decides which request meets which draw, and at the end
 * of a run a lone straggler takes every draw in a row, so a cluster of low draws in the stream
 * failed one call ten times on end: the chaos test's flake.)
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { describeIssues } from "./http-error";
import { TokenBucket, type RateDecision } from "./rate-limit";

export const MISBEHAVIOUR_KINDS = ["wrong-type", "missing-field", "invalid-json", "html-error", "empty-body", "hang", "all-users"] as const;
export type MisbehaviourKind = (typeof MISBEHAVIOUR_KINDS)[number];

export interface Misbehaviour {
  /** The operation name (e.g. "query-users") whose requests misbehave. */
  operation: string;
  /** @default - any rule; else only requests whose body.ruleId is this */
  ruleId?: string;
  kind: MisbehaviourKind;
  /** @default - unlimited; else how many matching requests misbehave */
  times?: number;
  /** @default 0 - how many matching requests are answered correctly first (a read-back lie: skip the stale check's read) */
  skip?: number;
}

export interface FaultOptions {
  /** @default 0 - added delay (ms) before answering each request */
  latencyMs?: number;
  /** @default 0 - probability (0..1) of answering 503 before applying anything */
  failRate?: number;
  /** @default 0 - probability (0..1), write operations only: apply the change, then answer 502 */
  lostResponseRate?: number;
  /** @default - never; every Nth request (counting all requests since the faults were set) answers 429 */
  rateLimitEvery?: number;
  /**
   * @default - no limit; else a token bucket of this many requests a second (burst of as many),
   * shared by every client: beyond it 429 with a truthful `Retry-After` (src/simulator/rate-limit.ts)
   */
  rateLimitRps?: number;
  /** @default 1 - the Retry-After header (whole seconds) of a `rateLimitEvery` 429 */
  retryAfterSeconds?: number;
  /**
   * @default - not sent; else the `Retry-After-Ms` header of a `rateLimitEvery` 429, sent as it is
   * (`""` sends an empty header, as a broken proxy may)
   */
  retryAfterMsHeader?: string;
  /** @default 1 - seed of the draws behind failRate and lostResponseRate (src/simulator/faults.ts) */
  seed?: number;
  /** @default - all operations; else faults (not misbehave) only hit these operation names */
  operations?: string[];
  misbehave?: Misbehaviour[];
}

const rate = z.number().min(0).max(1);
const count = z.number().int().nonnegative();

const faultOptionsSchema = z.object({
  latencyMs: z.number().nonnegative().optional(),
  failRate: rate.optional(),
  lostResponseRate: rate.optional(),
  rateLimitEvery: count.optional(),
  rateLimitRps: z.number().positive().max(1_000_000).optional(),
  retryAfterSeconds: count.optional(),
  retryAfterMsHeader: z.string().optional(),
  seed: z.number().int().optional(),
  operations: z.array(z.string()).optional(),
  misbehave: z
    .array(
      z.object({
        operation: z.string(),
        ruleId: z.string().optional(),
        kind: z.enum(MISBEHAVIOUR_KINDS),
        times: count.optional(),
        skip: count.optional(),
      }),
    )
    .optional(),
});

/** Throws a RangeError naming the offending field when the options are not valid. */
export function validateFaultOptions(options: FaultOptions): void {
  const result = faultOptionsSchema.safeParse(options);
  if (!result.success) throw new RangeError(`Invalid fault options: ${describeIssues(result.error.issues)}`);
}

export const DEFAULT_FAULT_SEED = 1;

/** Which of a request's draws: failing before applying, or losing the answer after. */
type DrawKind = "fail" | "lose";

/** The fault decisions for one simulator; replaced as a whole by {@link FaultInjector.set}. */
export class FaultInjector {
  private options: FaultOptions = {};
  private requests = 0;
  /** How many times each request (by digest of draw kind, path and body) has been drawn for. */
  private draws = new Map<string, number>();
  private remaining: Array<number | undefined> = [];
  private skipped: number[] = [];
  private bucket: TokenBucket | undefined;

  constructor(options: FaultOptions = {}) {
    this.set(options);
  }

  /** Replaces the configuration; the draws and the request counter start again. */
  set(options: FaultOptions): void {
    validateFaultOptions(options);
    this.options = structuredClone(options);
    this.draws = new Map();
    this.requests = 0;
    this.remaining = (options.misbehave ?? []).map((m) => m.times);
    this.skipped = (options.misbehave ?? []).map(() => 0);
    this.bucket = options.rateLimitRps === undefined ? undefined : new TokenBucket(options.rateLimitRps);
  }

  /** The `rateLimitRps` bucket's decision for an arriving request (every operation, every client). */
  takeToken(): RateDecision {
    return this.bucket === undefined ? { ok: true } : this.bucket.take();
  }

  /** Counts an arriving request (any path); returns its sequence number, from 1. */
  arrive(): number {
    this.requests += 1;
    return this.requests;
  }

  private applies(operation: string): boolean {
    return this.options.operations === undefined || this.options.operations.includes(operation);
  }

  latencyMs(operation: string): number {
    return this.applies(operation) ? (this.options.latencyMs ?? 0) : 0;
  }

  /** The headers of the 429 if request number `sequence` is to be rate limited. */
  rateLimit(operation: string, sequence: number): Record<string, string> | undefined {
    const every = this.options.rateLimitEvery ?? 0;
    if (every <= 0 || sequence % every !== 0 || !this.applies(operation)) return undefined;
    const headers: Record<string, string> = { "Retry-After": String(this.options.retryAfterSeconds ?? 1) };
    if (this.options.retryAfterMsHeader !== undefined) headers["Retry-After-Ms"] = this.options.retryAfterMsHeader;
    return headers;
  }

  /** Draws whether this request (`request`: its path and body) fails (503) before anything is applied. */
  fails(operation: string, request: string): boolean {
    const failRate = this.options.failRate ?? 0;
    return failRate > 0 && this.applies(operation) && this.draw("fail", request) < failRate;
  }

  /** Draws whether the response of an applied write (`request`: its path and body) is lost (502). */
  losesResponse(operation: string, request: string): boolean {
    const lostRate = this.options.lostResponseRate ?? 0;
    return lostRate > 0 && this.applies(operation) && this.draw("lose", request) < lostRate;
  }

  /** A number in [0, 1) fixed by the seed, the draw kind, the request and its count of such draws so far. */
  private draw(kind: DrawKind, request: string): number {
    const id = createHash("sha256").update(`${kind}\0${request}`).digest("base64");
    const nth = (this.draws.get(id) ?? 0) + 1;
    this.draws.set(id, nth);
    const digest = createHash("sha256").update(`${this.options.seed ?? DEFAULT_FAULT_SEED}\0${nth}\0${id}`).digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  }

  /** The misbehaviour for this request, if any (consumes one of its `times`). */
  misbehaviour(operation: string, ruleId: string | undefined): MisbehaviourKind | undefined {
    const list = this.options.misbehave ?? [];
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (entry === undefined || entry.operation !== operation) continue;
      if (entry.ruleId !== undefined && entry.ruleId !== ruleId) continue;
      if ((this.skipped[i] ?? 0) < (entry.skip ?? 0)) {
        this.skipped[i] = (this.skipped[i] ?? 0) + 1;
        continue;
      }
      const left = this.remaining[i];
      if (left !== undefined) {
        if (left <= 0) continue;
        this.remaining[i] = left - 1;
      }
      return entry.kind;
    }
    return undefined;
  }
}
