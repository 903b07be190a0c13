/**
 * The plan: plain, serializable data. Written by `plan`, saved with `--out`, read back by `apply`.
 * One declaration: the zod schema below, with the parts it is built from (the planned user,
 * src/core/engine/planned-user.ts; a rule's changes, src/core/engine/rule-changes.ts; the planned call, one
 * member per row of the operation table, src/core/engine/operations.ts); every plan type is inferred
 * from it. The JSON form is documented in docs/plan-format.md. A saved plan carries a checksum of
 * its canonical JSON.
 */
import { shownJson } from "../../shared/invisible";
import { createHash } from "node:crypto";
import { z } from "zod";
import { USERS_TO_ALERT_ON } from "../../api/rules/schemas";
import { PlanFileError } from "../../errors";
import { canonicalJson } from "./canonical-json";
import { DECLARATION_CHANGES } from "./changed-declarations";
import type { DeepReadonly } from "./deep-readonly";
import { LIST_MODES } from "./desired";
import { plannedCall } from "./operations";
import { planContent, signPlan } from "./plan-signature";
import { plannedUser } from "./planned-user";
import { POLICY_CHECKS } from "./policy-schema";
import { ruleChanges } from "./rule-changes";

export type { DeepReadonly } from "./deep-readonly";
export type { PlannedCall } from "./operations";
export type { PlannedUser } from "./planned-user";
export type { ObservedEntry, RemovedUser, RuleChanges } from "./rule-changes";

export const PLAN_FORMAT_VERSION = 1 as const;
export const DEFAULT_BATCH_SIZE = 100;

/** A declared user that carries an expiry date (`yyyy-MM-dd`, UTC). */
const expiringUser = z.object({ userId: z.string().min(1), aliases: z.array(z.string()), expiresAt: z.string() });

const massRemovalCheck = z.object({
  /** Entries (user bags) in the observed list. */
  entries: z.number().int(),
  /**
   * Entries that leave the list: by user ID (an entry whose user ID the declaration does not keep,
   * even if its aliases come back under another user) or by alias (none of its aliases remains).
   */
  lost: z.number().int(),
  /** True when the guard of docs/contract.md §5 refuses this rule unless mass removal is allowed. */
  triggered: z.boolean(),
});

export const RULE_ACTIONS = ["update", "no-op", "skip", "error"] as const;
/**
 * Errors that block the whole apply (a declaration that cannot be trusted) versus errors that
 * only keep this rule from being applied (the service failed while observing it).
 */
export const RULE_ERROR_KINDS = ["unknown-rule", "ambiguous-rule", "duplicate-rule", "observe-failed", "policy"] as const;

/** One check of a RuleUserListPolicy that a rule's list fails (docs/contract.md §9.1). */
const policyViolation = z.object({
  /** Construct path of the RuleUserListPolicy. */
  policy: z.string(),
  check: z.enum(POLICY_CHECKS),
  /** The user IDs at fault (empty when the check is about the list as a whole). */
  users: z.array(z.string()),
  message: z.string(),
});

