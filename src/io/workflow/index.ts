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
export { planRun } from "./runs/plan-run";
export type { PlanDoor, PlanRunRequest, PlanRunResult } from "./runs/plan-run";
export { applyRun } from "./runs/apply-run";
export type { ApplyDoor, ApplyRunRequest, ApplyRunResult, ApplySettings } from "./runs/apply-run";
export { importRun, reportRun, rulesRun, whoRun } from "./runs/read-runs";
export type { AccessReportCounts, ImportRunRequest, ImportRunResult, ReportRunRequest, WhoRunRequest } from "./runs/read-runs";
export { alertNoteRun, alertStateRun, alertsSearchRun, alertsShowRun, escalateRun } from "./runs/triage-alerts";
export type { AlertStateRequest, AlertsSearchRequest, AlertsShowRequest, AlertsShowResult, EscalateRequest, EscalateResult } from "./runs/triage-alerts";
export { caseAddFileEventsRun, caseCreateRun } from "./runs/triage-cases";
export type { CaseAddFileEventsRequest, FileEventOutcome } from "./runs/triage-cases";
export { fileEventsSearchRun } from "./runs/triage-file-events";
export { doctorRun } from "./runs/doctor";
export type { DoctorRequest, DoctorRunResult } from "./runs/doctor";
export { synthesizeApp } from "./steps/synth-app";
export { writeDeclarationsFromTerraformShow } from "../declarations-from-terraform";
export type { SynthesizedStack } from "./steps/synth-app";
export { initApp } from "./steps/init";
export type { InitRequest } from "./steps/init";
export { REINSTALL_COMMAND, installProvider, installCanonicalProvider } from "../provider-install";
export { packageRelease, lockProvider, checkSums } from "../provider-package";
export { initHcl } from "../init-hcl";
export type { ProviderInstall, ProviderInstallRequest } from "../provider-install";
/** What a run tells its front door, and the session a front door asks for. */
export type { ProgressReport, RetryReport, RunReporter } from "./session/reporter";
export type { RunOptions, SendOptions, Session, SynthSettings } from "./session/session";
export { DEFAULT_TIMEOUT_SECONDS, connectedSession, openSession } from "./session/connect";
export type { InvalidSettings, OpenSession, RequestContext, SessionRequest, SessionSettings } from "./session/connect";
export { MAX_RUN_DEADLINE_SECONDS } from "../../api";
export { TOOL_VERSION } from "../version";
/** The checks of the CLI's flags that take the core's words (pure, from src/core). */
export { isInstant } from "../../core/engine/expiry";
export { DEFAULT_MAX_PLAN_AGE, parseDuration } from "../../core/engine/admission";
/** The package's library surface (src/index.ts): the steps, each with its checks, for programs of their own. */
export { applyFresh, applySavedPlan } from "./steps/apply";
export type { FreshApply, FreshApplyHooks, SavedPlanFile, SavedPlanHooks } from "./steps/apply";
export { getPlan, planDocument, savePlan } from "./steps/plan";
export type { PlanClock } from "./steps/plan";
export { readDesired, readDesiredFromEnv } from "./steps/declared";
export { readPlanKey } from "./steps/plan-key";
export { findPeopleLive, importRules, readLiveRules } from "./steps/live";
export type { DesiredList } from "../../core/engine/desired";
export type { RuleRow, WhoMatch } from "../../core/live/who";
export type { DoctorCheck } from "../../core/doctor/doctor";
export type { Plan } from "../../core/engine/plan-schema";
export type { ApplyResult } from "../../core/engine/apply-results";
/** One rule at a time: the native provider's calls (src/provider); `listRules` is also the library's. */
export { listRules } from "./steps/live";
export { RuleLookup, applyOneRule, declarationProblems, planOneRule, policyOf, readRuleList, redactText, redactValues, refusalOf, today, viewOfLiveList } from "./provider/one-rule";
export type { DeclarationInput, ListView, ObservedList, PolicyPropsInput, RuleFacts, RuleObservation, RuleReference } from "./provider/one-rule";
export type { DesiredUser, ListMode } from "../../core/engine/desired";
/** The provider's plan kept whole and applied as planned, or nothing (design §12.1). */
export { applyPlannedRule, parseKeptPlan, planClear, plannedRemovals } from "./provider/provider-rule";
export type { PlannedRemoval, PlannedRuleApply } from "./provider/provider-rule";
export { RUN_SCOPE_VARIABLE, TerraformRun } from "../terraform-run";
export type { ListPolicy } from "../../core/engine/policy-schema";
/** How a native list's import ID names its rule (src/core/native/native-provider.ts). */
export { nativeImportId, nativeImportIdProblem, parseNativeImportId } from "../../core/native/native-provider";
/** The declaration in the state of a provisioner resource a RuleUserList wrote (the provider's MoveResourceState). */
export { declarationOfProvisionerState } from "../../core/declaration/provisioner-state";
/** The client's names a front door may use (src/io/workflow/door.ts). */
export * from "./door";
