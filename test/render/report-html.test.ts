/**
 * The access report page (docs/contract.md §10.3) as text: one file whose Content-Security-Policy allows
 * only its own inline script and style by hash, every value escaped. The browser tests
 * (test/browser) open it in chromium.
 */
import { createHash } from "node:crypto";
import { buildAccessReport } from "../../src/core/access-report";
import { renderReportHtml } from "../../src/core/render/report-html";
import { HOSTILE_ALIASES } from "../support/hostile-aliases";
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
    expect(html.match(/<script/g)).toHaveLength(2); // the rules' JSON and the page's script
    expect(html.match(/<\/noscript>/g)).toHaveLength(1);
    const json = /<script type="application\/json" id="rules-data">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual([{ n: "<b>Evil</b> rule \\u202e", l: "exclusion list" }]);
  });

  it("is readable without JavaScript: a table of every entry, one row group per rule", () => {
    const html = page();
    expect(html).toContain(`<th scope="rowgroup" colspan="6">&lt;b&gt;Evil&lt;/b&gt; rule \\u202e · exclusion list · ${RULE} · 2 entries</th>`);
    expect(html).toMatch(/<noscript id="all"><table id="all-table">/);
    const table = /<noscript id="all">([\s\S]*)<\/noscript>/.exec(html)![1]!;
    expect(table.match(/<tr data-k="/g)).toHaveLength(2);
  });
});
