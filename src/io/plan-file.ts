/**
 * The JSON plan (docs/plan-format.md): the zod schema readers validate with, and reading and
 * writing of saved plans. A saved plan carries a checksum so a plan edited after review is refused.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { USERS_TO_ALERT_ON } from "../api/schemas";
import { writeFileAtomic } from "../util/atomic-write";
import { canonicalJson } from "../core/canonical-json";
import { PlanFileError } from "../core/errors";
import type { Plan } from "../core/plan-schema";
import { PLAN_FORMAT_VERSION } from "../core/plan-schema";

const plannedUser = z.object({ userId: z.string().min(1), aliases: z.array(z.string()) });
const observedEntry = z.object({ userId: z.string().nullable(), aliases: z.array(z.string()) });

const plannedCall = z.discriminatedUnion("operation", [
  z.object({ operation: z.literal("add-users"), userList: z.array(plannedUser) }),
  z.object({ operation: z.literal("remove-user-aliases"), userList: z.array(plannedUser) }),
  z.object({ operation: z.literal("remove-users"), userIdList: z.array(z.string()) }),
  z.object({ operation: z.literal("remove-all-users") }),
]);

const rulePlan = z.object({
  ruleId: z.string().nullable(),
  ruleName: z.string().nullable(),
  declaredBy: z.enum(["ruleId", "ruleName"]),
  constructPath: z.string(),
  stack: z.string(),
  mode: z.enum(["authoritative", "additive"]),
  action: z.enum(["update", "no-op", "skip", "error"]),
  reason: z.string().nullable(),
  errorKind: z.enum(["unknown-rule", "ambiguous-rule", "duplicate-rule", "observe-failed"]).nullable(),
  listType: z.enum(USERS_TO_ALERT_ON).nullable(),
  allowMassRemoval: z.boolean(),
  fingerprint: z.string().nullable(),
  desired: z.array(plannedUser),
  changes: z.object({
    addUsers: z.array(plannedUser),
    addAliases: z.array(plannedUser),
    removeAliases: z.array(plannedUser),
    removeUsers: z.array(plannedUser),
    removeEntriesWithoutId: z.array(observedEntry),
    removeAll: z.boolean(),
    rebuild: z.boolean(),
  }),
  calls: z.array(plannedCall),
  massRemoval: z.object({ entries: z.number().int(), lost: z.number().int(), triggered: z.boolean() }),
  warnings: z.array(z.string()),
});

const count = z.number().int().nonnegative();

export const planSchema = z.object({
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  tool: z.object({ name: z.literal("alert-rule-users"), version: z.string() }),
  createdAt: z.string(),
  connection: z.object({ baseUrl: z.string(), tenantId: z.string() }),
  options: z.object({ batchSize: z.number().int().positive() }),
  rules: z.array(rulePlan),
  summary: z.object({
    rules: count,
    toUpdate: count,
    noOp: count,
    skipped: count,
    errors: count,
    usersToAdd: count,
    aliasesToAdd: count,
    aliasesToRemove: count,
    usersToRemove: count,
    rebuilds: count,
    removeAll: count,
    calls: count,
    massRemovals: count,
  }),
});

/** The document `--format json` prints and `--out` saves: the plan plus its checksum. */
export type PlanDocument = Plan & { readonly checksum: string };

export function planChecksum(plan: Plan): string {
  const { checksum: _ignored, ...rest } = plan as PlanDocument;
  void _ignored;
  return "sha256:" + createHash("sha256").update(canonicalJson(rest)).digest("hex");
}

export function toPlanDocument(plan: Plan): PlanDocument {
  return { ...plan, checksum: planChecksum(plan) };
}

export function serializePlan(plan: Plan): string {
  return JSON.stringify(toPlanDocument(plan), null, 2) + "\n";
}

export async function writePlanFile(path: string, plan: Plan): Promise<void> {
  await writeFileAtomic(path, serializePlan(plan));
}

/** Parses and checks a plan document: JSON, format version, schema, checksum. */
export function parsePlan(text: string, source: string): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PlanFileError(`${source} is not a plan: it is not JSON. Save a plan with 'alert-rule-users plan --out FILE'.`);
  }
  if (typeof raw !== "object" || raw === null || !("formatVersion" in raw)) {
    throw new PlanFileError(`${source} is not a plan (no formatVersion). Save a plan with 'alert-rule-users plan --out FILE'.`);
  }
  const version = (raw).formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError(
      `${source} has plan formatVersion ${JSON.stringify(version)}; this alert-rule-users reads formatVersion ${PLAN_FORMAT_VERSION} only. ` +
        "Plan again with this version of the tool.",
    );
  }
  const parsed = planSchema.extend({ checksum: z.string() }).safeParse(raw);
  if (!parsed.success) {
    throw new PlanFileError(`${source} is not a valid plan:\n${z.prettifyError(parsed.error)}\nPlan again and save with --out.`);
  }
  const plan = parsed.data as PlanDocument;
  if (planChecksum(plan) !== plan.checksum) {
    throw new PlanFileError(`${source} was modified after it was written (checksum mismatch): plan again and apply the new file unmodified.`);
  }
  return plan;
}

export function readPlanFile(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new PlanFileError(`cannot read the plan file ${path} (${reason}): check the path, or save a plan with 'alert-rule-users plan --out FILE'.`);
  }
  return parsePlan(text, `plan file ${path}`);
}
