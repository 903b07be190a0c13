/**
 * The reviewed plans a merge's `terraform plan` is held against (src/core/native/reviewed-check.ts,
 * docs/provider-workflows.md "On merge"): ALERT_RULE_USERS_REVIEWED_PLANS names a plan file, or a
 * directory whose files named plan.json (at any depth) are plans, each the signed CLI plan that a
 * pull request's reviewer saw. Every one must be signed with the job's ALERT_RULE_USERS_PLAN_KEY: a
 * reviewed plan proves which job made it, so nothing else can stand in for a review.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../../errors";
import type { Plan, RulePlan } from "../../../core/engine/plan-schema";
import { checkSavedPlanSignature } from "../../../core/engine/plan-signature";
import { differencesFromReview, reviewedRuleFor } from "../../../core/native/reviewed-check";
import { readPlanFile } from "../../plan-file";
import { readPlanKey } from "../steps/plan-key";

export const REVIEWED_PLANS_VARIABLE = "ALERT_RULE_USERS_REVIEWED_PLANS";

/** The name of a reviewed plan in a directory of them (the review workflow's artifact holds one). */
const PLAN_FILE_NAME = "plan.json";

/** Every plan.json under `path` (itself when it is a file), in a stable order. */
function planFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new ConfigError(`${REVIEWED_PLANS_VARIABLE}=${path}: no such file or directory. Give the reviewed plan (plan.json) or the directory the reviewed plans were downloaded to.`);
  }
  if (stat.isFile()) return [path];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .filter((name) => name === PLAN_FILE_NAME || name.endsWith(`/${PLAN_FILE_NAME}`))
    .sort()
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile());
}

/**
 * The reviewed plans of the environment, each read, checked (format, checksum) and signed with the
 * plan key; null when ALERT_RULE_USERS_REVIEWED_PLANS is unset (no review to hold plans against).
 * Throws a ConfigError naming the file at fault.
 */
export function readReviewedPlans(env: NodeJS.ProcessEnv): Plan[] | null {
  const path = env[REVIEWED_PLANS_VARIABLE];
  if (path === undefined || path.trim() === "") return null;
  const key = readPlanKey(env);
  if (key === undefined) {
    throw new ConfigError(`${REVIEWED_PLANS_VARIABLE} is set but ALERT_RULE_USERS_PLAN_KEY is not: a reviewed plan is trusted only when it is signed with the plan key of the job that made it. Set ALERT_RULE_USERS_PLAN_KEY (the same secret as the plan job's).`);
  }
  return planFiles(path).map((file) => {
    const plan = readPlanFile(file);
    checkSavedPlanSignature(plan, key, file, () => undefined);
    return plan;
  });
}

/** What differs between a rule's plan now and what the reviewed plans showed of it; empty when covered. */
export function reviewDifferences(reviewed: readonly Plan[], planned: RulePlan): string[] {
  return differencesFromReview(planned, reviewedRuleFor(planned.ruleId, reviewed));
}
