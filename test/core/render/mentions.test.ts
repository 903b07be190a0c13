/**
 * No markdown this tool writes notifies anyone (issue 25, item 12): an `@org/team` or `@someone` in
 * a rule name, a reason or an error message reaches a pull-request comment or a job summary as
 * text, with a zero-width joiner after the `@` (GitHub ignores a backslash before `@`). It stays
 * readable: the `@` and the name are shown as they are; e-mail addresses are left alone.
 */
import { renderApplyMarkdown, renderPlanMarkdown } from "../../../src/core/render";
import { renderApplyReportMarkdown } from "../../../src/core/render/apply-report";
import { ApplyReportRecorder } from "../../../src/core/report/apply-report";
import { StalePlanError } from "../../../src/errors";
import { TOOL_VERSION } from "../../../src/io/version";
import { applyResult, declared, entry, found, inclusion, planOf, ruleResult, user } from "./builders";

const ZWJ = "\u200d";
const HOSTILE = "Watch @org/team and @someone";

/** Markdown outside code spans and fenced blocks: where GitHub turns `@name` into a mention. */
function proseOf(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "").replace(/(`+)[\s\S]*?\1/g, "");
}

/** `@name` that GitHub would notify: an `@` after a non-word character (or at the start) and before a name. */
const MENTION = /(^|[^A-Za-z0-9_`])@[A-Za-z0-9]/m;

describe("mentions in markdown", () => {
  it("the plan comment: a rule name and a reason with @team notify nobody, and still read @org/team", () => {
    // given a changed rule and a skipped one named with mentions
    const plan = planOf(
      { declaration: declared("app/one", "r-1", [user("1", "a@example.com")]), observation: found("r-1", HOSTILE, inclusion(entry("2", "b@example.com"))) },
      { declaration: declared("app/two", "r-2", [user("1", "a@example.com")]), observation: found("r-2", HOSTILE, null, { isSystem: true }) },
    );

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(proseOf(md)).not.toMatch(MENTION);
    expect(md).toContain(`@${ZWJ}org/team`);
    expect(md).toContain(`@${ZWJ}someone`);
  });

  it("the apply job summary: a rule name and a message with mentions notify nobody; e-mail addresses are unchanged", () => {
    // given
    const result = applyResult(ruleResult({ ruleName: HOSTILE, outcome: "failed", message: "refused by @security-team for bob@example.com" }));

    // when
    const md = renderApplyMarkdown(result);

    // then
    expect(proseOf(md)).not.toMatch(MENTION);
    expect(md).toContain(`@${ZWJ}security-team for bob@example.com`);
  });

  it("the apply report's markdown: a refusal message with a mention notifies nobody", () => {
    // given
    const recorder = new ApplyReportRecorder("2026-03-02T09:00:00.000Z", { kind: "plan-file", path: "plan.json" }, TOOL_VERSION);
    const report = recorder.fail(new StalePlanError(`nothing was applied: ${HOSTILE} changed`, []), "2026-03-02T09:00:02.000Z");

    // when
    const md = renderApplyReportMarkdown(report);

    // then
    expect(proseOf(md)).not.toMatch(MENTION);
    expect(md).toContain(`@${ZWJ}org/team`);
  });
});
