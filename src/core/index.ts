/**
 * The pure core: every decision of alert-rule-users as functions of plain data. No files, no
 * processes, no network, no clock (the lint rule in eslint.config.mjs keeps it so); the io layer
 * (src/io) feeds it what it read and carries out what it decided.
 */
export { aliasKey, canonicalAliases, canonicalUsers, compareAliases, compareStrings } from "./canonical";
export type { UserAliases } from "./canonical";
export { LIST_MODES, describeRule } from "./desired";
export type { DesiredList, DesiredUser, ListDeclaration, ListMode } from "./desired";
export { decodeStack } from "./decode-stack";
export type { ObservedList, RuleFacts, RuleObservation } from "./observation";
export { diffRule } from "./diff";
export { buildPlan, hasChanges, summarize } from "./build-plan";
export type { PlanInput } from "./build-plan";
export { fingerprintList } from "./fingerprint";
export { blockingErrors, checkFresh, checkPlanIsApplicable, checkSameConnection } from "./guards";
export { isSystemRule } from "./rule-facts";
export type { FreshRead, GuardOptions } from "./guards";
export { applyResult, countOutcomes, notApplied } from "./apply-results";
export type { AdmittedPlan } from "./admission";
export type { ApplyResult, ApplySummary, CallRecord, RuleOutcome, RuleResult } from "./apply-results";
export { plannedRuleFacts, readBackProblem, remainingCalls } from "./verify";
export { PLAN_FORMAT_VERSION, DEFAULT_BATCH_SIZE, parsePlan, planChecksum, planSchema, serializePlan, toPlanDocument } from "./plan-schema";
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
} from "./plan-schema";
export { generateImportCode } from "./import-code";
export type { ImportCode, ImportedRule } from "./import-code";
