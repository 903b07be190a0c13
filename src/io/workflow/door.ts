/**
 * What a front door (the CLI, the provider) may use beside the workflow's steps: of the client, the
 * names of the environment it reads, the redaction of secrets in what it prints, the error it tells
 * network failures by, and the triage commands' argument checks; the tool's errors it throws for
 * bad input and tells apart on the way out; the text helpers of its messages. A door imports
 * nothing below src/io/workflow (eslint-rules/door-imports.mjs), so this file is that surface,
 * named once.
 */
export { AlertRuleUsersError, ConfigError, UsageError } from "../../errors";
export { SECRET_VALUE_VARIABLES } from "../../shared/secret-variables";
export { shellQuote, titleCase } from "../../shared/text";
export {
  ApiError,
  ENV_BASE_URL,
  ENV_CLIENT_ID,
  ENV_CLIENT_SECRET,
  ENV_TOKEN,
  alertCriteriaGroups,
  checkBaseUrl,
  checkCaseNumber,
  checkDate,
  checkEventId,
  observationDataJson,
  parseAlertFilter,
  redactString,
  registerEnvironmentSecrets,
  registerSecret,
  registerUrlPassword,
} from "../../api";
