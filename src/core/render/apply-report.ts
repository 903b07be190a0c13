/**
 * The apply report as markdown, for a CI job summary ($GITHUB_STEP_SUMMARY): the apply outcome
 * table of renderApplyMarkdown, or the refusal and its reason, then when and what was applied.
 * Never shows the tenant ID or the base URL. Pure: returns a string.
 */
import type { ApplyReport } from "../report/apply-report";
import { alreadyAppliedSentence, APPLY_SUMMARY_MARKER, renderApplyMarkdown } from "./apply-text";
import { mdCode, mdText } from "./common";

const HEADLINE: Readonly<Record<ApplyReport["status"], string>> = {
  applied: "",
  "no-changes": "",
  "already-applied": "",
  failed: "",
  refused: "Apply refused: nothing was sent.",
  cancelled: "Apply cancelled: nothing was sent.",
  error: "Apply stopped on an error.",
  interrupted: "",
};

const NO_SUMMARY = { applied: 0, unchanged: 0, skipped: 0, failed: 0, interrupted: 0 };

export function renderApplyReportMarkdown(report: ApplyReport): string {
  const parts: string[] = [];
  if (report.status === "already-applied") {
    parts.push(`${APPLY_SUMMARY_MARKER}\n## alert-rule-users apply`, `**${mdText(alreadyAppliedSentence(report.rules))}**`);
  } else if (report.refusal === null || report.status === "interrupted") {
    // an interrupted run shows what it did, rule by rule, and then why it stopped
    parts.push(renderApplyMarkdown({ ok: report.exitCode === 0, rules: report.rules, summary: report.summary ?? NO_SUMMARY }).trimEnd());
    if (report.refusal !== null) parts.push(report.refusal.message.split("\n").map((line) => `> ${mdText(line)}`).join("\n"));
  } else {
    const lines = report.refusal.message.split("\n").map((line) => `> ${mdText(line)}`);
    parts.push(
      `${APPLY_SUMMARY_MARKER}\n## alert-rule-users apply`,
      `**${HEADLINE[report.status] || "Apply did not complete."}**`,
      [report.status === "cancelled" ? "> [!NOTE]" : "> [!CAUTION]", `> ${mdCode(report.refusal.code)}`, ...lines].join("\n"),
    );
    if (report.refusal.code === "STALE_PLAN") {
      parts.push("The lists changed after the plan was made (or the plan was made for another connection): plan again, review, and apply the new plan.");
    }
  }
  const facts = [
    `status ${mdCode(report.status)}`,
    `exit code ${report.exitCode}`,
    `started ${mdText(report.startedAt)}`,
    `finished ${mdText(report.finishedAt)}`,
    report.source.kind === "plan-file" ? `plan file ${mdCode(report.source.path)}` : `source: ${report.source.kind}`,
    ...(report.plan === null ? [] : [`plan checksum ${mdCode(report.plan.checksum)}`]),
  ];
  parts.push(`<sub>${mdText(report.tool.name)} ${mdText(report.tool.version)} · ${facts.join(" · ")}</sub>`);
  return parts.join("\n\n") + "\n";
}
