/**
 * Public surface of src/api: the typed client of the alert service, its transport, errors,
 * connection settings, filter builders, request counter and wire schemas.
 */
export * from "./rules/schemas";
export * from "./operators";
export { RuleListClient } from "./rules/client";
export * from "./triage/schemas";
export { TriageClient, DEFAULT_ALERT_PAGE_SIZE, DEFAULT_FILE_EVENT_PAGE_SIZE } from "./triage/client";
export type { AlertQueryOptions, AllAlertsOptions, CreateCaseInput, FileEventSearchInput } from "./triage/client";
export { alertFilter, parseAlertFilter, alertCriteriaGroups } from "./triage/filters";
export type { AlertCriteria } from "./triage/filters";
export { checkCaseNumber, checkEventId, checkDate, MAX_EVENT_ID_LENGTH } from "./triage/validate";
export { eventIdsOf, observationDataJson } from "./triage/views";
export type { ClientOptions, RuleMetadataPageOptions, RuleMetadataSearchOptions } from "./rules/client";
export { HttpTransport, DEFAULT_TIMEOUT_MS } from "./http/transport";
export { readServiceError, formatIssues } from "./http/response-errors";
export type { AcceptType, GuardSlot, PostOptions, RunDeadline, TransportOptions } from "./http/transport";
export { ApiError, CredentialError, NotSentError, ReadLimitError, ResponseShapeError } from "./http/errors";
export type { ApiErrorKind, ApiErrorDetails, ReadLimit, ReadLimitErrorDetails, ReceivedBody, ResponseShapeErrorDetails } from "./http/errors";
export {
  DEFAULT_READ_LIMITS,
  ENV_REQUEST_DEADLINE_SECONDS,
  ENV_RUN_DEADLINE_SECONDS,
  MAX_RUN_DEADLINE_SECONDS,
  RUN_DEADLINE_FLAG,
  paceBeyondDeadline,
  resolveReadLimits,
  type ReadLimits,
} from "./http/read-limits";
export {
  resolveConnection,
  describeConnection,
  connectionSecrets,
  checkBaseUrl,
  openTokenSource,
  registerEnvironmentSecrets,
  ENV_BASE_URL,
  ENV_TOKEN,
  ENV_TENANT_ID,
  registerUrlPassword,
  ENV_TOKEN_COMMAND,
  ENV_CLIENT_ID,
  ENV_CLIENT_SECRET,
  CREDENTIAL_ENV_VARS,
} from "./http/config";
export type { ConnectionConfig, ResolveConnectionOptions, OpenTokenSourceOptions } from "./http/config";
export { StaticToken, TokenCommand, ENV_TOKEN_COMMAND_ENV, ENV_TOKEN_COMMAND_TIMEOUT_SECONDS, DEFAULT_TOKEN_COMMAND_TIMEOUT_MS, tokenCommandEnvironment } from "./http/credentials";
export type { TokenSource, TokenCommandOptions, CommandOutput, RunCommand } from "./http/credentials";
export { filter, group, searchRequest, parseFilter, ALL_TERMS } from "./filters";
export type { Clause, FilterOptions, SearchPageOptions, SearchRequestOptions, TermTable } from "./filters";
export { RequestCounter } from "./http/counter";
export type { OperationCount, RequestCountSnapshot, RequestEvent, RequestHook } from "./http/counter";
export {
  DEFAULT_RETRY_POLICY,
  resolveRetryPolicy,
  parseRetryAfter,
  backoffDelay,
  nextRetry,
  isRetryableStatus,
  honoursRetryAfter,
  realSleep,
  permanentNetworkFailure,
} from "./http/retry";
export type { RetryPolicy, RetryDecision, Sleep, Random } from "./http/retry";
export { redact, redactString, registerSecret, REDACTED } from "./http/redact";
export { RateLimiter } from "./http/rate-limiter";
export type { RateLimiterOptions, RateLimiterState, SendOutcome } from "./http/rate-limiter";
