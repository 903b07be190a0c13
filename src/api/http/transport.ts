/**
 * The HTTP transport: every operation of the interface is a POST with a JSON body, sent here.
 * One request is a loop of attempts until one settles it:
 *
 * - each attempt takes its turn (src/api/http/turn.ts: the rate limiter's ticket, the token, the
 *   guard's read for a guarded call, its time limit within the request's deadline), is sent
 *   (src/api/http/attempt.ts, the one place axios is called), counted and reported to a hook
 *   (src/api/http/counter.ts), and its answer is told to the rate limiter;
 * - a success is parsed with the operation's schema (src/api/http/response-body.ts), so that a bad
 *   body becomes a ResponseShapeError;
 * - a 401 gets the request a new token and sends it again (src/api/http/token-renewal.ts). That
 *   resend goes through the rate limiter and counts against the request's deadline like any
 *   attempt; it does not spend the budget of retries;
 * - anything else is retried when it may be (src/api/http/retry.ts), or becomes an ApiError built
 *   from redacted data only (src/api/http/answer-error.ts).
 *
 * Secrets: the token lives in a private field of its source and is written only into the request
 * headers; every token this transport sent is redacted from what comes back.
 */
import type { z } from "zod";
import { DEFAULT_READ_LIMITS, bodyTooLargeError } from "./read-limits";
import { RequestCounter, requestEvent, type RequestEvent, type RequestHook } from "./counter";
import { capGuarded429s, takeTurn, type Guard, type Turn, type TurnRequest } from "./turn";
import { decideRetry, realSleep, resolveRetryPolicy, type Random, type RetryContext, type RetryPolicy, type Sleep } from "./retry";
import { createHttpClient, failureLabel, hasStatus, isSuccess, refusedUnacted, sendAttempt, statusOf, type AcceptType, type Answer, type AttemptResult, type HttpClient } from "./attempt";
import { parseBody } from "./response-body";
import { answerError } from "./answer-error";
import { RequestDeadline, type RunDeadline } from "./deadline";
import { RequestTokens } from "./token-renewal";
import type { RateLimiter } from "./rate-limiter";
import { StaticToken, type TokenSource } from "./credentials";
import { InvalidArgumentError } from "../../errors";

export type { AcceptType } from "./attempt";
export type { GuardSlot } from "./turn";
export type { RunDeadline } from "./deadline";

export interface PostOptions {
  readonly accept: AcceptType;
  /**
   * True when sending the request twice does no harm (every rule-list operation). When false
   * (case creation), the request is retried only when it certainly never reached the service
   * (connection refused, host not found); never after a timeout, a reset or any response.
   */
  readonly idempotent: boolean;
  /**
   * A write (the rule-list client's writes say so, src/api/rules/client.ts): its error says "not
   * sent" when no attempt was acted on (ApiErrorDetails.write). @default false
   */
  readonly write?: boolean | undefined;
  /** The rule the operation is about; carried into errors and hook events. */
  readonly ruleId?: string | undefined;
  /**
   * The guard: runs right before every attempt (the first and each retry); what it throws stops
   * the call unsent. remove-all-users re-reads its rule here (src/io/execute.ts). Nothing waits
   * between the guard's read and the attempt (docs/guarantees.md): the token is taken first, then
   * the rate limiter's two tickets ({@link RateLimiter.acquirePair}); the read goes on the first
   * with that token (pass the slot's `ticket` and `token` to the read), the attempt on the second,
   * at once. When the second cannot go at once (the read took so long that other sends were let
   * out), the guard runs again on a new pair: a guard read is never followed by a wait.
   */
  readonly beforeAttempt?: Guard | undefined;
  /**
   * A rate-limiter ticket already taken for this request's first attempt (the `ticket` of a
   * {@link GuardSlot}); its retries take their own. @default - the first attempt takes one too
   */
  readonly ticket?: number | undefined;
  /**
   * The token to send this request's first attempt with (the `token` of a {@link GuardSlot}): the
   * one its guarded call will be sent with, taken before the read. @default - the token source's
   */
  readonly token?: string | undefined;
}

