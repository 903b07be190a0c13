/**
 * The HTTP transport: the one place axios is called.
 *
 * Every operation of the interface is a POST with a JSON body. The transport adds the bearer
 * token, the content type and the `Accept` header, applies a per-attempt timeout, retries what
 * may be retried (src/api/http/retry.ts), counts calls and attempts, reports each attempt to a hook,
 * reads the body as text and parses it itself, so that a bad body becomes a ResponseShapeError,
 * and maps failures to ApiError built from redacted data only.
 *
 * The token comes from a TokenSource (src/api/http/credentials.ts), asked before every attempt:
 * a token command's token is renewed ahead of its expiry there, and after a 401 the transport
 * asks it once for a new token and sends the refused request again, once (a static token has no
 * other, so its 401 is final). That resend goes through the rate limiter and counts against the
 * request's deadline like any attempt; it does not spend the budget of retries.
 *
 * Secrets: the token lives in a private field (invisible to util.inspect and JSON.stringify) and
 * is written only into the request headers. Axios errors (which carry the request headers) never
 * leave this file: only their code and redacted message are used.
 */
import axios, { isAxiosError, type AxiosInstance } from "axios";
import type { z } from "zod";
import { ApiError, NotSentError, ReadLimitError, ResponseShapeError, type ApiErrorKind } from "./errors";
import { DEFAULT_READ_LIMITS, ENV_MAX_BODY_MIB, ENV_REQUEST_DEADLINE_SECONDS, ENV_RUN_DEADLINE_SECONDS, RUN_DEADLINE_FLAG, byteSize, seconds } from "./read-limits";
import { RequestCounter, type RequestEvent, type RequestHook } from "./counter";
import { redactString } from "./redact";
import {
  honoursRetryAfter,
  isRetryableStatus,
  permanentNetworkFailure,
  nextRetry,
  realSleep,
  resolveRetryPolicy,
  retryAfterDelay,
  type Random,
  type RetryDecision,
  type RetryPolicy,
  type Sleep,
} from "./retry";
import { formatIssues, readServiceError, snippet } from "./response-errors";
import type { RateLimiter } from "./rate-limiter";
import { StaticToken, type TokenSource } from "./credentials";
import { InvalidArgumentError } from "../../errors";

/** `Accept` header: text/plain for the searches and query-users, application/json for writes (docs/interface.md). */
export type AcceptType = "text/plain" | "application/json";

