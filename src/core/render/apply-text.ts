/**
 * The outcome of an apply: as text for a terminal or a CI log, and as markdown for a job summary.
 * Pure: returns strings.
 */
import type { ApplyResult, CallRecord, RuleResult } from "../engine/apply-results";
import type { Paint } from "./common";
import { describeCall, mdCode, mdText, painter, plural, printable, quoted } from "./common";
import { CALL_COUNTING_LEGEND } from "./counts";

export interface ApplyTextRenderOptions {
  /** ANSI colours; the CLI passes true only when the stream is a TTY. */
  readonly color: boolean;
}

/** The hidden marker at the top of every apply summary. */
export const APPLY_SUMMARY_MARKER = "<!-- alert-rule-users-apply -->";

/** A saved plan whose every list is already as it leaves them (a re-run of its apply): what is said, in a terminal, a log and a job summary. */
export function alreadyAppliedSentence(rules: readonly RuleResult[]): string {
  const lists = rules.filter((r) => r.action === "update").length;
  const which = lists === 1 ? "the list this plan changes is already as it leaves it" : `the ${lists} lists this plan changes are already as it leaves them`;
  return `Already applied: ${which} (an earlier run applied this plan, or the same change was made elsewhere): nothing to do, nothing was sent.`;
}

export function renderApplyText(result: ApplyResult, options: ApplyTextRenderOptions): string {
  const paint = painter(options.color);
  const out: string[] = [];
  for (const rule of result.rules) {
    if (rule.outcome === "unchanged") continue;
    out.push(`${outcomeLine(rule, paint)}`);
    out.push(paint("dim", `    # ${printable(rule.constructPath)}`));
    for (const call of rule.calls) out.push(`    ${callLine(call, paint)}`);
  }
  if (result.summary.unchanged > 0) out.push(`  ${plural(result.summary.unchanged, "rule")} unchanged.`);
  if (result.rules.some((r) => r.calls.length > 0)) out.push(paint("dim", CALL_COUNTING_LEGEND));
  if (out.length > 0) out.push("");
  const s = result.summary;
  out.push(paint(["bold", result.ok ? "green" : "red"], headline(result)));
  if (s.interrupted > 0) out.push("No call was started after the interrupt; the calls in flight finished. The rules marked interrupted are not done.");
  else if (!result.ok) out.push("Some rules did not converge: fix the cause above and run apply again; rules already converged are left as they are.");
  return out.join("\n") + "\n";
}

function headline(result: ApplyResult): string {
  const s = result.summary;
  if (s.interrupted > 0) {
    return `Apply interrupted: ${plural(s.applied, "rule")} applied and verified, ${s.interrupted} interrupted, ${s.failed} failed, ${s.skipped} skipped, ${s.unchanged} unchanged.`;
  }
  return `Apply complete: ${plural(s.applied, "rule")} applied and verified, ${s.failed} failed, ${s.skipped} skipped, ${s.unchanged} unchanged.`;
}

function label(rule: RuleResult): string {
  const name = rule.ruleName === null ? "(unnamed)" : quoted(rule.ruleName);
  return `rule ${rule.ruleId === null ? name : `${name} (${printable(rule.ruleId)})`}`;
}

function outcomeLine(rule: RuleResult, paint: Paint): string {
  const message = rule.message === null ? "" : printable(rule.message);
  switch (rule.outcome) {
    case "applied":
      return `  ${paint(["bold", "green"], "✓")} ${paint("bold", label(rule))} applied and verified${message === "" ? "" : ` (${message})`}`;
    case "failed":
      return `  ${paint(["bold", "red"], "✗")} ${paint("bold", label(rule))} ${paint("red", `failed: ${message || "no message"}`)}`;
    case "skipped":
      return `  ${paint("dim", "-")} ${paint("bold", label(rule))} skipped: ${message || "no reason given"}`;
    case "unchanged":
      return `  ${label(rule)} unchanged`;
    case "interrupted":
      return `  ${paint(["bold", "yellow"], "‖")} ${paint("bold", label(rule))} ${paint("yellow", `interrupted: ${message || "not done"}`)}`;
  }
}

function callLine(call: CallRecord, paint: Paint): string {
  const what = describeCall(call.operation, call.users);
  if (call.status === "ok") return `${what} ${paint("green", "ok")}`;
  if (call.status === "not-sent") return `${what} ${paint("red", `not sent${call.error === undefined ? "" : `: ${printable(call.error)}`}`)}`;
  return `${what} ${paint("red", `failed${call.error === undefined ? "" : `: ${printable(call.error)}`}`)}`;
}

/** A job summary (e.g. $GITHUB_STEP_SUMMARY): one table row per rule that was not unchanged. */
export function renderApplyMarkdown(result: ApplyResult): string {
  const s = result.summary;
  const parts: string[] = [`${APPLY_SUMMARY_MARKER}\n## alert-rule-users apply`, `**${headline(result)}**`];
  if (s.interrupted > 0) parts.push("> [!CAUTION]\n> Interrupted: no call was started after the interrupt. The rules marked interrupted are not done: run apply again.");
  else if (!result.ok) parts.push("> [!CAUTION]\n> Some rules did not converge: fix the cause and run apply again.");
  const listed = result.rules.filter((r) => r.outcome !== "unchanged");
  if (listed.length > 0) {
    parts.push(
      [
        "| Rule | Outcome | Calls | Verified | Details |",
        "|---|---|---|---|---|",
        ...listed.map(
          (r) =>
            `| ${ruleCell(r)} | ${OUTCOME[r.outcome]} | ${r.calls.map(callCell).join("<br>") || "none"} | ${verifiedCell(r.verified)} | ${r.message === null ? "" : mdText(r.message)} |`,
        ),
      ].join("\n"),
    );
  }
  if (s.unchanged > 0) parts.push(`${plural(s.unchanged, "rule")} unchanged (not listed).`);
  if (listed.some((r) => r.calls.length > 0)) parts.push(`<sub>${CALL_COUNTING_LEGEND}</sub>`);
  return parts.join("\n\n") + "\n";
}

const OUTCOME: Readonly<Record<RuleResult["outcome"], string>> = {
  applied: "✅ applied",
  failed: "❌ failed",
  skipped: "⏭️ skipped",
  unchanged: "unchanged",
  interrupted: "⏸️ interrupted",
};

function ruleCell(rule: RuleResult): string {
  const name = rule.ruleName === null ? "(unnamed)" : mdText(rule.ruleName);
  const id = rule.ruleId === null ? "" : `<br>${mdCode(rule.ruleId, true)}`;
  return `${name}${id}<br>${mdCode(rule.constructPath, true)}`;
}

function callCell(call: CallRecord): string {
  return `${mdText(describeCall(call.operation, call.users))} ${call.status === "ok" ? "ok" : call.status === "not-sent" ? "**not sent**" : "**failed**"}`;
}

function verifiedCell(verified: boolean | null): string {
  return verified === null ? "—" : verified ? "yes" : "**no**";
}
