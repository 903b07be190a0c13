/**
 * What a person at a terminal sees while the client retries: one stderr line per retry, so a
 * closed port or a struggling service does not leave the screen blank for the whole backoff
 * (10 attempts take about 16 s). In CI logs too (not a TTY), where a silent 20 s reads as a hang:
 * the same line, without the terminal's line clearing.
 */
import type { RateLimiter, RequestEvent, RequestHook, RetryPolicy } from "../api";
import type { RetryReport } from "../io/workflow/session/reporter";
import type { OutputStream } from "./io";
import { formatRps } from "./progress";

const FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused (is the service, or the simulator, running at that address?)",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  timeout: "no answer within the timeout",
};

/** `query-users: connection refused …; retrying in 0.4 s (attempt 2 of 10)`. */
export function describeRetry(event: RequestEvent, baseUrl: string, policy: Pick<RetryPolicy, "maxAttempts" | "maxRateLimitRetries">): string {
  // A 401 is retried only for a token command, once, with the token it just printed.
  if (event.status === 401) return `${event.operation}: the token was refused (401); sending it again, once, with a new token from the token command`;
  const what =
    event.status === 429
      ? "the service asked to slow down (429)"
      : event.status !== undefined
        ? `HTTP ${event.status}`
        : `${FAILURES[event.failure ?? ""] ?? `no response (${event.failure ?? "network error"})`} at ${baseUrl}`;
  const wait = event.retryInMs === undefined ? "" : ` in ${(event.retryInMs / 1000).toFixed(1)} s`;
  const budget = event.status === 429 ? policy.maxRateLimitRetries + 1 : policy.maxAttempts;
  return `${event.operation}: ${what}; retrying${wait} (attempt ${event.attempt + 1} of at most ${budget})`;
}

/**
 * A request hook that writes each retry to `stream`, one line each (on a TTY clearing a progress
 * line first). After a 429 it also says at what rate the run sends from then on (`limiter`).
 */
export function retryNotice(
  stream: OutputStream,
  baseUrl: string,
  policy: Pick<RetryPolicy, "maxAttempts" | "maxRateLimitRetries">,
  limiter?: RateLimiter,
): RequestHook {
  return (event) => {
    if (event.outcome !== "retry") return;
    showRetry(stream, { event, baseUrl, policy, rps: event.status === 429 ? limiter?.state().rps : undefined });
  };
}

/** Writes one retry of a command's run (src/io/workflow/session/reporter.ts) to `stream`: the line {@link retryNotice} writes. */
export function showRetry(stream: OutputStream, retry: RetryReport): void {
  const clear = stream.isTTY === true ? "\r\x1b[2K" : "";
  const slower = retry.rps === undefined ? "" : `; sending at most ${formatRps(retry.rps)} requests/s from now on`;
  stream.write(`${clear}${describeRetry(retry.event, withoutCredentials(retry.baseUrl), retry.policy)}${slower}\n`);
}

/** The base URL without user, password, query or fragment (they may carry secrets). */
function withoutCredentials(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "the service";
  }
}
