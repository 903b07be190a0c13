/**
 * The I/O layer: synthesizing the app and reading its output, saved plans, observing the service
 * and executing plans, composed in one place: workflow.ts.
 */
export { applyFresh, applySavedPlan, getPlan, importRules, loadSavedPlan, readDesired } from "./workflow";
export type { ApplyHooks, FreshApply, Session, SynthSettings } from "./workflow";
export { observe, readList, readRuleLists, searchRules } from "./observe";
export { applyPlan, checkNotStale } from "./execute";
export type { ApplyOptions } from "./execute";
export { readPlanFile, writePlanFile } from "./plan-file";
export { readDeclarations } from "./read-synth-output";
export { runSynth } from "./synth";
export { writeFileAtomic } from "../shared/atomic-write";
export { TOOL_VERSION } from "./version";
