/**
 * The access report as one self-contained HTML page (docs/contract.md §10.3). Pure: a string from the
 * report, no I/O.
 *
 * - No network: a Content-Security-Policy meta tag allows nothing but the page's own inline script
 *   and style, each by its sha256 (computed here), so nothing can load or leave.
 * - Without JavaScript it is a plain table: every entry, one row group per rule, inside <noscript>.
 * - With JavaScript, that same table (noscript content is then raw text) is the data: the script
 *   indexes it and renders search, filters, sorting and counts per rule. One copy of the data, and
 *   no parse of rows that are not shown, keep a 300 rules × 1,000 entries page quick to open.
 * - Every value is escaped for HTML, and invisible or bidi characters are shown as \uXXXX.
 */
import { createHash } from "node:crypto";
import type { AccessEntry, AccessReport, RuleAccess } from "../access-report";
import { listKind, oneLine, plural } from "./common";
import { SCRIPT } from "./report-page-script";
import { STYLE } from "./report-page-style";

/** `&`, `<`, `>`, `"` and `'` as entities, after invisible characters are made visible. */
export function escapeHtml(value: string): string {
  return oneLine(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** JSON that is safe inside <script type="application/json">: no `<`, `>` or `&` raw. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const STATE_CODE = { declared: "d", "not-declared": "n", "not-live": "p", unknown: "u" } as const;
const EXPIRY_CODE = { expired: "x", expiring: "s", none: "-" } as const;
const STATE_TEXT = { declared: "declared", "not-declared": "not declared", "not-live": "not in the live list", unknown: "" } as const;

/**
 * One entry row. The script parses exactly this shape (see SCRIPT): `data-k` is state, expiry and
 * whether the entry has a user ID; cells are user ID, aliases, state, declared by, expires,
 * violations; lists inside a cell are separated by <br>; the row ends with </tr> and a newline.
 */
function entryRow(e: AccessEntry): string {
  const key = `${STATE_CODE[e.state]}${EXPIRY_CODE[e.expiry]}${e.userId === null ? "0" : "1"}`;
  const expires = e.expiresAt === null ? "" : escapeHtml(e.expiresAt) + (e.expiry === "none" ? "" : ` (${e.expiry})`);
  return (
    `<tr data-k="${key}"><td>${e.userId === null ? "(no user ID)" : escapeHtml(e.userId)}` +
    `<td>${e.aliases.map(escapeHtml).join("<br>")}` +
    `<td>${STATE_TEXT[e.state]}` +
    `<td>${e.declaredBy.map(escapeHtml).join("<br>")}` +
    `<td>${expires}` +
    `<td>${e.violations.map(escapeHtml).join("<br>")}</tr>\n`
  );
}

function ruleHeading(rule: RuleAccess): string {
  return `${escapeHtml(rule.ruleName)} · ${listKind(rule.listType)} · ${escapeHtml(rule.ruleId)} · ${plural(rule.entries, "entry", "entries")}`;
}

function summaryRow(rule: RuleAccess, index: number, withDeclarations: boolean): string {
  const problems = [...rule.violations, ...(rule.problem === null ? [] : [rule.problem])];
  return (
    `<tr><th scope="row">${escapeHtml(rule.ruleName)}<br><small>${escapeHtml(rule.ruleId)}</small></th>` +
    `<td>${listKind(rule.listType)}</td><td class="num">${rule.entries}</td><td class="num shown" data-r="${index}"></td>` +
    (withDeclarations
      ? `<td class="num">${rule.drift}</td><td class="num">${rule.expiring}</td><td class="num">${rule.expired}</td>` +
        `<td>${rule.declaredBy.length === 0 ? "not declared" : rule.declaredBy.map(escapeHtml).join("<br>")}</td>` +
        `<td>${problems.map(escapeHtml).join("<br>")}</td>`
      : "") +
    "</tr>\n"
  );
}

export interface HtmlRenderOptions {
  /** When the page was made, `yyyy-MM-ddTHH:mm:ssZ` (shown; the report's `now` is the clock of its states). */
  readonly generatedAt?: string;
  /** The tool's version, shown in the footer. */
  readonly toolVersion?: string;
}

/** The page. */
export function renderReportHtml(report: AccessReport, options: HtmlRenderOptions = {}): string {
  const decl = report.withDeclarations;
  const drift = report.entries.filter((e) => e.state === "not-declared" || e.state === "not-live").length;
  const expiring = report.entries.filter((e) => e.expiry === "expiring").length;
  const expired = report.entries.filter((e) => e.expiry === "expired").length;
  const rulesData = report.rules.map((r) => ({ n: oneLine(r.ruleName), l: listKind(r.listType) }));

  const facts = [
    `Tenant <strong>${escapeHtml(report.tenantId)}</strong>`,
    `as of <time>${escapeHtml(report.now)}</time>`,
    plural(report.rules.length, "rule with an editable list", "rules with an editable list"),
    plural(report.entries.length, "entry", "entries"),
    ...(report.systemRules > 0 ? [`${plural(report.systemRules, "system rule")} not read (no editable list)`] : []),
  ];
  const declarationNote = decl
    ? `<p>Declarations read: <strong>${drift}</strong> drift (not declared, or declared but not in the live list), <strong>${expiring}</strong> expiring within 14 days, <strong>${expired}</strong> expired but still in the list.</p>`
    : `<p class="note">The app's declarations were not read, so this report does not say who declared each entry. Run <code>alert-rule-users report</code> where the app is (its cdktf.json), or with <code>--app</code>.</p>`;
  const unresolved =
    report.unresolved.length === 0
      ? ""
      : `<h2>Declarations without a rule</h2><ul>${report.unresolved
          .map((u) => `<li><code>${escapeHtml(u.constructPath)}</code> declares ${escapeHtml(u.rule)}: ${escapeHtml(u.reason)}</li>`)
          .join("")}</ul>`;

  const summaryHead = `<tr><th scope="col">Rule</th><th scope="col">List</th><th scope="col" class="num">Entries</th><th scope="col" class="num shown">Shown</th>${
    decl ? `<th scope="col" class="num">Drift</th><th scope="col" class="num">Expiring</th><th scope="col" class="num">Expired</th><th scope="col">Declared by</th><th scope="col">Policy violations</th>` : ""
  }</tr>`;

  const byRule = new Map<string, AccessEntry[]>(report.rules.map((r) => [r.ruleId, []]));
  for (const e of report.entries) byRule.get(e.ruleId)?.push(e);
  const groups = report.rules.map((rule) => {
    const rows = byRule.get(rule.ruleId) ?? [];
    return (
      `<tbody><tr><th scope="rowgroup" colspan="6">${ruleHeading(rule)}</th></tr>\n` +
      (rows.length === 0 ? `<tr><td colspan="6">No entries.</td></tr>\n` : rows.map(entryRow).join("")) +
      "</tbody>\n"
    );
  });
  const allTable =
    `<table id="all-table"><caption>Every entry, rule by rule</caption>\n<thead><tr><th scope="col">User ID</th><th scope="col">Aliases</th><th scope="col">State</th><th scope="col">Declared by</th><th scope="col">Expires</th><th scope="col">Policy violations</th></tr></thead>\n` +
    groups.join("") +
    "</table>";

  const csp = `default-src 'none'; script-src ${sha256(SCRIPT)}; style-src ${sha256(STYLE)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Access report · ${escapeHtml(report.tenantId)} · ${escapeHtml(report.now)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Who is in which alert rule list</h1>
<p>${facts.join(" · ")}</p>
${declarationNote}
</header>
<main>
${unresolved}
<section aria-labelledby="search-heading" id="app" hidden>
<h2 id="search-heading">Find people</h2>
<form id="filters" role="search">
<p><label for="q">Person (alias or user ID)</label> <input type="search" id="q" autocomplete="off" spellcheck="false"></p>
<p><label for="f-rule">Rule</label> <select id="f-rule"><option value="">every rule</option></select>
<label for="f-type">List</label> <select id="f-type"><option value="">every list type</option><option>inclusion list</option><option>exclusion list</option><option>all users</option></select></p>
<fieldset${decl ? "" : " disabled"}><legend>Only entries that are</legend>
<label><input type="checkbox" id="f-drift"> drift (not declared, or not in the live list)</label>
<label><input type="checkbox" id="f-soon"> expiring within 14 days</label>
<label><input type="checkbox" id="f-expired"> expired</label>
</fieldset>
</form>
<p id="count" role="status" aria-live="polite"></p>
<table id="results">
<caption>Matching entries</caption>
<thead><tr>
<th scope="col" data-key="rule"><button type="button">Rule</button></th>
<th scope="col" data-key="list"><button type="button">List</button></th>
<th scope="col" data-key="id"><button type="button">User ID</button></th>
<th scope="col" data-key="aliases"><button type="button">Aliases</button></th>
<th scope="col" data-key="state"><button type="button">State</button></th>
<th scope="col" data-key="declared"><button type="button">Declared by</button></th>
<th scope="col" data-key="expires"><button type="button">Expires</button></th>
<th scope="col">Policy violations</th>
</tr></thead>
<tbody id="results-body"></tbody>
</table>
<p><button type="button" id="more" hidden>Show more</button></p>
</section>
<section aria-labelledby="rules-heading">
<h2 id="rules-heading">Rules</h2>
<table id="rules"><caption>Entries per rule</caption>
<thead>${summaryHead}</thead>
<tbody>
${report.rules.map((r, i) => summaryRow(r, i, decl)).join("")}</tbody>
</table>
</section>
<section aria-labelledby="entries-heading">
<h2 id="entries-heading">Entries</h2>
<noscript id="all">${allTable}</noscript>
<p id="entries-note" hidden>Every entry is in the table of matches above: clear the search and the filters to list them all.</p>
</section>
</main>
<footer><p>Made by alert-rule-users${options.toolVersion === undefined ? "" : ` ${escapeHtml(options.toolVersion)}`}${
    options.generatedAt === undefined ? "" : ` at ${escapeHtml(options.generatedAt)}`
  }. One read of each rule's list; nothing was changed.</p></footer>
<script type="application/json" id="rules-data">${jsonForScript(rulesData)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
