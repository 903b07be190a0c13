/**
 * The I/O layer's public surface (the package's library, src/index.ts) is its workflow's steps
 * (src/io/workflow/steps/), composed with every check before a write, and the session they take
 * (src/io/workflow/session/). The modules below them (synth, observe, execute, plan files) are
 * internal.
 */
export { applyFresh, applySavedPlan } from "./workflow/steps/apply";
export type { FreshApply, FreshApplyHooks, SavedPlanFile, SavedPlanHooks } from "./workflow/steps/apply";
export { getPlan, planDocument, savePlan } from "./workflow/steps/plan";
export type { PlanClock } from "./workflow/steps/plan";
export { readDesired, readDesiredFromEnv } from "./workflow/steps/declared";
export { readPlanKey } from "./workflow/steps/plan-key";
export { findPeopleLive, importRules, listRules, readLiveRules } from "./workflow/steps/live";
export { connectedSession } from "./workflow/session/connect";
export type { RunOptions, SendOptions, Session, SynthSettings } from "./workflow/session/session";