const rulePlan = z.object({
  /** The resolved observerRuleId (also for rules declared by name); null when unresolved. */
  ruleId: z.string().nullable(),
  /** The rule's name as the service reports it, or as declared when unresolved. */
  ruleName: z.string().nullable(),
  declaredBy: z.enum(["ruleId", "ruleName"]),
  constructPath: z.string(),
  stack: z.string(),
  mode: z.enum(LIST_MODES),
  action: z.enum(RULE_ACTIONS),
  /** Why a rule is skipped or in error; why it is rebuilt; null otherwise. */
  reason: z.string().nullable(),
  errorKind: z.enum(RULE_ERROR_KINDS).nullable(),
  listType: z.enum(USERS_TO_ALERT_ON).nullable(),
  allowMassRemoval: z.boolean(),
  /** sha256 of the observed list; apply of a saved plan refuses when it no longer matches. */
  fingerprint: z.string().nullable(),
  /** The declared list in canonical order: what verify compares the read-back list with. */
  desired: z.array(plannedUser),
  changes: ruleChanges,
  calls: z.array(plannedCall),
  massRemoval: massRemovalCheck,
  warnings: z.array(z.string()),
  /**
   * Declared users whose `expiresAt` has come (on or before the day of the plan's `now`): no longer
   * desired, so not in `desired`. Written by every plan; absent in plans of earlier versions.
   */
  expired: z.array(expiringUser).optional(),
  /** The policy checks this rule's list fails; when any, `action` is `"error"` with `errorKind: "policy"`. */
  violations: z.array(policyViolation).optional(),
}).superRefine((rule, ctx) => {
  // An update was planned against a list of a known type, never an all-users rule: a plan that
  // says otherwise was edited, and would let a read-back of any type verify (src/core/engine/verify.ts).
  if (rule.action === "update" && (rule.listType === null || rule.listType === "ALL_USERS")) {
    ctx.addIssue({
      code: "custom",
      path: ["listType"],
      message: `a rule to update must have the list type it was planned against (SPECIFIED_USERS or ALL_USERS_NOT_SPECIFIED), not ${JSON.stringify(rule.listType)}: the plan was edited; run plan again`,
    });
  }
});

const count = z.number().int().nonnegative();

const planSummary = z.object({
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
  /**
   * Declared users whose `expiresAt` falls within 14 days after the day of `now` (expired users are
   * in each rule's `expired`). Written by every plan; absent in plans of earlier versions.
   */
  expiringSoon: z
    .array(z.object({ ruleId: z.string().nullable(), ruleName: z.string().nullable(), constructPath: z.string(), userId: z.string(), aliases: z.array(z.string()), expiresAt: z.string() }))
    .optional(),
});

/**
 * A plan of only the rules whose declaration changed since a git revision (`plan --changed-since
 * REF`, docs/contract.md §10.1): what was compared, what was left unread and why, what is no longer managed.
 */
const changedSince = z.object({
  /** The revision as given (e.g. `origin/main`). */
  ref: z.string(),
  /** The commit it resolved to. */
  commit: z.string(),
  /** Each rule read, by construct path, with what changed in its declaration since `ref`. */
  read: z.array(z.object({ constructPath: z.string(), changes: z.array(z.enum(DECLARATION_CHANGES)) })),
  /** Declared rules that were not read (their declaration is the same as at `ref`), and why. */
  unread: z.object({ count, reason: z.string() }),
  /** Rules declared at `ref` and no longer: never read, never written. */
  noLongerManaged: z.array(z.object({ ruleId: z.string().nullable(), ruleName: z.string().nullable(), constructPath: z.string(), stack: z.string() })),
  /**
   * How REF's app found its dependencies (src/io/workflow/steps/changed-since.ts): `reused` this checkout's
   * node_modules (nothing it resolves differs), or `installed` REF's own (npm ci in REF's worktree), and why.
   * Absent when REF was not synthesized (no app there, or `fallback`).
   */
  refDependencies: z.object({ how: z.enum(["reused", "installed"]), reason: z.string() }).optional(),
  /** Present when REF could not be compared safely: every declared rule was read, and this says why. */
  fallback: z.object({ reason: z.string() }).optional(),
});

/**
 * A declaration the plan was made from (src/core/changed-since/declaration-digest.ts): `apply PLANFILE
 * --require-declarations` refuses when the declarations then are not exactly these.
 */
const coveredDeclaration = z.object({
  constructPath: z.string(),
  stack: z.string(),
  /** `id:<ruleId>` or `name:<ruleName>`. */
  reference: z.string(),
  /** sha256 of what a write of it follows from. */
  digest: z.string(),
  /** Its rule was read and planned (false: left unread by `--changed-since`, unchanged since REF). */
  read: z.boolean(),
});

