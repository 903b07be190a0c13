/**
 * The plan key (ALERT_RULE_USERS_PLAN_KEY): when set, `plan --out` signs the plan and `apply`
 * accepts only a plan signed with the same key (src/core/engine/plan-signature.ts, which checks it). The key is a secret
 * like the token: read from the environment only, registered for redaction at once, never printed,
 * never written into a plan or a report.
 */
import { registerSecret } from "../../../api/http/redact";
import { ConfigError } from "../../../errors";
import { PLAN_KEY_VARIABLE } from "../../../shared/secret-variables";

export const ENV_PLAN_KEY = PLAN_KEY_VARIABLE;
/** Shortest key accepted: an HMAC key should be random and long (e.g. `openssl rand -hex 32`). */
export const MIN_PLAN_KEY_LENGTH = 16;

/** The plan key of the environment, or undefined when unset or empty. Throws a ConfigError when too short. */
export function readPlanKey(env: NodeJS.ProcessEnv): string | undefined {
  const key = env[ENV_PLAN_KEY];
  if (key === undefined || key === "") return undefined;
  registerSecret(key);
  if (key.length < MIN_PLAN_KEY_LENGTH) {
    throw new ConfigError(
      `${ENV_PLAN_KEY} is set but has ${key.length} characters; use a random key of at least ${MIN_PLAN_KEY_LENGTH} (for example the output of 'openssl rand -hex 32'), the same in the plan and the apply job.`,
    );
  }
  return key;
}