export interface TransportOptions {
  /** Base URL without trailing slash (see resolveConnection). */
  readonly baseUrl: string;
  /** A static token; give it or `tokenSource`. */
  readonly token?: string | undefined;
  /** Where to get the token before each attempt (a token command); wins over `token`. */
  readonly tokenSource?: TokenSource | undefined;
  /** Timeout of each attempt. @default 30000 */
  readonly timeoutMs?: number | undefined;
  /** @default - DEFAULT_RETRY_POLICY */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Called after every HTTP attempt. Exceptions it throws propagate to the caller. */
  readonly onRequest?: RequestHook | undefined;
  /** @default - a real timer */
  readonly sleep?: Sleep | undefined;
  /** @default - Math.random */
  readonly random?: Random | undefined;
  /** @default - a new counter */
  readonly counter?: RequestCounter | undefined;
  /** Clock, for `Retry-After` dates and durations. @default - Date.now */
  readonly now?: (() => number) | undefined;
  /**
   * Gates every attempt (first sends and retries) and learns from the answers; share one across
   * the clients of a run (src/api/http/rate-limiter.ts). @default - none: nothing gated
   */
  readonly rateLimiter?: RateLimiter | undefined;
  /** Largest response body read; a larger one stops the request, not retried. @default - 64 MiB */
  readonly maxBodyBytes?: number | undefined;
  /** Overall deadline of one request: all attempts and the waits between them. @default - 5 minutes */
  readonly requestDeadlineMs?: number | undefined;
  /** Most results one paged search may bring (src/api/http/paging.ts). @default 20000 */
  readonly maxSearchResults?: number | undefined;
  /**
   * The deadline of the whole run, shared by every request: when it passes, no attempt starts and
   * no wait goes on. `at` is on the clock of `now`; `ms` and `source` (the flag or variable that
   * set it) are for the message. @default - none
   */
  readonly runDeadline?: RunDeadline | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** One request in flight: what its attempts share. */
interface Call<T> extends TurnRequest {
  readonly path: string;
  /** The body, as JSON. */
  readonly data: string;
  readonly accept: AcceptType;
  readonly idempotent: boolean;
  readonly write: boolean;
  /** Null for the writes: any 2xx is success whatever the body. */
  readonly schema: z.ZodType<T> | null;
  /** Failed attempts so far, 429s apart from every other failure: each has its own budget (src/api/http/retry.ts). */
  failures: number;
  rateLimited: number;
  /** An earlier attempt may have reached the service and acted (GuardSlot.mayHaveLanded; "not sent" in errors when false). */
  mayHaveLanded: boolean;
}

/** What follows an attempt: the request's value, its error, a retry after a wait, or a resend with a renewed token (no wait). */
type Next<T> =
  | { readonly kind: "ok"; readonly value: T | undefined }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "retry"; readonly delayMs: number }
  | { readonly kind: "resend" };

/** An attempt, as the decision after it sees it. */
interface Sent {
  readonly attempt: number;
  readonly turn: Turn;
  readonly result: AttemptResult;
}

