/**
 * The environment variables that carry secrets, named in one place, so that every sink masks the
 * same ones and no child is handed one by a list that forgot it.
 *
 * Their values are registered for redaction as soon as the CLI starts (src/cli/main.ts), and no
 * child process the CLI starts receives them (src/io/synth.ts): the app run for synth is the
 * user's code, in a pull-request job the pull request's code, and Node's
 * NODE_DEBUG=child_process prints the whole environment of every child it starts.
 */

/** Variables whose values are secrets: never printed, never written, redacted in every form. */
/** The key that signs saved plans (src/io/workflow/steps/plan-key.ts). */
export const PLAN_KEY_VARIABLE = "ALERT_RULE_USERS_PLAN_KEY";

export const SECRET_VALUE_VARIABLES = [
  "ALERTS_API_TOKEN", // the bearer token (src/api/http/config.ts)
  "ALERTS_CLIENT_SECRET", // a client secret from which a token is obtained
  "ALERT_RULE_USERS_PLAN_KEY", // the key that signs saved plans (src/io/workflow/steps/plan-key.ts)
] as const;

/**
 * Variables no child process receives: the secrets, and the token command (docs/contract.md §10.2),
 * which says how to obtain the token (its value is a command, not redacted: errors name it).
 */
export const CHILD_WITHHELD_VARIABLES = [...SECRET_VALUE_VARIABLES, "ALERTS_API_TOKEN_COMMAND"] as const;

/**
 * A copy of `env` without the {@link CHILD_WITHHELD_VARIABLES}, whatever the case of their names
 * (Windows reads environment names without case). For every child process the CLI starts.
 */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const withheld = new Set<string>(CHILD_WITHHELD_VARIABLES.map((name) => name.toUpperCase()));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !withheld.has(name.toUpperCase())));
}
