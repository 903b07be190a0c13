/**
 * Errors of the API client. Both are built from redacted, header-free data only: the raw axios
 * error is never attached (not as `cause` either), because it carries the request headers.
 */
import { escapeInvisible } from "../../shared/invisible";
import { AlertRuleUsersError } from "../../errors";
import { redactString } from "./redact";

export type ApiErrorKind = "http" | "timeout" | "network";

export interface ApiErrorDetails {
  /** Operation name, e.g. "add-users". */
  readonly operation: string;
  /** The rule the operation was about, when it is rule-scoped. */
  readonly ruleId?: string | undefined;
  readonly kind: ApiErrorKind;
  /** HTTP status of the last attempt (undefined for timeouts and network errors). */
  readonly status?: number | undefined;
  /** Message read from the error body (already redacted by the caller or not: it is redacted here). */
  readonly serviceMessage?: string | undefined;
  /** Error code read from the error body, e.g. "RULE_IS_SYSTEM". */
  readonly serviceCode?: string | undefined;
  /** Whether the failure was of a kind that is retried (429, 5xx, timeout, network). */
  readonly retryable: boolean;
  /** HTTP attempts made, retries included. */
  readonly attempts: number;
  /** For timeouts: the per-attempt timeout. */
  readonly timeoutMs?: number | undefined;
  /** For network errors: the system error code (ECONNREFUSED, ECONNRESET, ...). */
  readonly networkCode?: string | undefined;
  /** Extra sentence explaining why retrying stopped early, if it did. */
  readonly note?: string | undefined;
  /** Where the token came from (TokenSource.origin), named by the hint of a 401. */
  readonly tokenOrigin?: string | undefined;
  /**
   * No attempt can have changed anything: each was answered 429 or 401, or never reached the
   * service. The message then says "not sent" rather than leaving it open. @default false
   */
  readonly notSent?: boolean | undefined;
  /**
   * The request was a write, the only kind a "not sent" is worth saying of: the rule-list client
   * sends every write of the wire table through one method that says so (src/api/rules/client.ts),
   * so a new write operation needs nothing here. @default false
   */
  readonly write?: boolean | undefined;
}

function subject(operation: string, ruleId: string | undefined): string {
  return ruleId === undefined ? operation : `${operation} for rule '${ruleId}'`;
}

/** What to do about a failure, when there is something obvious to say. */
function hintFor(details: ApiErrorDetails): string | undefined {
  if (details.kind === "timeout") {
    return "The service did not answer in time; check ALERTS_API_URL and try again later.";
  }
  if (details.kind === "network") {
    return "Could not reach the service; check ALERTS_API_URL and the network.";
  }
  switch (details.status) {
    case 401:
      return details.tokenOrigin === undefined
        ? "The token was refused; check ALERTS_API_TOKEN (or --token-file)."
        : `The token was refused; check ${details.tokenOrigin}.`;
    case 403:
      return "Access denied; check ALERTS_TENANT_ID and the roles of the token.";
    case 404:
      return details.ruleId === undefined ? undefined : "Check the rule ID (query-rule-metadata lists the rules).";
    case 429:
      return "The service is rate limiting; try again later.";
    default:
      return undefined;
  }
}

function describeFailure(details: ApiErrorDetails): string {
  if (details.kind === "timeout") {
    return details.timeoutMs === undefined ? "timed out" : `timed out after ${details.timeoutMs} ms`;
  }
  if (details.kind === "network") {
    const code = details.networkCode === undefined ? "" : ` ${details.networkCode}`;
    return `network error${code}${details.serviceMessage === undefined ? "" : `: ${details.serviceMessage}`}`;
  }
  const parts = [String(details.status ?? "HTTP error")];
  if (details.serviceCode !== undefined) parts.push(details.serviceCode);
  const head = parts.join(" ");
  return details.serviceMessage === undefined ? head : `${head}: ${details.serviceMessage}`;
}

/** A request that failed: an HTTP error status, a timeout, or a network error. */
export class ApiError extends AlertRuleUsersError {
  readonly operation: string;
  readonly ruleId?: string;
  readonly status: number | undefined;
  readonly kind: ApiErrorKind;
  readonly serviceMessage: string | undefined;
  readonly serviceCode: string | undefined;
  readonly retryable: boolean;
  readonly attempts: number;
  /** For network errors: the system error code (ECONNREFUSED, ...), for the CLI's hint. */
  readonly networkCode: string | undefined;
  /** No attempt can have changed anything (each refused with 429 or 401, or never sent). */
  readonly notSent: boolean;

