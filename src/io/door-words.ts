/**
 * What a front door (the CLI, the provider) may use beside the workflow's calls (workflow/index.ts): of the
 * client, the names of the environment it reads, the redaction of secrets in what it prints, the
 * error it tells network failures by, and the triage commands' argument checks; the tool's errors
 * it throws for bad input and tells apart on the way out; the text helpers of its messages; the
 * checks of flags and attributes that take the core's words (pure), and the constants they name.
 * A door's value imports name nothing below src/io/workflow but this file and the index
 * (eslint-rules/door-imports.mjs), so this file is that surface, named once.
 */
export { AlertRuleUsersError, ConfigError, UsageError } from "../errors";
export { SECRET_VALUE_VARIABLES } from "../shared/secret-variables";
export { shellQuote, titleCase } from "../shared/text";
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
} from "../api";
export { MAX_RUN_DEADLINE_SECONDS } from "../api";
export { TOOL_VERSION } from "./version";
export { DEFAULT_TIMEOUT_SECONDS } from "./workflow/session/connect";
/** The checks of the CLI's flags and the provider's attributes that take the core's words (pure, from src/core). */
export { isInstant } from "../core/engine/expiry";
export { DEFAULT_MAX_PLAN_AGE, parseDuration } from "../core/engine/admission";
/** How a native list's import ID names its rule (src/core/native/native-provider.ts). */
export { nativeImportIdProblem, parseNativeImportId } from "../core/native/native-provider";
/** The declaration in the state of a provisioner resource a RuleUserList wrote (the provider's MoveResourceState). */
export { declarationOfProvisionerState } from "../core/declaration/provisioner-state";
export { nativeListOf } from "../core/declaration/native";
