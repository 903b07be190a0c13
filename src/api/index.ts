/**
 * Public surface of src/api: the typed client of the alert service, its transport, errors,
 * connection settings, filter builders, request counter and wire schemas.
 */
export * from "./schemas";
export * from "./operators";
export { RuleListClient } from "./client";
export * from "./alert-schemas";
export { TriageClient, DEFAULT_ALERT_PAGE_SIZE, DEFAULT_FILE_EVENT_PAGE_SIZE } from "./triage-client";
export type { AlertQueryOptions, AllAlertsOptions, CreateCaseInput, FileEventSearchInput } from "./triage-client";
export { alertFilter, parseAlertFilter, alertCriteriaGroups } from "./triage-filters";
export type { AlertCriteria } from "./triage-filters";
export { checkCaseNumber, checkEventId, checkDate, MAX_EVENT_ID_LENGTH } from "./triage-validate";
export { eventIdsOf, observationDataJson } from "./triage-views";
export type { ClientOptions, RuleMetadataPageOptions, RuleMetadataSearchOptions } from "./client";
export { HttpTransport, DEFAULT_TIMEOUT_MS } from "./transport";
export { readServiceError, formatIssues } from "./response-errors";
export type { AcceptType, PostOptions, TransportOptions } from "./transport";
export { ApiError, ReadLimitError, ResponseShapeError } from "./errors";
export type { ApiErrorKind, ApiErrorDetails, ReadLimit, ReadLimitErrorDetails, ReceivedBody, ResponseShapeErrorDetails } from "./errors";
export { DEFAULT_READ_LIMITS, resolveReadLimits, type ReadLimits } from "./read-limits";
export {
  resolveConnection,
  describeConnection,
  checkBaseUrl,
  ENV_BASE_URL,
  ENV_TOKEN,
  ENV_TENANT_ID,
} from "./config";
export type { ConnectionConfig, ResolveConnectionOptions } from "./config";
export { filter, group, searchRequest, parseFilter, ALL_TERMS } from "./filters";
export type { Clause, FilterOptions, SearchPageOptions, SearchRequestOptions, TermTable } from "./filters";
export { RequestCounter } from "./counter";
export type { OperationCount, RequestCountSnapshot, RequestEvent, RequestHook } from "./counter";
export {
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
  parseRetryAfter,
  backoffDelay,
  nextRetry,
  isRetryableStatus,
  honoursRetryAfter,
  realSleep,
} from "./retry";
export type { RetryPolicy, RetryDecision, Sleep, Random } from "./retry";
export { redact, redactString, REDACTED } from "./redact";
export { RateLimiter } from "./rate-limiter";
export type { RateLimiterOptions, RateLimiterState, SendOutcome } from "./rate-limiter";
