/**
 * alert-rule-users: keep the user lists of security alert rules in git.
 *
 * The root export is the public API: the RuleUserList construct (the only part that loads cdktf),
 * the typed client, the pure core (decode, diff, plan, guards), the io layer (synth, observe, apply,
 * plan files) and the simulator.
 */
export { RuleUserList, RuleUserListPolicy } from "./constructs";
export type { RuleUserListPolicyProps, RuleUserListProps, RuleUserListUser } from "./constructs";
export * from "./errors";
export * as api from "./api";
export { RuleListClient, resolveConnection } from "./api";
export type { ClientOptions, ConnectionConfig } from "./api";
export { observe, applyPlan, readPlanFile, writePlanFile, readDeclarations, runSynth } from "./io";
export type { ApplyOptions } from "./io";
export { buildPlan, hasChanges, diffRule, decodeStack, parsePlan, serializePlan } from "./core";
export type { ApplyResult, RuleResult, DesiredList, Plan, RulePlan, PlannedCall, PlanSummary } from "./core";
export { startSimulator, DEFAULT_SIMULATOR_TOKEN } from "./simulator";
export type { RunningSimulator, SimulatorOptions, FaultOptions } from "./simulator";
