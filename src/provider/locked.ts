/**
 * A provider locked to its job (docs/contract.md §12.3): with ALERT_RULE_USERS_PROVIDER_LOCKED=1 in
 * its environment (every workflow `init` writes sets it), a configuration may not name the endpoint
 * or the credentials: `url`, `token` and `token_command` in the provider block are each an error,
 * and the connection comes from the job's environment only. A pull request's configuration then
 * cannot send the job's token to another host or run a command of its choosing.
 */
import type { Diagnostic, ObjectValue } from "./protocol";

export const LOCKED_VARIABLE = "ALERT_RULE_USERS_PROVIDER_LOCKED";

/** The arguments a locked provider refuses, each with its one sentence. */
const LOCKED_ARGUMENTS = {
  url: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove url from the provider block; the endpoint comes from ALERTS_API_URL in the job's environment.",
  token: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove token from the provider block; the token comes from ALERTS_API_TOKEN in the job's environment.",
  token_command: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove token_command from the provider block; a token command comes from ALERTS_API_TOKEN_COMMAND in the job's environment.",
} as const;

/** Whether the environment locks the provider ("1" or "true"). */
export function isLocked(env: NodeJS.ProcessEnv): boolean {
  const value = (env[LOCKED_VARIABLE] ?? "").trim().toLowerCase();
  return value === "1" || value === "true";
}

/** One error per locked argument the configuration sets (known or not), none when unlocked. */
export function lockedArgumentErrors(config: ObjectValue, env: NodeJS.ProcessEnv): Diagnostic[] {
  if (!isLocked(env)) return [];
  return Object.entries(LOCKED_ARGUMENTS)
    .filter(([name]) => config[name] !== null && config[name] !== undefined)
    .map(([name, detail]) => ({ severity: "error", summary: `${name} is not allowed in a locked provider`, detail, attribute: [name] }));
}
