/**
 * The one place that composes the steps (docs/architecture.md):
 *
 *   declaration → synth → decode → observe → plan → (save) → admit → execute → verify
 *
 * Reads and writes happen here and in the io modules it calls; every decision is made by the pure
 * core (src/core). A front door turns its input into a plain request, calls one function here per
 * command (`planRun`, `applyRun`, …) with a reporter for what the run tells it, and prints what
 * comes back. This file names the workflow's calls and nothing else: the words both doors say
 * beside them (errors, redaction, durations, the environment's names, text helpers) are
 * src/io/door-words.ts; the io modules that are a whole command by themselves (the provider's
 * packages, `init --hcl`, the Terraform command the provider serves) a door imports where they
 * stand; types from where they are declared. eslint-rules/door-imports.mjs names what a door's
 * value imports may reach. The library's surface (src/index.ts) takes the steps from
 * src/io/index.ts.
 *
 * Its rooms: runs/ (one function per CLI command), steps/ (what the runs string together),
 * session/ (a run's connection, settings and reporter), provider/ (the native provider's calls).
 */
/** The CLI's commands: one function each, from a plain request. */
export { planRun } from "./runs/plan-run";
export { applyRun } from "./runs/apply-run";
export { importRun, reportRun, rulesRun, whoRun } from "./runs/read-runs";
export { alertNoteRun, alertStateRun, alertsSearchRun, alertsShowRun, escalateRun } from "./runs/triage-alerts";
export { caseAddFileEventsRun, caseCreateRun } from "./runs/triage-cases";
export { fileEventsSearchRun } from "./runs/triage-file-events";
export { doctorRun } from "./runs/doctor";
export { synthesizeApp } from "./steps/synth-app";
export { initApp } from "./steps/init";
/** The native provider's calls (src/provider): its session, one rule at a time, and its plan kept whole (design §12.1). */
export { openSession } from "./session/connect";
export { listRules } from "./steps/live";
export { RuleLookup } from "./provider/rule-lookup";
export { applyPlannedRule, applyRuleChange, claimRule, createKey, keptList, listOfFingerprint, observeForPlan, parseKeptPlan, planDestroy, planRuleChange, plannedRemovals, readRuleState, refusalOf, viewOfLiveList } from "./provider/rule-state";
export { readReviewedPlans, reviewDifferences } from "./provider/reviewed-plans";
