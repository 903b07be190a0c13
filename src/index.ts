/**
 * alert-rule-users: keep the user lists of security alert rules in git.
 *
 * The root export is the public API: the RuleUserList construct (the only part that loads cdktf),
 * the typed client, the engine (observe, plan, apply, renderers, plan files) and the simulator.
 */
export { RuleUserList } from "./constructs";
export type { RuleUserListProps, RuleUserListUser } from "./constructs";
export * from "./errors";
export * as api from "./api";
export { RuleListClient, resolveConnection } from "./api";
export type { ClientOptions, ConnectionConfig } from "./api";
export { observe } from "./engine/observe";
export { buildPlan, hasChanges } from "./engine/plan";
export { diffRule } from "./engine/diff";
export { applyPlan } from "./engine/apply";
export type { ApplyOptions, ApplyResult, RuleResult } from "./engine/apply";
export { readPlanFile, writePlanFile, parsePlan, serializePlan } from "./engine/plan-file";
export type { Plan, RulePlan, PlannedCall, PlanSummary } from "./engine/model";
export { readDeclarations, toDesiredList } from "./engine/desired";
export { runSynth } from "./engine/synth";
export { startSimulator, DEFAULT_SIMULATOR_TOKEN } from "./simulator";
export type { RunningSimulator, SimulatorOptions, FaultOptions } from "./simulator";
