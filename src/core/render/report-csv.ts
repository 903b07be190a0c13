/**
 * The access report as CSV for auditors (docs/contract.md §10.3): RFC 4180 (CRLF line ends, a header row,
 * fields with a comma, semicolon, quote or line break quoted, quotes doubled: spreadsheets in
 * locales whose list separator is `;` split fields there, so `a;=1+1` would start a formula), one row per list entry and
 * alias (an entry without aliases has one row with an empty alias). Pure: no I/O.
 *
 * Values are written as read (so an auditor can match them), except that what would draw on a
 * screen (a control character, a line separator, a bidi control: the file is also read with `cat`)
 * is written escaped, `\u001b`, as everywhere else (src/shared/invisible.ts), and that a value a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is
 * prefixed with a single quote (OWASP's advice against CSV injection).
 */
import type { AccessReport } from "../report/access-report";
import { printable } from "./common";

export const REPORT_CSV_HEADER = [
  "rule_id",
  "rule_name",
  "list_type",
  "user_id",
  "alias",
  "state",
  "declared_by",
  "expires_at",
  "expiry",
  "policy_violations",
] as const;

/** A value a spreadsheet opens as text: a leading formula character is neutralized with `'`. */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One RFC 4180 field: printable, then neutralized, then quoted where it must be. */
export function csvField(value: string): string {
  const safe = neutralizeFormula(printable(value));
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(values: readonly string[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** The CSV document. */
export function renderReportCsv(report: AccessReport): string {
  const lines = [csvLine(REPORT_CSV_HEADER)];
  for (const e of report.entries) {
    const rest = [
      e.state === "unknown" ? "" : e.state,
      e.declaredBy.join("; "),
      e.expiresAt ?? "",
      e.expiry === "none" ? "" : e.expiry,
      e.violations.join("; "),
    ];
    for (const alias of e.aliases.length === 0 ? [""] : e.aliases) {
      lines.push(csvLine([e.ruleId, e.ruleName, e.listType, e.userId ?? "", alias, ...rest]));
    }
  }
  return lines.join("");
}
