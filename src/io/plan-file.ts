/** Reading saved plans (the format and its checks are in src/core/engine/plan-schema.ts; saving is src/io/workflow/steps/plan.ts). */
import { readFileSync } from "node:fs";
import { PlanFileError } from "../errors";
import type { Plan } from "../core/engine/plan-schema";
import { parsePlan } from "../core/engine/plan-schema";

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