export class HttpTransport {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly retryPolicy: RetryPolicy;
  readonly counter: RequestCounter;
  readonly maxBodyBytes: number;
  readonly requestDeadlineMs: number;
  readonly maxSearchResults: number;
  readonly runDeadline: RunDeadline | undefined;
  readonly #tokens: TokenSource;
  /** Every token this transport sent, for the redaction of what comes back. */
  readonly #sent = new Set<string>();
  readonly #http: HttpClient;
  readonly #onRequest: RequestHook | undefined;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  readonly #retry: RetryContext;
  readonly rateLimiter: RateLimiter | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryPolicy = resolveRetryPolicy(options.retry);
    this.counter = options.counter ?? new RequestCounter();
    this.#tokens = tokenSourceOf(options);
    this.#onRequest = options.onRequest;
    this.#sleep = options.sleep ?? realSleep;
    this.#now = options.now ?? Date.now;
    this.#retry = { policy: this.retryPolicy, baseUrl: this.baseUrl, random: options.random ?? Math.random, now: this.#now };
    this.rateLimiter = options.rateLimiter;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_READ_LIMITS.maxBodyBytes;
    this.requestDeadlineMs = options.requestDeadlineMs ?? DEFAULT_READ_LIMITS.requestDeadlineMs;
    this.maxSearchResults = options.maxSearchResults ?? DEFAULT_READ_LIMITS.maxSearchResults;
    this.runDeadline = options.runDeadline;
    this.#http = createHttpClient();
  }

  /**
   * POSTs `body` (as JSON) to `path` and returns the response parsed with `schema`; with a null
   * schema (write operations) any 2xx is success whatever the body, and undefined is returned.
   * Throws ApiError (HTTP error status, timeout, network error) or ResponseShapeError.
   */
  async post<T>(operation: string, path: string, body: unknown, schema: z.ZodType<T>, options: PostOptions): Promise<T>;
  async post(operation: string, path: string, body: unknown, schema: null, options: PostOptions): Promise<undefined>;
  async post<T>(
    operation: string,
    path: string,
    body: unknown,
    schema: z.ZodType<T> | null,
    options: PostOptions,
  ): Promise<T | undefined> {
    const data = JSON.stringify(body);
    this.counter.recordCall(operation);
    const call = this.#call(operation, path, data, schema, options);
    for (let attempt = 1; ; attempt += 1) {
      const next = await this.#attempt(call, attempt);
      if (next.kind === "ok") return next.value;
      if (next.kind === "error") throw next.error;
      if (next.kind === "retry") await this.#sleep(next.delayMs);
    }
  }

  #call<T>(operation: string, path: string, data: string, schema: z.ZodType<T> | null, options: PostOptions): Call<T> {
    return {
      operation,
      ruleId: options.ruleId,
      path,
      data,
      accept: options.accept,
      idempotent: options.idempotent,
      write: options.write === true,
      schema,
      limiter: this.rateLimiter,
      tokens: new RequestTokens(this.#tokens, (token) => this.#sent.add(token), options.token),
      // The request's own deadline, or the run's when that comes first.
      deadline: new RequestDeadline({ now: this.#now, requestDeadlineMs: this.requestDeadlineMs, timeoutMs: this.timeoutMs, runDeadline: this.runDeadline }),
      guard: options.beforeAttempt,
      ticket: options.ticket,
      failures: 0,
      rateLimited: 0,
      mayHaveLanded: false,
    };
  }

  /** Attempt `attempt` of `call`: its turn, the send, the rate limiter told how the service answered, the report, and what follows. */
  async #attempt<T>(call: Call<T>, attempt: number): Promise<Next<T>> {
    const turn = await takeTurn(call, attempt, call.mayHaveLanded);
    this.counter.recordAttempt(call.operation);
    const started = this.#now();
    const request = { url: `${this.baseUrl}${call.path}`, data: call.data, accept: call.accept, token: turn.token, timeoutMs: turn.timeoutMs, maxBodyBytes: this.maxBodyBytes };
    const result = await sendAttempt(this.#http, request, () => this.#secrets());
    this.rateLimiter?.settle(turn.ticket, { throttled: hasStatus(result, 429) });
    const durationMs = Math.max(0, this.#now() - started);
    if (!refusedUnacted(result)) call.mayHaveLanded = true;
    const next = this.#next(call, { attempt, turn, result });
    this.#report(call, attempt, result, durationMs, next);
    return next;
  }

  /** What follows an attempt's result. */
  #next<T>(call: Call<T>, sent: Sent): Next<T> {
    const { attempt, turn, result } = sent;
    if (result.type === "too-large") return { kind: "error", error: bodyTooLargeError(call.operation, call.ruleId, this.maxBodyBytes) };
    if (result.type === "failure" && result.kind === "timeout" && turn.timeoutMs < this.timeoutMs) {
      return { kind: "error", error: call.deadline.reached(call.operation, call.ruleId, attempt) };
    }
    if (isSuccess(result)) {
      try {
        return { kind: "ok", value: call.schema === null ? undefined : parseBody(call.operation, call.ruleId, result, call.schema, this.#secrets()) };
      } catch (error) {
        return { kind: "error", error };
      }
    }
    if (hasStatus(result, 401)) {
      const refusal = call.tokens.afterRefusal(turn.token, attempt);
      if (refusal.kind === "pinned") return { kind: "error", error: refusal.error };
      if (refusal.kind === "renew") return { kind: "resend" };
    }
    return this.#retryOrFail(call, sent, result);
  }

  /** After an answer that is neither a success nor a renewed 401: a retry after a wait, or the error. */
  #retryOrFail<T>(call: Call<T>, sent: Sent, answer: Answer): Next<T> {
    const limited = hasStatus(answer, 429);
    if (limited) call.rateLimited += 1;
    else call.failures += 1;
    let decision = decideRetry(answer, limited ? call.rateLimited : call.failures, call.idempotent, this.#retry);
    if (call.guard !== undefined && limited) decision = capGuarded429s(decision, call.rateLimited);
    if (decision.retry && call.deadline.reachedAfter(decision.delayMs)) {
      return { kind: "error", error: call.deadline.reached(call.operation, call.ruleId, sent.attempt) };
    }
    if (decision.retry) return { kind: "retry", delayMs: decision.delayMs };
    const error = answerError(answer, {
      operation: call.operation,
      ruleId: call.ruleId,
      attempts: sent.attempt,
      note: decision.reason ?? call.tokens.refusalNote(answer),
      notSent: !call.mayHaveLanded,
      write: call.write,
      timeoutMs: this.timeoutMs,
      tokenOrigin: answer.type === "response" ? call.tokens.originFor(answer.status) : undefined,
      secrets: this.#secrets(),
    });
    return { kind: "error", error };
  }

  /** Tells the hook (when there is one) how the attempt went. Exceptions it throws propagate to the caller. */
  #report<T>(call: Call<T>, attempt: number, result: AttemptResult, durationMs: number, next: Next<T>): void {
    if (this.#onRequest === undefined) return;
    const outcome: RequestEvent["outcome"] = next.kind === "ok" ? "ok" : next.kind === "error" ? "error" : "retry";
    const retryInMs = next.kind === "retry" ? next.delayMs : next.kind === "resend" ? 0 : undefined;
    const { operation, ruleId } = call;
    this.#onRequest(requestEvent({ operation, ruleId, attempt, status: statusOf(result), outcome, durationMs, failure: failureLabel(result), retryInMs }));
  }

  #secrets(): string[] {
    return [...this.#sent];
  }
}

/** The token source of a transport: the one given, or the static token. */
function tokenSourceOf(options: TransportOptions): TokenSource {
  if (options.tokenSource !== undefined) return options.tokenSource;
  if (options.token !== undefined) return new StaticToken(options.token, "ALERTS_API_TOKEN (or --token-file)");
  throw new InvalidArgumentError("The HTTP transport needs a token or a token source.");
}
