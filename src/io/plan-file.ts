/** Reading and writing saved plans (the format and its checks are in src/core/plan-schema.ts). */
import { readFileSync } from "node:fs";
import { PlanFileError } from "../errors";
import { writeFileAtomic } from "../shared/atomic-write";
import { redactStrings } from "../api/http/redact";
import type { Plan } from "../core/plan-schema";
import { parsePlan, serializePlan } from "../core/plan-schema";

/**
 * The plan with every secret (the given ones and those registered in src/api/http/redact.ts) removed
 * from its strings, in every form: a `reason` or a rule name can carry what a hostile service
 * echoed. The checksum is computed afterwards, so the redacted plan is a valid plan.
 */
export function redactPlan(plan: Plan, secrets: readonly string[] = []): Plan {
  return redactStrings(plan, secrets);
}

/** Saves the plan (redacted, see {@link redactPlan}) atomically; signed when a key is given (src/core/plan-signature.ts). */
export async function writePlanFile(path: string, plan: Plan, secrets: readonly string[] = [], signingKey?: string): Promise<void> {
  await writeFileAtomic(path, serializePlan(redactPlan(plan, signingKey === undefined ? secrets : [...secrets, signingKey]), signingKey));
}

export function readPlanFile(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new PlanFileError(`cannot read the plan file ${path} (${reason}): check the path.`);
  }
  return parsePlan(text, `plan file ${path}`);
}
