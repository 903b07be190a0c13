/**
 * The pure core: every decision of alert-rule-users as functions of plain data. No files, no
 * processes, no network, no clock (the lint rule in eslint.config.mjs keeps it so); the io layer
 * (src/io) feeds it what it read and carries out what it decided.
 */
export { aliasKey, canonicalAliases, canonicalUsers, compareAliases, compareStrings } from "./engine/canonical";
export type { UserAliases } from "./engine/canonical";
export { LIST_MODES, describeRule } from "./engine/desired";
export type { DesiredList, DesiredUser, ListDeclaration, ListMode } from "./engine/desired";
export { decodeStack } from "./declaration/decode-stack";
export type { ObservedList, RuleFacts, RuleObservation } from "./engine/observation";
export { diffRule } from "./engine/diff";
export { buildPlan, hasChanges, summarize } from "./engine/build-plan";
export type { PlanInput } from "./engine/build-plan";
export { fingerprintList } from "./engine/fingerprint";
export { blockingErrors, checkFresh, checkPlanIsApplicable, checkSameConnection } from "./engine/guards";
export { isSystemRule } from "./engine/rule-facts";
export type { FreshRead, GuardOptions } from "./engine/guards";
export { applyResult, countOutcomes, notApplied } from "./engine/apply-results";
export type { AdmittedPlan } from "./engine/admission";
export type { ApplyResult, ApplySummary, CallRecord, RuleOutcome, RuleResult } from "./engine/apply-results";
export { plannedRuleFacts, readBackProblem, remainingCalls } from "./engine/verify";
export { PLAN_FORMAT_VERSION, DEFAULT_BATCH_SIZE, parsePlan, planChecksum, planSchema, serializePlan, toPlanDocument } from "./engine/plan-schema";
export type {
  MassRemovalCheck,
  ObservedEntry,
  Plan,
  PlanDocument,
  PlanSummary,
  PlannedCall,
  PlannedUser,
  RuleAction,
  RuleChanges,
  RuleErrorKind,
  RulePlan,
} from "./engine/plan-schema";
export { generateImportCode } from "./import/import-code";
export type { ImportCode, ImportedRule } from "./import/import-code";
