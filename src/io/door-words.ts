/**
 * The words both front doors (the CLI, the provider) say beside the workflow's calls
 * (src/io/workflow/index.ts): the tool's errors, which a door throws for bad input and tells apart
 * on the way out; the redaction of secrets in what it prints or stores; durations and time limits;
 * the names of the environment it reads; the text helpers of its messages; the tool's version.
 * Nothing here composes a step: these are names and pure checks, said once for both doors
 * (eslint-rules/door-imports.mjs lets a door import this file; docs/architecture.md). It stands
 * below the workflow, which says one of them too (the request's default time limit). Each is
 * named from its own module, not the API client's index: a process that only validates (the
 * provider's) loads these words and not the client.
 */
/** The tool's errors (src/errors.ts), and the client's error a door tells network failures by. */
export { AlertRuleUsersError, ConfigError, UsageError } from "../errors";
export { ApiError } from "../api/http/errors";
/** Redaction: the secrets registered for the run, removed in every form from text and from the strings of a value. */
export { SECRET_VALUE_VARIABLES } from "../shared/secret-variables";
export { redactString, registerSecret } from "../api/http/redact";
export { registerEnvironmentSecrets, registerUrlPassword } from "../api/http/config";
export { redactStrings } from "../api/http/redact";
/** Durations and time limits: `--max-plan-age` and `timeouts`' durations, `--now`'s instant, the request's and the run's limits. */
export { DEFAULT_MAX_PLAN_AGE } from "../core/engine/admission";
export { parseDuration } from "../shared/durations";
export { isInstant } from "../core/engine/expiry";
export { MAX_RUN_DEADLINE_SECONDS } from "../api/http/read-limits";
/** Default of --timeout (and the most request_timeout shortens it to): how long one HTTP attempt may take, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** The environment's names for the connection, and the check of a base URL. */
export { ENV_BASE_URL, ENV_CLIENT_ID, ENV_CLIENT_SECRET, ENV_TOKEN, checkBaseUrl } from "../api/http/config";
/** The core's fields as each door names them, and a problem reported as data said in a door's words. */
export { ATTRIBUTE_NAMES, BLOCK_WORDS, problemText } from "../shared/field-names";
export type { FieldStep, FieldWords, SettingWords } from "../shared/field-names";
/** Text helpers of messages. */
export { messageOf, shellQuote, titleCase } from "../shared/text";
export { TOOL_VERSION } from "./version";
