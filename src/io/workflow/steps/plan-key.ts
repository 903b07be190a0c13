/**
 * The plan key (ALERT_RULE_USERS_PLAN_KEY): when set, `plan --out` signs the plan and `apply`
 * accepts only a plan signed with the same key (src/core/engine/plan-signature.ts). The key is a secret
 * like the token: read from the environment only, registered for redaction at once, never printed,
 * never written into a plan or a report.
 */
import { registerSecret } from "../../../api/http/redact";
import type { Plan } from "../../../core/engine/plan-schema";
import { checkPlanSignature, planSignature } from "../../../core/engine/plan-signature";
import { ConfigError, PlanFileError } from "../../../errors";
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

/**
 * With a key: refuses a saved plan that is unsigned or not signed with it. Without: a signed plan
 * is applied with a warning that its signature was not checked.
 */
export function checkSavedPlanSignature(plan: Plan, key: string | undefined, file: string, warn: (message: string) => void): void {
  if (key === undefined) {
    if (planSignature(plan) !== null) {
      warn(`${file} is signed, but ${ENV_PLAN_KEY} is not set: its signature was not checked.`);
    }
    return;
  }
  switch (checkPlanSignature(plan, key)) {
    case "valid":
      return;
    case "unsigned":
      throw new PlanFileError(
        `nothing was applied: ${file} is not signed, and ${ENV_PLAN_KEY} is set, so only plans signed with that key are applied. ` +
          `Make the plan with the same ${ENV_PLAN_KEY} set in the plan job (plan --out FILE signs it).`,
      );
    case "invalid":
      throw new PlanFileError(
        `nothing was applied: the signature of ${file} does not match ${ENV_PLAN_KEY}: the plan was signed with another key, ` +
          `or edited after it was signed. Plan again with the key of this apply job and apply that file unmodified.`,
      );
  }
}
