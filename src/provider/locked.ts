/**
 * A provider locked to its job (docs/contract.md §12.3): with ALERT_RULE_USERS_PROVIDER_LOCKED=1 in
 * its environment (every workflow `init` writes sets it), a configuration may not name the endpoint
 * or the credentials: `url`, `token` and `token_command` in the provider block are each an error,
 * and the connection comes from the job's environment only. A pull request's configuration then
 * cannot send the job's token to another host or run a command of its choosing.
 */
import type { Diagnostic } from "./protocol";
import { PROVIDER_ARGUMENTS, type ProviderModel } from "./provider-model";

export const LOCKED_VARIABLE = "ALERT_RULE_USERS_PROVIDER_LOCKED";

/** The arguments a locked provider refuses (by the block's model), each with its one sentence. */
const LOCKED_ARGUMENTS = {
  baseUrl: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove url from the provider block; the endpoint comes from ALERTS_API_URL in the job's environment.",
  token: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove token from the provider block; the token comes from ALERTS_API_TOKEN in the job's environment.",
  tokenCommand: "The provider is locked to this job (ALERT_RULE_USERS_PROVIDER_LOCKED=1): remove token_command from the provider block; a token command comes from ALERTS_API_TOKEN_COMMAND in the job's environment.",
} as const satisfies { readonly [field in keyof ProviderModel]?: string };

/** Whether the environment locks the provider ("1" or "true"). */
export function isLocked(env: NodeJS.ProcessEnv): boolean {
  const value = (env[LOCKED_VARIABLE] ?? "").trim().toLowerCase();
  return value === "1" || value === "true";
}

/** One error per locked argument the configuration sets (known or not), none when unlocked. */
export function lockedArgumentErrors(config: ProviderModel, env: NodeJS.ProcessEnv): Diagnostic[] {
  if (!isLocked(env)) return [];
  return (Object.keys(LOCKED_ARGUMENTS) as (keyof typeof LOCKED_ARGUMENTS)[])
    .filter((field) => config[field] !== null)
    .map((field) => ({ severity: "error", summary: `${PROVIDER_ARGUMENTS[field]} is not allowed in a locked provider`, detail: LOCKED_ARGUMENTS[field], attribute: [PROVIDER_ARGUMENTS[field]] }));
}
