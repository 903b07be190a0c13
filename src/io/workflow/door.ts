/**
 * What a front door (the CLI, the provider) may use of the client beside the workflow's steps: the
 * names of the environment it reads, the redaction of secrets in what it prints, the error it tells
 * network failures by, and the triage commands' argument checks. A door imports nothing below
 * src/io/workflow (eslint-rules/door-imports.mjs), so this file is that surface, named once.
 */
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
