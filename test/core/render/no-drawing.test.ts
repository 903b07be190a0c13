/**
 * What comes from the service is data, never drawing (design §13.2): a rule name, a description, a
 * user ID, an alias or an error text holding a terminal escape (ESC [31m recolours, a line feed
 * forges a line, CSI U+009B erases), DEL, a line separator or a bidi control is shown escaped
 * (`\u001b`) by every renderer of the CLI: the plan's text and markdown (pull-request comments),
 * the apply's text and markdown (job summaries), the apply report's markdown and JSON, the access
 * report's HTML page and CSV, and every JSON document the CLI prints.
 */
import { buildAccessReport } from "../../../src/core/report/access-report";
import { ApplyReportRecorder } from "../../../src/core/report/apply-report";
import { renderApplyMarkdown, renderApplyReportMarkdown, renderApplyText, renderPlanMarkdown, renderPlanText, shownJson } from "../../../src/core/render";
import { renderReportCsv } from "../../../src/core/render/report-csv";
import { renderReportHtml } from "../../../src/core/render/report-html";
import { serializePlan } from "../../../src/core/engine/plan-schema";
import { StalePlanError } from "../../../src/errors";
import { describeListChange } from "../../../src/core/native/native-provider";
import { ApiError } from "../../../src/api/http/errors";
import { applyResult, call, declared, entry, exclusion, facts, found, inclusion, planOf, ruleResult, user } from "./builders";

/** Recolours, forges a line, erases the screen (CSI), deletes, separates lines, reverses text. */
const DRAWS = "x\u001b[31m@x.com\nFAKE: Apply complete!\u009b2J\u007f\u2028\u2029\u202e\u2066";
/** What must never reach a screen raw: C0 but the line feed, DEL, C1, U+2028/2029, bidi controls. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** A line the service forged, at the start of a line of output. */
const FORGED_LINE = /^[\s>|*`+-]*FAKE: Apply complete!/m;

const RULE = "c3e0a1b2";

function hostilePlan() {
  return planOf(
    {
      declaration: declared("watch", RULE, [user("9101", "dave@example.com")]),
      observation: found(RULE, `Exfil ${DRAWS}`, inclusion(entry("9101", "dave@example.com"), entry(`66${DRAWS}`, DRAWS), entry(null, `noid${DRAWS}`))),
    },
    {
      declaration: declared("failing", "f-1", [user("1", "a@example.com")]),
      observation: { kind: "failed", rule: facts("f-1", `Fails ${DRAWS}`), message: `HTTP 500: ${DRAWS}` },
    },
    {
      declaration: declared("typo", "t-1", [user("1", "a@example.com")], { ruleId: null, ruleName: "Exfil" }),
      observation: { kind: "not-found", knownNames: [`Exfil ${DRAWS}`] },
    },
  );
}

function expectNothingDrawn(output: string): void {
  expect(output).not.toMatch(RAW);
  expect(output).not.toMatch(FORGED_LINE);
}

describe("the CLI's renderers show the service's values escaped", () => {
  it("plan text (no colour) and the pull-request markdown", () => {
    const plan = hostilePlan();
    const text = renderPlanText(plan, { color: false });
    expectNothingDrawn(text);
    expect(text).toContain("x\\u001b[31m@x.com\\u000aFAKE: Apply complete!\\u009b2J\\u007f\\u2028\\u2029\\u202e\\u2066");
    // markdown puts a line break of a value on the line as a space (markup), every other character escaped
    const markdown = renderPlanMarkdown(plan);
    expectNothingDrawn(markdown);
    expect(markdown).toContain("x\\u001b[31m@x.com FAKE: Apply complete!\\u009b2J\\u007f\\u2028\\u2029\\u202e\\u2066");
  });

  it("plan text with colour: only its own colours are escape sequences", () => {
    const text = renderPlanText(hostilePlan(), { color: true });
    expect(text.replace(/\u001b\[\d+m/g, "")).not.toMatch(RAW);
    expect(text).not.toContain("\u001b[31m@x.com");
  });

  it("the JSON plan (--format json, --out): the same document, nothing raw", () => {
    const plan = hostilePlan();
    const json = serializePlan(plan);
    expectNothingDrawn(json);
    expect(JSON.parse(json).rules[0].ruleName).toBe(`Exfil ${DRAWS}`);
  });

  it("apply text and the job summary's markdown", () => {
    const result = applyResult(
      ruleResult({ outcome: "failed", ruleName: `Exfil ${DRAWS}`, message: `verification failed: ${DRAWS}`, calls: [call("remove-users", 1, "failed", `HTTP 400: ${DRAWS}`)] }),
    );
    for (const output of [renderApplyText(result, { color: false }), renderApplyMarkdown(result)]) {
      expectNothingDrawn(output);
      expect(output).toMatch(/\\{1,2}u001b\\?\[31m/);
    }
  });

  it("the apply report: its markdown and its JSON", () => {
    const recorder = new ApplyReportRecorder("2026-03-01T12:00:00Z", { kind: "declaration" }, "1.2.3");
    recorder.planReady(hostilePlan());
    // the refusal's message as the engine words a list changed elsewhere (src/core/native), and a service error
    const changes = describeListChange(inclusion(entry("1", "a@example.com")), inclusion(entry("1", "a@example.com", DRAWS), entry(`66${DRAWS}`, "b@example.com")));
    const report = recorder.fail(new StalePlanError(`the list of rule ${RULE} changed: ${changes.join("; ")}`, [`Exfil ${DRAWS}`]), "2026-03-01T12:00:05Z");
    expectNothingDrawn(renderApplyReportMarkdown(report));
    const json = shownJson(report, 2);
    expectNothingDrawn(json);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it("an error the service words: its text escaped where the client reads it, so every place that shows the error shows it escaped", () => {
    const err = new ApiError({ kind: "http", status: 400, operation: "remove-users", ruleId: RULE, attempts: 1, retryable: false, serviceMessage: DRAWS, serviceCode: `BAD${DRAWS}` });
    expectNothingDrawn(err.message);
    expect(err.message).toContain("x\\u001b[31m@x.com\\u000aFAKE: Apply complete!");
  });

  it("the access report: its HTML page and its CSV", () => {
    const report = buildAccessReport({
      rules: [{ rule: { ...facts(RULE, `Exfil ${DRAWS}`), isEnabled: true }, list: exclusion(entry(`66${DRAWS}`, DRAWS), entry(null, `noid${DRAWS}`)) }],
      now: "2026-11-24T00:00:00Z",
      tenantId: "tenant",
    });
    const html = renderReportHtml(report, { generatedAt: "2026-11-24T00:00:01Z", toolVersion: "1.2.3" });
    const csv = renderReportCsv(report);
    // (the page's own markup has line breaks; the CSV ends its records with CRLF)
    for (const output of [html, csv]) expect(output).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain("x\\u001b[31m@x.com FAKE: Apply complete!\\u009b2J");
    expect(csv).toContain("x\\u001b[31m@x.com\\u000aFAKE: Apply complete!\\u009b2J");
    expect(csv.split("\r\n")).toHaveLength(4);
  });

  it("shownJson writes what JSON.stringify leaves raw as \\u escapes, and reads back the same value", () => {
    const value = { [`k${DRAWS}`]: [DRAWS, { n: 1 }] };
    expect(JSON.stringify(value)).toMatch(RAW);
    expectNothingDrawn(shownJson(value, 2));
    expect(JSON.parse(shownJson(value, 2))).toEqual(value);
  });
});
