/**
 * Making and saving a plan: observe the declared rules, build the plan (pure), redact it once,
 * and save exactly what was shown.
 */
import { buildPlan } from "../../../core/engine/build-plan";
import type { DesiredList } from "../../../core/engine/desired";
import type { Plan } from "../../../core/engine/plan-schema";
import { serializePlan } from "../../../core/engine/plan-schema";
import { writeFileAtomic } from "../../../shared/atomic-write";
import { observe } from "../../observe";
import { TOOL_VERSION } from "../../version";
import type { Session } from "../session/session";

export interface PlanClock {
  /** When the plan is made (recorded as is). */
  readonly createdAt: Date;
  /** The plan's clock for expiries and policies (`yyyy-MM-ddTHH:mm:ssZ`). @default - createdAt */
  readonly now?: string;
  /** Secrets to remove from the plan besides those registered for redaction (the token). @default - none */
  readonly secrets?: readonly string[];
}

/**
 * Observes the declared rules and builds the plan. The plan comes back redacted (every registered
 * secret and `clock.secrets`, in every form: a `reason` or a rule name can carry what a hostile
 * service echoed); its checksum is computed when it is serialized, so it stays a valid plan.
 */
export async function getPlan(desired: readonly DesiredList[], session: Session, clock: PlanClock): Promise<Plan> {
  const observations = await observe(session.client, desired, {
    parallelism: session.parallelism,
    pageSize: session.pageSize,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  const plan = buildPlan({
    declarations: desired,
    observations,
    connection: { baseUrl: session.connection.baseUrl, tenantId: session.connection.tenantId },
    createdAt: clock.createdAt.toISOString(),
    ...(clock.now === undefined ? {} : { now: clock.now }),
    toolVersion: TOOL_VERSION,
    batchSize: session.batchSize,
  });
  return session.redact(plan, clock.secrets ?? []);
}

/** The plan as its JSON document (what `plan --format json` prints and `--out` saves); signed when a key is given. */
export function planDocument(plan: Plan, signingKey: string | undefined): string {
  return serializePlan(plan, signingKey);
}

/** Saves the plan (as {@link getPlan} made it: redacted) atomically, signed when a key is given (src/core/engine/plan-signature.ts). */
export async function savePlan(path: string, plan: Plan, signingKey: string | undefined): Promise<void> {
  await writeFileAtomic(path, planDocument(plan, signingKey));
}