  constructor(details: ApiErrorDetails) {
    const clean: ApiErrorDetails = {
      ...details,
      // the service's own words: redacted, and escaped (nothing in them may draw where the error is shown)
      serviceMessage: details.serviceMessage === undefined ? undefined : escapeInvisible(redactString(details.serviceMessage)),
      serviceCode: details.serviceCode === undefined ? undefined : escapeInvisible(redactString(details.serviceCode)),
    };
    const attempts = clean.attempts > 1 ? ` (after ${clean.attempts} attempts)` : "";
    const unsent =
      clean.notSent === true && clean.write === true
        ? "Not sent: no attempt was acted on by the service (each was refused with 429 or 401, or never reached it), so nothing was changed"
        : undefined;
    const sentences = [clean.note, unsent, hintFor(clean)]
      .filter((s): s is string => s !== undefined)
      .map((s) => (/[.!?]$/.test(s) ? s : `${s}.`));
    const head = `${subject(clean.operation, clean.ruleId)} failed: ${describeFailure(clean)}${attempts}`;
    const message = sentences.length > 0 ? `${head.replace(/[.\s]+$/, "")}. ${sentences.join(" ")}` : head;
    super("API", redactString(message));
    this.operation = clean.operation;
    if (clean.ruleId !== undefined) this.ruleId = clean.ruleId;
    this.status = clean.status;
    this.kind = clean.kind;
    this.serviceMessage = clean.serviceMessage;
    this.serviceCode = clean.serviceCode;
    this.retryable = clean.retryable;
    this.attempts = clean.attempts;
    this.networkCode = clean.networkCode;
    this.notSent = clean.notSent === true;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      operation: this.operation,
      ...(this.ruleId === undefined ? {} : { ruleId: this.ruleId }),
      kind: this.kind,
      status: this.status,
      serviceCode: this.serviceCode,
      serviceMessage: this.serviceMessage,
      retryable: this.retryable,
      attempts: this.attempts,
      notSent: this.notSent,
    };
  }
}

/**
 * A write given up before it was sent: remove-all-users whose guard read could not be followed by
 * it without a wait (src/api/http/turn.ts). Nothing was changed.
 */
export class NotSentError extends AlertRuleUsersError {
  readonly operation: string;
  readonly ruleId?: string;

  constructor(message: string, operation: string, ruleId: string | undefined) {
    super("API", redactString(message));
    this.operation = operation;
    if (ruleId !== undefined) this.ruleId = ruleId;
  }
}

/**
 * The token could not be had: a token command that failed (non-zero exit, timeout, empty or
 * invalid output), or credentials given in two places. The message names the source and never
 * holds a token (the command's stdout is never quoted; its stderr is redacted).
 */
export class CredentialError extends AlertRuleUsersError {
  constructor(message: string) {
    super("CREDENTIALS", redactString(message));
  }
}

/** What was received when a body could not be read at all (never any header but content-type). */
export interface ReceivedBody {
  readonly status: number;
  readonly contentType: string | undefined;
  /** The first ~80 characters of the body, redacted. */
  readonly snippet: string;
}

export interface ResponseShapeErrorDetails {
  readonly operation: string;
  readonly ruleId?: string | undefined;
  /** One line per problem: `field.path: what is wrong`, or a description of an unreadable body. */
  readonly problems: readonly string[];
  readonly received?: ReceivedBody | undefined;
}

/** A 2xx response whose body is not what the interface documents (invalid JSON, empty, wrong shape). */
export class ResponseShapeError extends AlertRuleUsersError {
  readonly operation: string;
  readonly ruleId?: string;
  readonly problems: readonly string[];
  readonly received: ReceivedBody | undefined;

  constructor(details: ResponseShapeErrorDetails) {
    const problems = details.problems.map((p) => redactString(p));
    super(
      "RESPONSE_SHAPE",
      `${subject(details.operation, details.ruleId)} returned an unexpected response: ${problems.join("; ")}`,
    );
    this.operation = details.operation;
    if (details.ruleId !== undefined) this.ruleId = details.ruleId;
    this.problems = problems;
    this.received =
      details.received === undefined ? undefined : { ...details.received, snippet: redactString(details.received.snippet) };
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      operation: this.operation,
      ...(this.ruleId === undefined ? {} : { ruleId: this.ruleId }),
      problems: this.problems,
      ...(this.received === undefined ? {} : { received: this.received }),
    };
  }
}

/** Which bound stopped a read (see src/api/http/read-limits.ts). */
export type ReadLimit = "body-size" | "deadline" | "run-deadline" | "too-many-results" | "no-progress";

export interface ReadLimitErrorDetails {
  readonly operation: string;
  readonly ruleId?: string | undefined;
  readonly limit: ReadLimit;
  /** What happened, e.g. "the response body is larger than 64 MiB". */
  readonly what: string;
  /** How to go on. */
  readonly fix: string;
}

/**
 * A read stopped by one of the bounds that keep a hostile or broken service from making it
 * endless: the body cap, the overall deadline of a request, the most results a search may bring,
 * or a page that brings nothing new. Never retried. The message names the limit and the fix.
 */
export class ReadLimitError extends AlertRuleUsersError {
  readonly operation: string;
  readonly ruleId?: string;
  readonly limit: ReadLimit;

  constructor(details: ReadLimitErrorDetails) {
    super("READ_LIMIT", redactString(`${subject(details.operation, details.ruleId)} stopped: ${details.what}. ${details.fix}`));
    this.operation = details.operation;
    if (details.ruleId !== undefined) this.ruleId = details.ruleId;
    this.limit = details.limit;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), operation: this.operation, ...(this.ruleId === undefined ? {} : { ruleId: this.ruleId }), limit: this.limit };
  }
}

/** A 200 answer whose `problems` list is not empty, as an ApiError (code PROBLEMS), the list cut to 300 characters. */
export function problemsError(operation: string, problems: readonly unknown[]): ApiError {
  const text = problems.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join("; ");
  return new ApiError({
    operation,
    kind: "http",
    status: 200,
    serviceCode: "PROBLEMS",
    serviceMessage: `the service reported problems: ${text.length > 300 ? `${text.slice(0, 300)}...` : text}`,
    retryable: false,
    attempts: 1,
  });
}
