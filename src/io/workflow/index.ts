/**
 * The one place that composes the steps (docs/architecture.md):
 *
 *   declaration → synth → decode → observe → plan → (save) → admit → execute → verify
 *
 * Reads and writes happen here and in the io modules it calls; every decision is made by the pure
 * core (src/core). A front door turns its input into a plain request, calls one function here per
 * command (`planRun`, `applyRun`, …) with a reporter for what the run tells it, and prints what
 * comes back; it imports nothing below this surface (eslint-rules/door-imports.mjs).
 */
/** The CLI's commands: one function each, from a plain request. */
export { planRun } from "./plan-run";
export type { PlanDoor, PlanRunRequest, PlanRunResult } from "./plan-run";
export { applyRun } from "./apply-run";
export type { ApplyDoor, ApplyRunRequest, ApplyRunResult, ApplySettings } from "./apply-run";
export { importRun, reportRun, rulesRun, whoRun } from "./read-runs";
export type { AccessReportCounts, ImportRunRequest, ImportRunResult, ReportRunRequest, WhoRunRequest } from "./read-runs";
export { alertNoteRun, alertStateRun, alertsSearchRun, alertsShowRun, escalateRun } from "./triage-alerts";
export type { AlertStateRequest, AlertsSearchRequest, AlertsShowRequest, AlertsShowResult, EscalateRequest, EscalateResult } from "./triage-alerts";
export { caseAddFileEventsRun, caseCreateRun } from "./triage-cases";
export type { CaseAddFileEventsRequest, FileEventOutcome } from "./triage-cases";
export { fileEventsSearchRun } from "./triage-file-events";
export { doctorRun } from "./doctor";
export type { DoctorRequest, DoctorRunResult } from "./doctor";
export { synthesizeApp } from "./synth-app";
export { writeDeclarationsFromTerraformShow } from "../declarations-from-terraform";
export type { SynthesizedStack } from "./synth-app";
export { initApp } from "./init";
export type { InitRequest } from "./init";
export { REINSTALL_COMMAND, installProvider, installCanonicalProvider } from "../provider-install";
export { packageRelease, lockProvider, checkSums } from "../provider-package";
export { initHcl } from "../init-hcl";
export type { ProviderInstall, ProviderInstallRequest } from "../provider-install";
/** What a run tells its front door, and the session a front door asks for. */
export type { ProgressReport, RetryReport, RunReporter } from "./reporter";
export type { RunOptions, SendOptions, Session, SynthSettings } from "./session";
export { DEFAULT_TIMEOUT_SECONDS, connectedSession, openSession } from "./connect";
export type { InvalidSettings, OpenSession, RequestContext, SessionRequest, SessionSettings } from "./connect";
export { MAX_RUN_DEADLINE_SECONDS } from "../../api";
export { TOOL_VERSION } from "../version";
/** The checks of the CLI's flags that take the core's words (pure, from src/core). */
export { isInstant } from "../../core/expiry";
export { DEFAULT_MAX_PLAN_AGE, parseDuration } from "../../core/admission";
/** The package's library surface (src/index.ts): the steps, each with its checks, for programs of their own. */
export { applyFresh, applySavedPlan } from "./apply";
export type { FreshApply, FreshApplyHooks, SavedPlanFile, SavedPlanHooks } from "./apply";
export { getPlan, planDocument, savePlan } from "./plan";
export type { PlanClock } from "./plan";
export { readDesired, readDesiredFromEnv } from "./declared";
export { readPlanKey } from "./plan-key";
export { findPeopleLive, importRules, readLiveRules } from "./live";
export type { DesiredList } from "../../core/desired";
export type { RuleRow, WhoMatch } from "../../core/who";
export type { DoctorCheck } from "../../core/doctor";
export type { Plan } from "../../core/plan-schema";
export type { ApplyResult } from "../../core/apply-results";
/** One rule at a time: the native provider's calls (src/provider); `listRules` is also the library's. */
export { listRules } from "./live";
export { RuleLookup, applyOneRule, declarationProblems, planOneRule, policyOf, readRuleList, redactText, redactValues, refusalOf, today, viewOfLiveList } from "./one-rule";
export type { DeclarationInput, ListView, ObservedList, PolicyPropsInput, RuleFacts, RuleObservation, RuleReference } from "./one-rule";
export type { DesiredUser, ListMode } from "../../core/desired";
/** The provider's plan kept whole and applied as planned, or nothing (design §12.1). */
export { applyPlannedRule, createKey, observeForPlan, parseKeptPlan, planClear, planRuleChange, plannedRemovals, readRuleState } from "./provider-rule";
export type { KeptRead, PlannedRemoval, PlannedRuleApply, ProviderRuleContext, RuleChangePlan, RuleClaims, RuleStateRead } from "./provider-rule";
export { RUN_SCOPE_VARIABLE, TerraformRun } from "../terraform-run";
export type { ListPolicy } from "../../core/policy-schema";
/** How a native list's import ID names its rule (src/core/native-provider.ts). */
export { NATIVE_RESOURCE_TYPE, ON_DESTROY_VALUES, RULES_DATA_SOURCE, nativeImportId, nativeImportIdProblem, parseNativeImportId } from "../../core/native-provider";
export type { OnDestroy } from "../../core/native-provider";
/** The one reading of a native list's attributes (the provider's configuration, synth's JSON). */
export { nativeListOf } from "../../core/declaration/native";
export type { NativeList, NativePathStep, NativeProblem, NativeValues } from "../../core/declaration/native";
/** The declaration in the state of a provisioner resource a RuleUserList wrote (the provider's MoveResourceState). */
export { declarationOfProvisionerState } from "../../core/declaration/provisioner-state";
/** The client's names a front door may use (src/io/workflow/door.ts). */
export * from "./door";
