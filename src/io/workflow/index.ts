/**
 * The one place that composes the steps (docs/architecture.md):
 *
 *   declaration → synth → decode → observe → plan → (save) → admit → execute → verify
 *
 * Reads and writes happen here and in the io modules it calls; every decision is made by the pure
 * core (src/core). The CLI parses flags, asks, prints and maps errors to exit codes; it calls these
 * functions and nothing below them (a lint rule in eslint.config.mjs keeps it so).
 */
export type { RunOptions, Session, SynthSettings } from "./session";
export { DEFAULT_TIMEOUT_SECONDS, openSession, runDeadlineOf } from "./connect";
export type { OpenSession, RequestContext, SessionRequest } from "./connect";
export { MAX_RUN_DEADLINE_SECONDS } from "../../api";
export { readDesired, readDesiredFromEnv } from "./declared";
export { synthesizeApp } from "./synth-app";
export { runDoctor } from "./doctor";
export type { DoctorRequest } from "./doctor";
export { doctorPassed } from "../../core/doctor";
export type { DoctorCheck } from "../../core/doctor";
export type { SynthesizedStack } from "./synth-app";
export { checkCoveredDeclarations, planDeclared } from "./covered";
export { getPlan, planDocument, savePlan } from "./plan";
export type { PlanClock } from "./plan";
export { ENV_PLAN_KEY, MIN_PLAN_KEY_LENGTH, readPlanKey } from "./plan-key";
export { applyFresh, applySavedPlan, checkRequiredTip } from "./apply";
export type { FreshApply, FreshApplyHooks, SavedPlanFile, SavedPlanHooks } from "./apply";
export { startApplyReport, writeApplyReports, writeImportModule } from "./reports";
export type { ReportFiles } from "./reports";
export { findPeopleLive, importRules, importRulesHcl, listRules, readLiveRules } from "./live";
export { initApp } from "./init";
export { REINSTALL_COMMAND, installProvider } from "../provider-install";
export { initHcl } from "../init-hcl";
export type { ProviderInstall, ProviderInstallRequest } from "../provider-install";
export { markChangedSince, planChangedSince, readChangedSince } from "./changed-since";
export type { ChangedSinceRead } from "./changed-since";
export { readAccessReport, writeAccessReport } from "./report";
export { staleSynthOutput } from "../stale-output";
export type { AccessReportFiles } from "./report";
export type { AccessReport } from "../../core/access-report";
export { isDrift, isNotManaged } from "../../core/access-report";
export type { InitRequest } from "./init";
export { TOOL_VERSION } from "../version";
/** What the CLI asks of a plan and of a run's outcome (pure, from src/core). */
export { hasChanges } from "../../core/build-plan";
export { isInstant } from "../../core/expiry";
export { DEFAULT_MAX_PLAN_AGE, parseDuration } from "../../core/admission";
export { importAppCommand } from "../../core/import-code";
export type { DesiredList } from "../../core/desired";
export type { RuleRow, WhoMatch } from "../../core/who";
export type { Plan } from "../../core/plan-schema";
export type { ApplyResult } from "../../core/apply-results";
export type { ApplyReport, ApplyReportRecorder, ApplyReportSource } from "../../core/apply-report";
/** One rule at a time: the native provider's calls (src/provider). */
export { RuleLookup, applyOneRule, declarationProblems, planOneRule, policyOf, readRuleList, redactText, redactValues, refusalOf, today, viewOfLiveList } from "./one-rule";
export type { DeclarationInput, ListView, ObservedList, PolicyPropsInput, RuleFacts, RuleObservation, RuleReference } from "./one-rule";
export type { DesiredUser, ListMode } from "../../core/desired";
export type { ListPolicy } from "../../core/policy-schema";
/** How a native list's import ID names its rule (src/core/native-provider.ts). */
export { nativeImportId, parseNativeImportId } from "../../core/native-provider";
/** The client's names a front door may use (src/io/workflow/door.ts). */
export * from "./door";
