/**
 * One attempt of one request: the one place axios is called. Builds the POST (bearer token,
 * content type, `Accept`), sends it with a whole-attempt timeout and the body cap, reads the body
 * as text, and describes what came back: a response, a failure without one (timeout or network,
 * from the error's code and redacted message only: axios errors carry the request headers and
 * never leave this file), or a body over the cap.
 */
import axios, { isAxiosError, type AxiosInstance } from "axios";
import type { ApiErrorKind } from "./errors";
import { redactString } from "./redact";
import { messageOf } from "../../shared/text";

/** `Accept` header: text/plain for the searches and query-users, application/json for writes (docs/interface.md). */
export type AcceptType = "text/plain" | "application/json";

/** A response that arrived, whatever its status. */
export interface ResponseAnswer {
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

/** An attempt that got no response: timed out, or failed on the network. */
export interface FailureAnswer {
  readonly type: "failure";
  readonly kind: Exclude<ApiErrorKind, "http">;
  readonly code: string | undefined;
  readonly message: string;
}

export type AttemptResult = ResponseAnswer | FailureAnswer | { readonly type: "too-large" };
/** An attempt that got an answer or failed in a way that may be retried (not the body cap). */
export type Answer = ResponseAnswer | FailureAnswer;

/** What one attempt sends. */
export interface AttemptRequest {
  readonly url: string;
  /** The body, already JSON. */
  readonly data: string;
  readonly accept: AcceptType;
  readonly token: string;
  /** The whole attempt's time limit. */
  readonly timeoutMs: number;
  /** Largest response body read. */
  readonly maxBodyBytes: number;
}

/** Network error codes that mean the request was never sent (safe to retry even when not idempotent). */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The HTTP client attempts are sent with (an axios instance; axios is used nowhere else). */
export type HttpClient = AxiosInstance;

/** The HTTP client of a transport: no defaults with the token (an inspected instance must not show it), no redirects followed. */
export function createHttpClient(): HttpClient {
  return axios.create({ maxRedirects: 0 });
}

/** Sends one attempt; never throws. `secrets` are redacted from a failure's message. */
export async function sendAttempt(http: HttpClient, request: AttemptRequest, secrets: () => readonly string[]): Promise<AttemptResult> {
  const controller = new AbortController();
  let timedOut = false;
  // A whole-attempt deadline (axios' own timeout only watches socket inactivity in Node).
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const response = await http.request<string>({
      method: "POST",
      url: request.url,
      data: request.data,
      headers: {
        Authorization: `Bearer ${request.token}`,
        "Content-Type": "application/json",
        Accept: request.accept,
      },
      timeout: request.timeoutMs,
      signal: controller.signal,
      // The body cap: axios stops reading (and drops the connection) past it.
      maxContentLength: request.maxBodyBytes,
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
    return describeFailure(error, timedOut, secrets());
  } finally {
    clearTimeout(timer);
  }
}

/** Turns whatever axios threw into a header-free description. */
function describeFailure(error: unknown, timedOut: boolean, secrets: readonly string[]): AttemptResult {
  const code = isAxiosError(error) ? error.code : errorCode(error);
  const rawMessage = messageOf(error);
  if (code === "ERR_BAD_RESPONSE" && /^maxContentLength size of \d+ exceeded$/.test(rawMessage)) return { type: "too-large" };
  const message = redactString(rawMessage, secrets);
  const isTimeout =
    timedOut || code === "ETIMEDOUT" || (code === "ECONNABORTED" && /timeout/i.test(rawMessage));
  if (isTimeout) return { type: "failure", kind: "timeout", code, message };
  // For a network error, prefer the system code (ECONNREFUSED) over axios' generic one.
  const cause = isAxiosError(error) ? errorCode(error.cause) : undefined;
  return { type: "failure", kind: "network", code: cause ?? code, message };
}

/** The attempt certainly never reached the service (connection refused, host not found). */
export function neverSent(result: AttemptResult): boolean {
  return result.type === "failure" && result.kind === "network" && result.code !== undefined && NOT_SENT_CODES.has(result.code);
}

/**
 * The attempt certainly changed nothing: answered 429 (refused before acting) or 401, or it never
 * reached the service (connection refused, host not found).
 */
export function refusedUnacted(result: AttemptResult): boolean {
  if (result.type === "response") return result.status === 429 || result.status === 401;
  return neverSent(result);
}

/** The status of a response, or undefined. */
export function statusOf(result: AttemptResult): number | undefined {
  return result.type === "response" ? result.status : undefined;
}

/** For the report of an attempt without a response: "timeout", the network code, or "too-large". */
export function failureLabel(result: AttemptResult): string | undefined {
  if (result.type === "failure") return result.kind === "timeout" ? "timeout" : (result.code ?? result.kind);
  return result.type === "too-large" ? "too-large" : undefined;
}

/** A 2xx response. */
export function isSuccess(result: AttemptResult): result is ResponseAnswer {
  return result.type === "response" && result.status >= 200 && result.status <= 299;
}

/** A response with this status. */
export function hasStatus(result: AttemptResult, status: number): result is ResponseAnswer {
  return result.type === "response" && result.status === status;
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
