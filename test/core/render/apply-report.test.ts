/** The apply report recorder and its markdown: statuses, refusals, escaping, no connection details. */
import { ApplyReportRecorder } from "../../../src/core/report/apply-report";
import { MassRemovalError, StalePlanError } from "../../../src/errors";
import { TOOL_VERSION } from "../../../src/io/version";
import { UsageError } from "../../../src/errors";
import { renderApplyReportMarkdown } from "../../../src/core/render/apply-report";

const START = "2026-03-02T09:00:00.000Z";
const END = "2026-03-02T09:00:02.000Z";
const connection = { baseUrl: "https://alerts.example.com", tenantId: "tenant-secretive-42" };

describe("apply report", () => {
  it("a stale plan is a refusal with the stale rules; the markdown names the reason, not the connection", () => {
    // given
    const recorder = new ApplyReportRecorder(START, { kind: "plan-file", path: "plan.json" }, TOOL_VERSION);
    recorder.connected(connection);
    // when
    const report = recorder.fail(new StalePlanError("nothing was applied: <b>stale</b> | list", ["rules/x (rule 1)"]), END);
    // then
    expect(report).toMatchObject({ reportVersion: 1, status: "refused", exitCode: 1, startedAt: START, finishedAt: END, connection, plan: null, rules: [] });
    expect(report.refusal).toEqual({ code: "STALE_PLAN", message: "nothing was applied: <b>stale</b> | list", staleRules: ["rules/x (rule 1)"] });
    const md = renderApplyReportMarkdown(report);
    expect(md).toContain("Apply refused: nothing was sent.");
    expect(md).toContain("&lt;b&gt;stale&lt;/b&gt; \\| list");
    expect(md).not.toContain(connection.tenantId);
    expect(md).not.toContain(connection.baseUrl);
  });

  it.each([
    ["a mass-removal refusal", "refused", "MASS_REMOVAL", new MassRemovalError("guard")],
    ["a usage error", "error", "USAGE", new UsageError("usage")],
    ["an unexpected error", "error", "INTERNAL", new Error("boom")],
  ] as const)("%s is reported as %s (%s)", (_label, status, code, error) => {
    const report = new ApplyReportRecorder(START, { kind: "declaration" }, TOOL_VERSION).fail(error, END);
    expect(report.status).toBe(status);
    expect(report.refusal?.code).toBe(code);
  });

  it("a cancelled run and a run without changes", () => {
    const cancelled = new ApplyReportRecorder(START, { kind: "declaration" }, TOOL_VERSION);
    cancelled.cancelled();
    expect(cancelled.finish(1, END)).toMatchObject({ status: "cancelled", refusal: { code: "CANCELLED" } });
    expect(new ApplyReportRecorder(START, { kind: "declaration" }, TOOL_VERSION).finish(0, END)).toMatchObject({ status: "no-changes", refusal: null, summary: null });
  });
});
