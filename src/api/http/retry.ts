/**
 * The retry policy: which failures are retried, and how long to wait before the next attempt
 * (exponential backoff with full jitter, or what `Retry-After` asks for on 429 / 503).
 */
import { InvalidArgumentError } from "../../errors";
import { neverSent, type Answer } from "./attempt";

export interface RetryPolicy {
  /**
   * Total attempts, the first one included. @default 10 - enough that a service failing about a
   * third of the requests (503s plus 429s) still lets a 50-rule apply through: at 5 attempts such
   * a run lost some call about every other time.
   */
  readonly maxAttempts: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). @default 200 */
  readonly baseDelayMs: number;
  /** Cap of the exponential backoff. @default 5000 */
  readonly maxDelayMs: number;
  /**
   * Longest `Retry-After` honoured. When the service asks for a longer wait the client stops
   * retrying (rather than come back earlier than asked) and reports the failure. @default 30000
   */
  readonly maxRetryAfterMs: number;
  /**
   * 429 answers waited out, counted apart from `maxAttempts`: being asked to slow down is not a
   * failure, so it does not spend the budget of attempts meant for errors. @default 20
   */
  readonly maxRateLimitRetries: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 10,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 30000,
  maxRateLimitRetries: 20,
});

/** Waits `ms` milliseconds. Injectable so tests need not wait. */
export type Sleep = (ms: number) => Promise<void>;
/** A number in [0, 1), like Math.random. Injectable for deterministic jitter. */
export type Random = () => number;

export const realSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Fills in the defaults and checks the values (throws InvalidArgumentError naming each bad field). */
export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...definedOnly(overrides) };
  const problems: string[] = [];
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    problems.push(`maxAttempts must be a whole number of at least 1 (got ${policy.maxAttempts})`);
  }
  if (!Number.isInteger(policy.maxRateLimitRetries) || policy.maxRateLimitRetries < 0) {
    problems.push(`maxRateLimitRetries must be a whole number of at least 0 (got ${policy.maxRateLimitRetries})`);
  }
  for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) problems.push(`${key} must be 0 or more (got ${policy[key]})`);
  }
  if (problems.length > 0) throw new InvalidArgumentError(`Invalid retry policy: ${problems.join("; ")}.`);
  return policy;
}

function definedOnly(overrides: Partial<RetryPolicy>): Partial<RetryPolicy> {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
}

/** 429 and every 5xx are worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Statuses on which a `Retry-After` header is honoured. */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * Parses a `Retry-After` value (delay in seconds, or an HTTP date) into milliseconds from `now`.
 * Returns undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Parses a `Retry-After-Ms` value (a non-negative number of milliseconds, rounded up). Returns
 * undefined when absent, empty or unreadable, so that `Retry-After` is honoured instead: an empty
 * header (a proxy that blanks it) must never read as "retry at once".
 */
export function parseRetryAfterMs(value: string | undefined): number | undefined {
  const text = value?.trim() ?? "";
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Math.ceil(Number(text));
}

/** The wait a 429 or 503 asks for: `Retry-After-Ms` when sent and readable, else `Retry-After`. */
export function retryAfterDelay(retryAfter: string | undefined, retryAfterMs: string | undefined, now: number = Date.now()): number | undefined {
  return parseRetryAfterMs(retryAfterMs) ?? parseRetryAfter(retryAfter, now);
}

/** Full-jitter backoff before attempt `attempt + 1`, after `attempt` (1-based) failed. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: Random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export type RetryDecision =
  | { readonly retry: true; readonly delayMs: number }
  | { readonly retry: false; readonly reason?: string };

/**
 * Decides whether to make another attempt after `attempt` (1-based) failed in a retryable way,
 * and how long to wait first. `retryAfterMs` is the parsed header, if the status honours it.
 * `budget` is how many such attempts may be made in all (the 429 budget for rate limiting).
 */
export function nextRetry(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: Random = Math.random,
  budget: number = policy.maxAttempts,
): RetryDecision {
  if (attempt >= budget) return { retry: false };
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.maxRetryAfterMs) {
      return {
        retry: false,
        reason: `The service asked to retry after ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${Math.ceil(policy.maxRetryAfterMs / 1000)} s the client waits`,
      };
    }
    return { retry: true, delayMs: retryAfterMs };
  }
  return { retry: true, delayMs: backoffDelay(policy, attempt, random) };
}

/** What {@link decideRetry} needs besides the answer. */
export interface RetryContext {
  readonly policy: RetryPolicy;
  /** For the message of a network failure that is not retried. */
  readonly baseUrl: string;
  readonly random: Random;
  readonly now: () => number;
}

/**
 * Whether to send again after `answer` (an answer that is not a success), and after how long.
 * `count` is how many attempts failed this way so far: 429s, or every other failure (each has its
 * own budget). A request that is not `idempotent` is retried only when it certainly never reached
 * the service.
 */
export function decideRetry(answer: Answer, count: number, idempotent: boolean, context: RetryContext): RetryDecision {
  const { policy, random } = context;
  if (answer.type === "failure") {
    // DNS and TLS failures are not cured by another attempt.
    const permanent = answer.kind === "network" ? permanentNetworkFailure(answer.code, answer.message) : undefined;
    if (permanent !== undefined) return { retry: false, reason: `Not retried: ${permanent} (base URL ${context.baseUrl})` };
    if (!idempotent && !neverSent(answer)) return { retry: false };
    return nextRetry(policy, count, undefined, random);
  }
  if (!isRetryableStatus(answer.status) || !idempotent) return { retry: false };
  const retryAfterMs = honoursRetryAfter(answer.status) ? retryAfterDelay(answer.retryAfter, answer.retryAfterMs, context.now()) : undefined;
  const budget = answer.status === 429 ? policy.maxRateLimitRetries + 1 : policy.maxAttempts;
  return nextRetry(policy, count, retryAfterMs, random, budget);
}

/**
 * A network failure that another attempt cannot cure, and what to check instead; undefined when
 * the failure may be passing (a reset, a refused port while the service restarts, EAI_AGAIN: the
 * resolver's own "try again"). Not retried: a name that does not resolve (ENOTFOUND), and TLS
 * failures (a plain-HTTP server answering https: OpenSSL's "wrong version number", any other
 * ERR_SSL_* or EPROTO, a certificate that is not trusted, expired or for another name).
 * `code` is the system or OpenSSL code, `message` the error's text.
 */
export function permanentNetworkFailure(code: string | undefined, message: string): string | undefined {
  if (code === "ENOTFOUND") return "the host name does not resolve (DNS): check the host of the base URL (ALERTS_API_URL or --base-url)";
  if (/wrong version number/i.test(message) || code === "ERR_SSL_WRONG_VERSION_NUMBER") {
    return "the server does not speak TLS: if it serves plain HTTP (as the simulator does), use an http:// base URL";
  }
  if (code !== undefined && TLS_CERTIFICATE_CODES.has(code)) {
    return `the server's TLS certificate is not accepted (${code}): check the host name of the base URL, or give Node.js the issuing CA with NODE_EXTRA_CA_CERTS`;
  }
  if (code === "EPROTO" || code?.startsWith("ERR_SSL_") === true || code?.startsWith("ERR_TLS_") === true) {
    return "the TLS handshake failed: check that the base URL's scheme and port are the service's HTTPS endpoint";
  }
  return undefined;
}

/** Node's codes for a certificate that is refused (from OpenSSL's verify step and tls.checkServerIdentity). */
const TLS_CERTIFICATE_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);