export interface PostOptions {
  readonly accept: AcceptType;
  /**
   * True when sending the request twice does no harm (every rule-list operation). When false
   * (case creation), the request is retried only when it certainly never reached the service
   * (connection refused, host not found); never after a timeout, a reset or any response.
   */
  readonly idempotent: boolean;
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
  readonly beforeAttempt?: ((slot: GuardSlot) => Promise<void>) | undefined;
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

/** What a guard (`beforeAttempt`) is given for its read. */
export interface GuardSlot {
  /** The rate limiter's ticket for the read (pass it as the read's `ticket`); undefined without a limiter. */
  readonly ticket: number | undefined;
  /** The token the guarded call goes with (pass it as the read's `token`): taken before the read, never renewed between read and call. */
  readonly token: string;
  /**
   * An earlier attempt of the guarded call was sent and not clearly refused (a timeout, a lost
   * answer, a 5xx): it may have landed. False when every earlier attempt was answered 429 or 401,
   * or never reached the service, or there was none.
   */
  readonly mayHaveLanded: boolean;
}

/** Most renewals after a 401 in one request (each with a token another request fetched; one fetched for it is final). */
const MAX_RENEWALS = 3;

/** How many times a guarded call's pair may lapse (other sends let out during its read) before the call is given up, not sent. */
const MAX_GUARD_LAPSES = 5;
/**
 * How many 429s a guarded call takes (each on the send right after its guard read, each followed
 * by a new read) before it is given up, not sent: a service that never admits two requests back
 * to back (a burst below two) refuses every one.
 */
const MAX_GUARDED_429S = 4;

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

/** The deadline of a run (see {@link TransportOptions.runDeadline}). */
export interface RunDeadline {
  readonly at: number;
  readonly ms: number;
  readonly source: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Network error codes that mean the request was never sent (safe to retry even when not idempotent). */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

type AttemptResult =
  | {
      readonly type: "response";
      readonly status: number;
      readonly contentType: string | undefined;
      readonly retryAfter: string | undefined;
      /** `Retry-After-Ms`, when the service sends it (finer than whole seconds). */
      readonly retryAfterMs: string | undefined;
      /** `Location`, for the message of a redirect (which is not followed). */
      readonly location: string | undefined;
      readonly text: string;
    }
  | { readonly type: "failure"; readonly kind: Exclude<ApiErrorKind, "http">; readonly code: string | undefined; readonly message: string }
  | { readonly type: "too-large" };
/** An attempt that got an answer or failed in a way that may be retried (not the body cap). */
type Answer = Exclude<AttemptResult, { readonly type: "too-large" }>;

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
  readonly #http: AxiosInstance;
  readonly #onRequest: RequestHook | undefined;
  readonly #sleep: Sleep;
  readonly #random: Random;
  readonly #now: () => number;
  readonly rateLimiter: RateLimiter | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryPolicy = resolveRetryPolicy(options.retry);
    this.counter = options.counter ?? new RequestCounter();
    if (options.tokenSource !== undefined) this.#tokens = options.tokenSource;
    else if (options.token !== undefined) this.#tokens = new StaticToken(options.token, "ALERTS_API_TOKEN (or --token-file)");
    else throw new InvalidArgumentError("The HTTP transport needs a token or a token source.");
    this.#onRequest = options.onRequest;
    this.#sleep = options.sleep ?? realSleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    this.rateLimiter = options.rateLimiter;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_READ_LIMITS.maxBodyBytes;
    this.requestDeadlineMs = options.requestDeadlineMs ?? DEFAULT_READ_LIMITS.requestDeadlineMs;
    this.maxSearchResults = options.maxSearchResults ?? DEFAULT_READ_LIMITS.maxSearchResults;
    this.runDeadline = options.runDeadline;
    // No defaults with the token: an inspected instance must not show it.
    this.#http = axios.create({ maxRedirects: 0 });
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
    const ruleId = options.ruleId;
    this.counter.recordCall(operation);
    // 429s are counted apart from failures: each has its own budget (src/api/http/retry.ts).
    let failures = 0;
    let rateLimited = 0;
    // After a 401: the refused token, renewed after the next wait, right before the send (a token
    // renewed before a long wait may expire in it: a bare token of 5 s behind a rate limit).
    let refused: string | null = null;
    let renewals = 0;
    // The last token the source fetched for this request (a renewal that ran the command for it):
    // a 401 for that one is final ("refused twice in a row"); one fetched by another request may
    // have gone stale while this one waited, and is renewed once more.
    let fetchedForThis: string | null = null;
    // A guarded call: whether an earlier attempt may have landed (GuardSlot.mayHaveLanded), and
    // whether any attempt may have reached the service and acted (for the "not sent" of errors).
    let mayHaveLanded = false;
    const guard = options.beforeAttempt;
    // The request's own deadline, or the run's when that comes first.
    const ownDeadlineAt = this.#now() + this.requestDeadlineMs;
    const byRun = this.runDeadline !== undefined && this.runDeadline.at <= ownDeadlineAt;
    const deadlineAt = byRun ? this.runDeadline.at : ownDeadlineAt;
    for (let attempt = 1; ; attempt += 1) {
      // Rate limiter: wait for a send token (the wait counts against the deadline), then tell it
      // how the service answered.
      let ticket: number;
      let token: string;
      let attemptMs: number;
      // Asked after the limiter's wait, right before sending (before the guard's read for a
      // guarded call): a token that expires while the request waits its turn is renewed ahead,
      // not refused; after a 401, the renewal runs here.
      const takeToken = async (): Promise<string> => {
        let next: string;
        if (refused !== null) {
          const renewal = await this.#tokens.renew(refused);
          refused = null;
          if (renewal === null) throw new InvalidArgumentError("A token source that cannot renew was asked to.");
          if (renewal.fetched) fetchedForThis = renewal.token;
          next = renewal.token;
        } else {
          next = attempt === 1 && options.token !== undefined ? options.token : await this.#tokens.token();
        }
        this.#sent.add(next);
        return next;
      };
      if (guard !== undefined) {
        // A guarded call: the pair, then the token, the read and the call with no wait between
        // the last two (no renewal, no ticket).
        const refuse = (refusedToken: string): void => {
          refused = refusedToken;
          this.#tokens.markRefused?.(refusedToken);
        };
        ({ ticket, token } = await this.#guarded(operation, ruleId, guard, { take: takeToken, refuse }, mayHaveLanded, deadlineAt, attempt - 1, byRun));
      } else {
        ticket = await this.#ticket(options, attempt);
        try {
          token = await takeToken();
        } catch (error) {
          this.rateLimiter?.cancel(ticket);
          throw error;
        }
      }
      try {
        attemptMs = this.#attemptBudget(operation, ruleId, deadlineAt, attempt - 1, byRun);
      } catch (error) {
        this.rateLimiter?.cancel(ticket);
        throw error;
      }
      this.counter.recordAttempt(operation);
      const started = this.#now();
      const result = await this.#attempt(path, data, options.accept, attemptMs, token);
      this.rateLimiter?.settle(ticket, { throttled: result.type === "response" && result.status === 429 });
      const durationMs = Math.max(0, this.#now() - started);
      const status = result.type === "response" ? result.status : undefined;
      const failure =
        result.type === "failure" ? (result.kind === "timeout" ? "timeout" : (result.code ?? result.kind)) : result.type === "too-large" ? "too-large" : undefined;
      const report = (outcome: RequestEvent["outcome"], retryInMs?: number): void =>
        this.#report({ operation, ruleId, attempt, status, outcome, durationMs, failure, retryInMs });
      if (!refusedUnacted(result)) mayHaveLanded = true;

      if (result.type === "too-large") {
        report("error");
        throw this.#bodyTooLarge(operation, ruleId);
      }
      if (result.type === "failure" && result.kind === "timeout" && attemptMs < this.timeoutMs) {
        report("error");
        throw this.#deadlineReached(operation, ruleId, attempt, byRun);
      }

      if (result.type === "response" && result.status >= 200 && result.status <= 299) {
        let value: T | undefined;
        try {
          value = schema === null ? undefined : this.#parse(operation, ruleId, result, schema);
        } catch (error) {
          report("error");
          throw error;
        }
        report("ok");
        return value;
      }

      // The read of a guard, on the token its call is to go with: a 401 is the guard's to handle
      // (a new token, then a new pair and read), not this read's (a renewal and a resend here
      // would come between the read and the call).
      if (result.type === "response" && result.status === 401 && attempt === 1 && options.token !== undefined && !(this.#tokens instanceof StaticToken)) {
        report("error");
        throw new PinnedTokenRefused(options.token);
      }
      // A 401: a new token from the source, and the request sent again with it, once (more when
      // the token refused was one another request had fetched, which may have gone stale).
      if (result.type === "response" && result.status === 401 && !(this.#tokens instanceof StaticToken) && token !== fetchedForThis && renewals < MAX_RENEWALS) {
        renewals += 1;
        refused = token;
        // No other request is handed the refused token meanwhile (each fetches a new one, one run for all).
        this.#tokens.markRefused?.(token);
        report("retry", 0);
        continue;
      }

      const limited = result.type === "response" && result.status === 429;
      if (limited) rateLimited += 1;
      else failures += 1;
      let decision = this.#decide(result, limited ? rateLimited : failures, options.idempotent);
      if (guard !== undefined && limited && decision.retry && rateLimited >= MAX_GUARDED_429S) {
        decision = {
          retry: false,
          reason: `The service answered 429 to each of ${rateLimited} sends made right after the call's guard read (each time after a new read): it does not admit two requests back to back now; the call is not sent after a wait, which would let a change made after the read be wiped`,
        };
      }
      if (decision.retry && this.#now() + decision.delayMs >= deadlineAt) {
        report("error");
        throw this.#deadlineReached(operation, ruleId, attempt, byRun);
      }
      if (decision.retry) {
        report("retry", decision.delayMs);
        await this.#sleep(decision.delayMs);
        continue;
      }
      report("error");
      throw this.#error(operation, ruleId, result, attempt, decision.reason ?? this.#refusalNote(result, renewals > 0), !mayHaveLanded);
    }
  }

  /** The limiter's ticket for an attempt of an unguarded request (0 without a limiter). */
  async #ticket(options: PostOptions, attempt: number): Promise<number> {
    const limiter = this.rateLimiter;
    if (limiter === undefined) return 0;
    return attempt === 1 && options.ticket !== undefined ? options.ticket : limiter.acquire();
  }

  /**
   * Runs the guard of an attempt and returns the attempt's ticket, to be sent at once: the guard's
   * read goes on the first ticket of a pair, the attempt on the second, with no wait between them.
   * When the second cannot go at once (the read took so long that other sends were let out), the
   * pair lapses and the guard reads again on a new one (the wait comes before that read); after
   * {@link MAX_GUARD_LAPSES} lapses, or past the deadline, the call is given up, not sent.
   */
  async #guarded(
    operation: string,
    ruleId: string | undefined,
    guard: (slot: GuardSlot) => Promise<void>,
    tokens: { readonly take: () => Promise<string>; readonly refuse: (token: string) => void },
    mayHaveLanded: boolean,
    deadlineAt: number,
    attemptsMade: number,
    byRun: boolean,
  ): Promise<{ ticket: number; token: string }> {
    const limiter = this.rateLimiter;
    let refusals = 0;
    if (limiter === undefined) {
      for (;;) {
        const token = await tokens.take();
        try {
          await guard({ ticket: undefined, token, mayHaveLanded });
          return { ticket: 0, token };
        } catch (error) {
          if (!(error instanceof PinnedTokenRefused) || ++refusals > MAX_RENEWALS) throw unpinned(error);
          tokens.refuse(error.token);
        }
      }
    }
    for (let lapses = 0; ; lapses += 1) {
      if (lapses >= MAX_GUARD_LAPSES) {
        throw new NotSentError(
          `${ruleId === undefined ? operation : `${operation} for rule '${ruleId}'`} was not sent: ${lapses} times its guard read took so long that other requests went out before it, ` +
            `and it is sent only right after a read with nothing in between. Nothing was changed; run apply again (with a lower --parallelism if the service is slow).`,
          operation,
          ruleId,
        );
      }
      if (this.#now() >= deadlineAt) throw this.#deadlineReached(operation, ruleId, attemptsMade, byRun);
      const [read, write] = await limiter.acquirePair();
      let token: string;
      try {
        // The token before the read (a renewal here may make the pair lapse: then a new pair, the
        // token cached by then), never between the read and the call.
        token = await tokens.take();
        await guard({ ticket: read, token, mayHaveLanded });
      } catch (error) {
        limiter.cancel(write);
        limiter.cancel(read);
        // The read's token was refused (it expired in the wait for the pair): a new one after the
        // next pair's wait, then the read again; not counted as a lapse.
        if (!(error instanceof PinnedTokenRefused) || ++refusals > MAX_RENEWALS) throw unpinned(error);
        tokens.refuse(error.token);
        lapses -= 1;
        continue;
      }
      limiter.cancel(read);
      if (limiter.begin(write)) return { ticket: write, token };
      limiter.cancel(write);
    }
  }

  /**
   * How long the next attempt may take: the per-attempt timeout, or what is left of the request's
   * overall deadline when that is less. Throws the deadline error when nothing is left.
   */
  #attemptBudget(operation: string, ruleId: string | undefined, deadlineAt: number, attemptsMade: number, byRun: boolean): number {
    const left = deadlineAt - this.#now();
    if (left <= 0) throw this.#deadlineReached(operation, ruleId, attemptsMade, byRun);
    return Math.min(this.timeoutMs, left);
  }

  #deadlineReached(operation: string, ruleId: string | undefined, attempts: number, byRun: boolean): ReadLimitError {
    if (byRun && this.runDeadline !== undefined) {
      return new ReadLimitError({
        operation,
        ruleId,
        limit: "run-deadline",
        what: `the run's deadline of ${seconds(this.runDeadline.ms)} (${this.runDeadline.source}) passed (${attempts} attempt${attempts === 1 ? "" : "s"} of this request); no further request is started`,
        fix: `If the run needs longer, raise ${RUN_DEADLINE_FLAG} SECONDS or ${ENV_RUN_DEADLINE_SECONDS}; otherwise check the service (it may be answering 429 or failing every request).`,
      });
    }
    return new ReadLimitError({
      operation,
      ruleId,
      limit: "deadline",
      what:
        attempts === 0
          ? `the request could not start within its overall deadline of ${seconds(this.requestDeadlineMs)}: waiting for its turn at the rate limiter (--max-rps, or the pace the service's 429s set) took all of it`
          : `the request did not complete within its overall deadline of ${seconds(this.requestDeadlineMs)} (${attempts} attempt${attempts === 1 ? "" : "s"}, each allowed ${seconds(this.timeoutMs)}, and the waits between them)`,
      fix: `If the service is this slow, raise ${ENV_REQUEST_DEADLINE_SECONDS}; otherwise check the service, which keeps the answer from ending.`,
    });
  }

