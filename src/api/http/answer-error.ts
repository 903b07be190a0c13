/**
 * The ApiError of a request's last answer, once no attempt follows: the kind, the status and what
 * the error body says (redacted), the network code, whether such a failure is retried, and the
 * notes (why retrying stopped, where a redirect points).
 */
import { ApiError } from "./errors";
import { redactString } from "./redact";
import { readServiceError } from "./response-errors";
import { isRetryableStatus, permanentNetworkFailure } from "./retry";
import type { Answer, FailureAnswer, ResponseAnswer } from "./attempt";

/** About the request whose last answer it is. */
export interface AnswerErrorContext {
  readonly operation: string;
  readonly ruleId: string | undefined;
  /** Attempts made, the last one included. */
  readonly attempts: number;
  /** Why retrying stopped, when it stopped early. */
  readonly note: string | undefined;
  /** No attempt can have changed anything (ApiErrorDetails.notSent). */
  readonly notSent: boolean;
  /** The request was a write (ApiErrorDetails.write). */
  readonly write: boolean;
  /** The per-attempt timeout, for the message of a timeout. */
  readonly timeoutMs: number;
  /** For a 401: where the token came from, when the source renews. */
  readonly tokenOrigin: string | undefined;
  /** Redacted from whatever the service said. */
  readonly secrets: readonly string[];
}

export function answerError(answer: Answer, context: AnswerErrorContext): ApiError {
  return answer.type === "failure" ? failureError(answer, context) : responseError(answer, context);
}

function failureError(failure: FailureAnswer, context: AnswerErrorContext): ApiError {
  return new ApiError({
    operation: context.operation,
    ruleId: context.ruleId,
    kind: failure.kind,
    retryable: failure.kind === "timeout" || permanentNetworkFailure(failure.code, failure.message) === undefined,
    attempts: context.attempts,
    timeoutMs: failure.kind === "timeout" ? context.timeoutMs : undefined,
    networkCode: failure.kind === "network" ? failure.code : undefined,
    serviceMessage: failure.kind === "network" ? failure.message : undefined,
    note: context.note,
    notSent: context.notSent,
    write: context.write,
  });
}

function responseError(response: ResponseAnswer, context: AnswerErrorContext): ApiError {
  const service = readServiceError(response.text, response.contentType);
  const redirect = redirectNote(response, context.secrets);
  return new ApiError({
    operation: context.operation,
    ruleId: context.ruleId,
    kind: "http",
    status: response.status,
    serviceCode: service.code === undefined ? undefined : redactString(service.code, context.secrets),
    serviceMessage: service.message === undefined ? undefined : redactString(service.message, context.secrets),
    retryable: isRetryableStatus(response.status),
    attempts: context.attempts,
    tokenOrigin: context.tokenOrigin,
    note: [context.note, redirect].filter((s) => s !== undefined).join(". ") || undefined,
    notSent: context.notSent,
    write: context.write,
  });
}

/** For a 3xx: where it points, and that redirects are not followed (the token would go along). */
function redirectNote(response: ResponseAnswer, secrets: readonly string[]): string | undefined {
  if (response.status < 300 || response.status > 399) return undefined;
  const where = response.location === undefined ? "without a Location header" : `to ${redactString(response.location, secrets)}`;
  return `The service redirects ${where}; redirects are not followed (the request carries the token). If the service has moved, point ALERTS_API_URL (or --base-url) at the new address`;
}
