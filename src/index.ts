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
export { observe } from "./io/observe";
export { buildPlan, hasChanges } from "./core/build-plan";
export { diffRule } from "./core/diff";
export { applyPlan } from "./io/execute";
export type { ApplyOptions, ApplyResult, RuleResult } from "./io/execute";
export { readPlanFile, writePlanFile, parsePlan, serializePlan } from "./io/plan-file";
export type { Plan, RulePlan, PlannedCall, PlanSummary } from "./core/plan-schema";
export { readDeclarations, toDesiredList } from "./io/read-synth-output";
export { runSynth } from "./io/synth";
export { startSimulator, DEFAULT_SIMULATOR_TOKEN } from "./simulator";
export type { RunningSimulator, SimulatorOptions, FaultOptions } from "./simulator";