  #bodyTooLarge(operation: string, ruleId: string | undefined): ReadLimitError {
    return new ReadLimitError({
      operation,
      ruleId,
      limit: "body-size",
      what: `the response body is larger than ${byteSize(this.maxBodyBytes)}; reading stopped there, and the request is not repeated`,
      fix: `If an answer this large is expected, raise ${ENV_MAX_BODY_MIB} (MiB); otherwise the service is misbehaving.`,
    });
  }

  /** For a 401 of a token source that renews (a token command): that a new token was refused too. */
  #refusalNote(result: Answer, refusedOnce: boolean): string | undefined {
    if (result.type !== "response" || result.status !== 401 || !refusedOnce || this.#tokens instanceof StaticToken) return undefined;
    return "The service refused the token twice in a row, the second time one just fetched again";
  }

  async #attempt(path: string, data: string, accept: AcceptType, timeoutMs: number, token: string): Promise<AttemptResult> {
    const controller = new AbortController();
    let timedOut = false;
    // A whole-attempt deadline (axios' own timeout only watches socket inactivity in Node).
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await this.#http.request<string>({
        method: "POST",
        url: `${this.baseUrl}${path}`,
        data,
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          Accept: accept,
        },
        timeout: timeoutMs,
        signal: controller.signal,
        // The body cap: axios stops reading (and drops the connection) past it.
        maxContentLength: this.maxBodyBytes,
        responseType: "text",
        transformRequest: [(x: unknown) => x],
        transformResponse: [(x: unknown) => x],
        validateStatus: () => true,
        transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
      });
      return {
        type: "response",
        status: response.status,
        contentType: headerValue(response.headers["content-type"]),
        retryAfter: headerValue(response.headers["retry-after"]),
        retryAfterMs: headerValue(response.headers["retry-after-ms"]),
        location: headerValue(response.headers["location"]),
        text: typeof response.data === "string" ? response.data : String(response.data ?? ""),
      };
    } catch (error) {
      return this.#failure(error, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Turns whatever axios threw into a header-free description. */
  #failure(error: unknown, timedOut: boolean): AttemptResult {
    const code = isAxiosError(error) ? error.code : errorCode(error);
    const rawMessage = error instanceof Error ? error.message : String(error);
    if (code === "ERR_BAD_RESPONSE" && /^maxContentLength size of \d+ exceeded$/.test(rawMessage)) return { type: "too-large" };
    const message = redactString(rawMessage, this.#secrets());
    const isTimeout =
      timedOut || code === "ETIMEDOUT" || (code === "ECONNABORTED" && /timeout/i.test(rawMessage));
    if (isTimeout) return { type: "failure", kind: "timeout", code, message };
    // For a network error, prefer the system code (ECONNREFUSED) over axios' generic one.
    const cause = isAxiosError(error) ? errorCode(error.cause) : undefined;
    return { type: "failure", kind: "network", code: cause ?? code, message };
  }

  /** `count` is how many attempts failed this way so far: 429s, or every other failure. */
  #decide(result: Answer, count: number, idempotent: boolean): RetryDecision {
    if (result.type === "failure") {
      // DNS and TLS failures are not cured by another attempt (src/api/http/retry.ts).
      const permanent = result.kind === "network" ? permanentNetworkFailure(result.code, result.message) : undefined;
      if (permanent !== undefined) return { retry: false, reason: `Not retried: ${permanent} (base URL ${this.baseUrl})` };
      const neverSent = result.kind === "network" && result.code !== undefined && NOT_SENT_CODES.has(result.code);
      if (!idempotent && !neverSent) return { retry: false };
      return nextRetry(this.retryPolicy, count, undefined, this.#random);
    }
    if (!isRetryableStatus(result.status) || !idempotent) return { retry: false };
    const retryAfterMs = honoursRetryAfter(result.status) ? retryAfterDelay(result.retryAfter, result.retryAfterMs, this.#now()) : undefined;
    const budget = result.status === 429 ? this.retryPolicy.maxRateLimitRetries + 1 : this.retryPolicy.maxAttempts;
    return nextRetry(this.retryPolicy, count, retryAfterMs, this.#random, budget);
  }

  #error(operation: string, ruleId: string | undefined, result: Answer, attempts: number, note: string | undefined, notSent: boolean): ApiError {
    if (result.type === "failure") {
      return new ApiError({
        operation,
        ruleId,
        kind: result.kind,
        retryable: result.kind === "timeout" || permanentNetworkFailure(result.code, result.message) === undefined,
        attempts,
        timeoutMs: result.kind === "timeout" ? this.timeoutMs : undefined,
        networkCode: result.kind === "network" ? result.code : undefined,
        serviceMessage: result.kind === "network" ? result.message : undefined,
        note,
        notSent,
      });
    }
    const service = readServiceError(result.text, result.contentType);
    const redirect = this.#redirectNote(result);
    return new ApiError({
      operation,
      ruleId,
      kind: "http",
      status: result.status,
      serviceCode: service.code === undefined ? undefined : redactString(service.code, this.#secrets()),
      serviceMessage: service.message === undefined ? undefined : redactString(service.message, this.#secrets()),
      retryable: isRetryableStatus(result.status),
      attempts,
      tokenOrigin: result.status === 401 && !(this.#tokens instanceof StaticToken) ? this.#tokens.origin : undefined,
      note: [note, redirect].filter((s) => s !== undefined).join(". ") || undefined,
      notSent,
    });
  }

  /** For a 3xx: where it points, and that redirects are not followed (the token would go along). */
  #redirectNote(result: Extract<AttemptResult, { type: "response" }>): string | undefined {
    if (result.status < 300 || result.status > 399) return undefined;
    const where = result.location === undefined ? "without a Location header" : `to ${redactString(result.location, this.#secrets())}`;
    return `The service redirects ${where}; redirects are not followed (the request carries the token). If the service has moved, point ALERTS_API_URL (or --base-url) at the new address`;
  }

  #parse<T>(
    operation: string,
    ruleId: string | undefined,
    result: Extract<AttemptResult, { type: "response" }>,
    schema: z.ZodType<T>,
  ): T {
    const received = {
      status: result.status,
      contentType: result.contentType,
      snippet: redactString(snippet(result.text), this.#secrets()),
    };
    const where = `status ${result.status}, content-type ${result.contentType ?? "(none)"}`;
    if (result.text.trim() === "") {
      throw new ResponseShapeError({ operation, ruleId, problems: [`empty body (${where})`], received });
    }
    let json: unknown;
    try {
      json = JSON.parse(result.text);
    } catch {
      throw new ResponseShapeError({
        operation,
        ruleId,
        problems: [`body is not valid JSON (${where}; starts with ${JSON.stringify(received.snippet)})`],
        received,
      });
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    // The issues quote received values, which a hostile service may fill with the token.
    const problems = formatIssues(parsed.error.issues, json).map((p) => redactString(p, this.#secrets()));
    throw new ResponseShapeError({ operation, ruleId, problems });
  }

  #secrets(): string[] {
    return [...this.#sent];
  }

  #report(event: {
    operation: string;
    ruleId: string | undefined;
    attempt: number;
    status: number | undefined;
    outcome: RequestEvent["outcome"];
    durationMs: number;
    failure: string | undefined;
    retryInMs: number | undefined;
  }): void {
    if (this.#onRequest === undefined) return;
    this.#onRequest({
      operation: event.operation,
      ...(event.ruleId === undefined ? {} : { ruleId: event.ruleId }),
      attempt: event.attempt,
      ...(event.status === undefined ? {} : { status: event.status }),
      outcome: event.outcome,
      durationMs: event.durationMs,
      ...(event.failure === undefined ? {} : { failure: event.failure }),
      ...(event.retryInMs === undefined ? {} : { retryInMs: event.retryInMs }),
    });
  }
}

/**
 * A guard's read refused (401) with the token its call was to go with: handled by the guarded
 * call (a new token, a new pair, the read again), never shown as such.
 */
class PinnedTokenRefused extends Error {
  readonly #token: string;

  constructor(token: string) {
    super("the token of a guard's read was refused (401)");
    this.#token = token;
  }

  get token(): string {
    return this.#token;
  }
}

/** What a guard threw, as the guarded call throws it: a refused read's token as the 401 error it is. */
function unpinned(error: unknown): unknown {
  if (!(error instanceof PinnedTokenRefused)) return error;
  return new ApiError({ operation: "query-users", kind: "http", status: 401, retryable: false, attempts: 1, note: "The token was refused again right after it was fetched" });
}

/**
 * The attempt certainly changed nothing: answered 429 (refused before acting) or 401, or it never
 * reached the service (connection refused, host not found).
 */
function refusedUnacted(result: AttemptResult): boolean {
  if (result.type === "response") return result.status === 429 || result.status === 401;
  return result.type === "failure" && result.kind === "network" && result.code !== undefined && NOT_SENT_CODES.has(result.code);
}

function headerValue(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first === "string") return first;
  if (typeof first === "number") return String(first);
  return undefined;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}
