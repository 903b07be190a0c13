/** Renderers of plans and apply results: pure functions returning strings (no console, no I/O). */
export type { ApplyTextRenderOptions } from "./apply-text";
export { alreadyAppliedSentence, APPLY_SUMMARY_MARKER, renderApplyMarkdown, renderApplyText } from "./apply-text";
export type { MarkdownRenderOptions } from "./markdown";
export { DEFAULT_MARKDOWN_MAX_LENGTH, PLAN_COMMENT_MARKER, renderPlanMarkdown } from "./markdown";
export type { TextRenderOptions } from "./text";
export { renderPlanText } from "./text";
export { renderApplyReportMarkdown } from "./apply-report";
export { plural, printable, printableLines, printableValues } from "./common";
export { shownJson } from "../../shared/invisible";
/** "Did you mean …?" for the CLI's messages (unknown flags and commands): src/core/engine/suggest.ts. */
export { didYouMean, suggest } from "../engine/suggest";
export { renderTerraformChangesMarkdown, renderTerraformChangesText } from "./terraform-changes";
export { EVALUATION_LOG_SHOWN, renderEvaluationMarkdown, type Evaluation } from "./evaluation";
