/**
 * The access report page (docs/contract.md §10.3) as text: one file whose Content-Security-Policy allows
 * only its own inline script and style by hash, every value escaped. The browser tests
 * (test/browser) open it in chromium.
 */
import { createHash } from "node:crypto";
import { buildAccessReport } from "../../../src/core/report/access-report";
import { renderReportHtml } from "../../../src/core/render/report-html";
import { HOSTILE_ALIASES } from "../../support/hostile-aliases";
import { entry, exclusion, facts } from "./builders";

const RULE = "00000000-0000-4000-8000-000000000001";

function page(): string {
  const report = buildAccessReport({
    rules: [{ rule: { ...facts(RULE, "<b>Evil</b> rule \u202e"), isEnabled: true }, list: exclusion(entry("7", ...HOSTILE_ALIASES), entry("<i>8</i>", "x@example.com")) }],
    now: "2026-11-24T00:00:00Z",
    tenantId: "tenant<script>",
  });
  return renderReportHtml(report, { generatedAt: "2026-11-24T00:00:01Z", toolVersion: "1.2.3" });
}

describe("renderReportHtml", () => {
  it("allows exactly its own inline script and style, by sha256, and nothing else", () => {
    // when
    const html = page();

    // then
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const hash = (tag: string) => {
      const body = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)![1]!;
      return `'sha256-${createHash("sha256").update(body).digest("base64")}'`;
    };
    expect(csp).toBe(`default-src 'none'; script-src ${hash("script")}; style-src ${hash("style")}; img-src 'none'; base-uri 'none'; form-action 'none'`);
    expect(html).not.toMatch(/<[a-z][^>]*\s(src|href|action)=/i);
    expect(html).not.toMatch(/\bstyle="/);
  });

  it("escapes every value: no markup of the tenant's, no invisible character raw", () => {
    // when
    const html = page();

    // then
    expect(html).toContain("&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;@evil.example.com");
    expect(html).toContain("&lt;/noscript&gt;&lt;/tbody&gt;&lt;tr data-k=&quot;dx1&quot;&gt;&lt;td&gt;forged@evil.example.com");
    expect(html).toContain("&lt;b&gt;Evil&lt;/b&gt; rule \\u202e");
    expect(html).toContain("&lt;i&gt;8&lt;/i&gt;");
    expect(html).toContain("tenant&lt;script&gt;");
    expect(html).toContain("bob\\u200b@example.com");
    expect(html).not.toMatch(/[\u200b\u202e]/);
    expect(html.match(/<script/g)).toHaveLength(2); // the report's JSON and the page's script
    expect(html.match(/<\/noscript>/g)).toHaveLength(1);
    const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(json) as { rules: unknown; people: [string | null, string[]][] };
    expect(data.rules).toEqual([{ n: "<b>Evil</b> rule \\u202e", l: "exclusion list" }]);
    expect(data.people.flatMap((p) => p[1])).toContain("bob\\u200b@example.com");
  });

  it("is readable without JavaScript: a table of every entry, one row group per rule", () => {
    const html = page();
    expect(html).toContain(`<th scope="rowgroup" colspan="6">&lt;b&gt;Evil&lt;/b&gt; rule \\u202e · exclusion list · ${RULE} · 2 entries</th>`);
    expect(html).toMatch(/<noscript id="all"><table id="all-table">/);
    const table = /<noscript id="all">([\s\S]*)<\/noscript>/.exec(html)![1]!;
    expect(table.match(/<tr data-k="/g)).toHaveLength(2);
  });

  it("without JavaScript, lists at most noscriptRows entries and says where the rest are (the CSV written beside it) (issue 32)", () => {
    // given a report of 5 entries
    const report = buildAccessReport({
      rules: [{ rule: { ...facts(RULE, "Watch"), isEnabled: true }, list: exclusion(...["1", "2", "3", "4", "5"].map((id) => entry(id, `u${id}@example.com`))) }],
      now: "2026-11-24T00:00:00Z",
      tenantId: "t",
    });

    // when the table without JavaScript may hold 3
    const cut = renderReportHtml(report, { noscriptRows: 3, csvFile: "access.csv" });
    const whole = renderReportHtml(report, {});

    // then 3 rows, a note naming the CSV; every entry is still in the script's data
    const table = (html: string) => /<noscript id="all">([\s\S]*)<\/noscript>/.exec(html)![1]!;
    expect(table(cut).match(/<tr data-k="/g)).toHaveLength(3);
    expect(table(cut)).toContain("This table lists the first 3 of 5 entries: all of them are in <code>access.csv</code>, written with this page");
    const data = JSON.parse(/<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(cut)![1]!) as { rows: number[]; people: unknown[] };
    expect(data.rows).toHaveLength(5 * 5);
    expect(data.people).toHaveLength(5);
    expect(table(whole).match(/<tr data-k="/g)).toHaveLength(5);
    expect(table(whole)).not.toContain("This table lists the first");
  });

  it("shows one time when the page was made at the report's clock, both when --now set another", () => {
    const report = buildAccessReport({ rules: [], now: "2026-11-24T00:00:00Z", tenantId: "t" });
    const times = (html: string) => new Set(html.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g));
    expect(times(renderReportHtml(report, { generatedAt: "2026-11-24T00:00:00Z" }))).toEqual(new Set(["2026-11-24T00:00:00Z"]));
    expect(times(renderReportHtml(report, { generatedAt: "2026-11-25T10:00:00Z" })).size).toBe(2);
  });

  it("each person is in the data once, however many lists they are in", () => {
    const report = buildAccessReport({
      rules: ["01", "02", "03"].map((n) => ({ rule: { ...facts(`00000000-0000-4000-8000-0000000000${n}`, `Rule ${n}`), isEnabled: true }, list: exclusion(entry("7", "same@example.com")) })),
      now: "2026-11-24T00:00:00Z",
      tenantId: "t",
    });
    const data = JSON.parse(/<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(renderReportHtml(report))![1]!) as { rows: number[]; people: unknown[]; n: number[] };
    expect(data.people).toEqual([["7", ["same@example.com"]]]);
    expect(data.n).toEqual([1, 1, 1]);
  });
});
