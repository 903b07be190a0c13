/**
 * alert-rule-users: keep the user lists of security alert rules in git.
 *
 * The library's deliberate surface (docs/architecture.md, "The library"):
 * - the constructs (the only part that loads cdktf; `alert-rule-users/cdktn` for cdktn);
 * - the workflow: read the declaration, plan, save, apply (only through the admission of
 *   src/io/workflow/steps/apply.ts: signature, connection, guards, fresh reads), import, live reads;
 * - the typed clients of the service and its connection settings (a client's write methods send
 *   what they are given: the checks guard plans, applied through the workflow, not the client);
 * - the pure core's read-only functions (decode, diff, plan, parse, render) and the plan types;
 * - the simulator.
 * No plan is sent without the checks: the executor below the workflow is not exported, and a
 * session (`connectedSession`: a client bound to a run's settings) sends only an `AdmittedPlan`,
 * which the workflow's admission alone makes.
 */
export { AlertRulesProvider, RuleUserList, RuleUserListPolicy } from "./constructs";
export type { AlertRulesProviderProps, RuleUserListMove, RuleUserListPolicyProps, RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./constructs";
export * from "./errors";
export * as api from "./api";
export { RuleListClient, TriageClient, RateLimiter, resolveConnection } from "./api";
export type { ClientOptions, ConnectionConfig } from "./api";
export {
  applyFresh,
  applySavedPlan,
  connectedSession,
  findPeopleLive,
  getPlan,
  importRules,
  listRules,
  planDocument,
  readDesired,
  readDesiredFromEnv,
  readLiveRules,
  readPlanKey,
  savePlan,
} from "./io";
export type { FreshApply, FreshApplyHooks, PlanClock, RunOptions, SavedPlanFile, SavedPlanHooks, SendOptions, Session, SynthSettings } from "./io";
export { buildPlan, hasChanges, diffRule, decodeStack, parsePlan } from "./core";
export type { AdmittedPlan, ApplyResult, RuleResult, DesiredList, Plan, RulePlan, PlannedCall, PlanSummary } from "./core";
export { renderPlanMarkdown, renderPlanText, renderApplyText } from "./core/render";
export { startSimulator, DEFAULT_SIMULATOR_TOKEN } from "./simulator";
export type { RunningSimulator, SimulatorOptions, FaultOptions } from "./simulator";
