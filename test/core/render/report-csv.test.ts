/** The access report as CSV (docs/contract.md §10.3): RFC 4180, one row per entry and alias, no formulas. */
import { buildAccessReport } from "../../../src/core/report/access-report";
import type { DesiredUser } from "../../../src/core/engine/desired";
import { csvField, renderReportCsv } from "../../../src/core/render/report-csv";
import { HOSTILE_ALIASES } from "../../support/hostile-aliases";
import { declared, entry, facts, inclusion, user } from "./builders";

const until = (u: DesiredUser, expiresAt: string): DesiredUser => ({ ...u, expiresAt });
const RULE = "00000000-0000-4000-8000-000000000001";

function csvOf(...entries: ReturnType<typeof entry>[]): string {
  return renderReportCsv(
    buildAccessReport({
      rules: [{ rule: { ...facts(RULE, "Watch, \"prod\""), isEnabled: true }, list: inclusion(...entries) }],
      declared: [declared("watch", RULE, [until(user("1", "alice@example.com"), "2026-12-01")])],
      now: "2026-11-24T00:00:00Z",
      tenantId: "t",
    }),
  );
}

describe("renderReportCsv", () => {
  it("writes a header and one CRLF row per entry and alias, quoting commas and quotes", () => {
    // when
    const csv = csvOf(entry("1", "alice@example.com", "a.n@example.com"), entry(null));

    // then
    expect(csv.split("\r\n")).toEqual([
      "rule_id,rule_name,list_type,user_id,alias,state,declared_by,expires_at,expiry,policy_violations",
      `${RULE},"Watch, ""prod""",SPECIFIED_USERS,1,alice@example.com,declared,stack/watch,2026-12-01,expiring,`,
      `${RULE},"Watch, ""prod""",SPECIFIED_USERS,1,a.n@example.com,declared,stack/watch,2026-12-01,expiring,`,
      `${RULE},"Watch, ""prod""",SPECIFIED_USERS,,,not-declared,,,,`,
      "",
    ]);
  });

  it.each([
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    // a tab or carriage return is written escaped (it would draw on a screen): nothing is left to start a formula
    ["\tx", "\\u0009x"],
    ["\rx", "\\u000dx"],
    ["a=b", "a=b"],
  ])("neutralizes a formula: %j is written %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it("keeps hostile aliases as data: every one a single field, none starting a formula", () => {
    // when
    const csv = csvOf(entry("7", ...HOSTILE_ALIASES));

    // then
    const rows = csv.trimEnd().split("\r\n").filter((r) => r.includes(",SPECIFIED_USERS,7,"));
    expect(rows).toHaveLength(HOSTILE_ALIASES.length);
    expect(rows.some((r) => r.includes(",'=HYPERLINK(\"\"https://evil.example.com\"\",\"\"x\"\")@evil.example.com\"") || r.includes(`"'=HYPERLINK(""https://evil.example.com"",""x"")@evil.example.com"`))).toBe(true);
    expect(rows.some((r) => r.includes(",'@SUM(1+1)@evil.example.com,"))).toBe(true);
    expect(rows.every((r) => !/,[=+\-@]/.test(r.replace(/"[^"]*(?:""[^"]*)*"/g, "q")))).toBe(true);
  });

  it("quotes a field holding a semicolon, so a spreadsheet whose list separator is ';' keeps it one field (issue 31 item 9)", () => {
    expect(csvField("a;=1+1;b@x.com")).toBe('"a;=1+1;b@x.com"');
    expect(csvField("=1+1;b")).toBe(`"'=1+1;b"`);
    expect(csvField("plain@x.com")).toBe("plain@x.com");
  });
});