export const planSchema = z.object({
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  tool: z.object({ name: z.literal("alert-rule-users"), version: z.string() }),
  createdAt: z.string(),
  /**
   * The clock of the plan (`yyyy-MM-ddTHH:mm:ssZ`): expiries and policies were evaluated at this
   * instant (`--now`, or the system clock). Written by every plan; absent in plans of earlier versions.
   */
  now: z.string().optional(),
  /** Where the plan was observed: apply refuses a plan for another service or tenant. */
  connection: z.object({ baseUrl: z.string(), tenantId: z.string() }),
  options: z.object({ batchSize: z.number().int().positive() }),
  rules: z.array(rulePlan),
  summary: planSummary,
  /** Present only on a plan made with `--changed-since`: its rules are those changed since a revision. */
  changedSince: changedSince.optional(),
  /** Every declaration the plan was made from, read or not (absent in plans of earlier versions). */
  declarations: z.array(coveredDeclaration).optional(),
});

export type Plan = DeepReadonly<z.infer<typeof planSchema>>;
export type RulePlan = DeepReadonly<z.infer<typeof rulePlan>>;
export type ChangedSince = DeepReadonly<z.infer<typeof changedSince>>;
export type CoveredDeclaration = DeepReadonly<z.infer<typeof coveredDeclaration>>;
export type PlanSummary = DeepReadonly<z.infer<typeof planSummary>>;
export type PolicyViolation = DeepReadonly<z.infer<typeof policyViolation>>;
export type MassRemovalCheck = DeepReadonly<z.infer<typeof massRemovalCheck>>;
export type RuleAction = RulePlan["action"];
export type RuleErrorKind = NonNullable<RulePlan["errorKind"]>;

/**
 * The document `--format json` prints and `--out` saves: the plan plus its checksum, and its
 * signature when a plan key was set (src/core/engine/plan-signature.ts).
 */
export type PlanDocument = Plan & { readonly checksum: string; readonly signature?: string | undefined };

/**
 * sha256 of the plan's canonical JSON (without the checksum and signature fields). It proves the
 * file is intact, not who wrote it: anyone can recompute it after an edit (a signature can't be).
 */
export function planChecksum(plan: Plan): string {
  return "sha256:" + createHash("sha256").update(canonicalJson(planContent(plan))).digest("hex");
}

/** The plan with its checksum, and with its signature under `signingKey` when one is given. */
export function toPlanDocument(plan: Plan, signingKey?: string): PlanDocument {
  const content = planContent(plan);
  const document = { ...content, checksum: planChecksum(content) };
  return signingKey === undefined ? document : { ...document, signature: signPlan(content, signingKey) };
}

/** The plan document as JSON, nothing in it raw that a terminal would draw (the same document read back). */
export function serializePlan(plan: Plan, signingKey?: string): string {
  return shownJson(toPlanDocument(plan, signingKey), 2) + "\n";
}

/** Parses and checks a plan document: JSON, format version, schema, checksum. */
export function parsePlan(text: string, source: string): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PlanFileError(`${source} is not a plan: it is not JSON.`);
  }
  if (typeof raw !== "object" || raw === null || !("formatVersion" in raw)) {
    throw new PlanFileError(`${source} is not a plan (no formatVersion).`);
  }
  const version = raw.formatVersion;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError(
      `${source} has plan formatVersion ${JSON.stringify(version)}; this alert-rule-users reads formatVersion ${PLAN_FORMAT_VERSION} only.`,
    );
  }
  const parsed = planSchema.extend({ checksum: z.string(), signature: z.string().optional() }).safeParse(raw);
  if (!parsed.success) {
    throw new PlanFileError(`${source} is not a valid plan:\n${z.prettifyError(parsed.error)}`);
  }
  const plan: PlanDocument = parsed.data;
  if (planChecksum(plan) !== plan.checksum) {
    throw new PlanFileError(`${source} was modified after it was written (checksum mismatch): plan again and apply the new file unmodified.`);
  }
  return plan;
}
