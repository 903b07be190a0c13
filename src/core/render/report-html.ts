/**
 * The access report as one self-contained HTML page (docs/contract.md §10.3). Pure: a string from the
 * report, no I/O.
 *
 * - No network: a Content-Security-Policy meta tag allows nothing but the page's own inline script
 *   and style, each by its sha256 (computed here), so nothing can load or leave.
 * - Without JavaScript it is plain tables: the rules with their counts, and the entries, one row
 *   group per rule, inside <noscript>: every entry up to `noscriptRows` (5,000), beyond that the
 *   first ones and where the rest are (the CSV beside the page).
 * - With JavaScript, the data is compact JSON (each person's user ID and aliases once, however
 *   many lists they are in; each entry five numbers): the script renders search, filters, sorting
 *   and counts per rule from it, building rows only for what it shows. A page of 300 rules ×
 *   1,000 entries is a few MB instead of 40, and opens within the 1 s target (docs/performance.md).
 * - Every value is escaped for HTML, and invisible or bidi characters are shown as \uXXXX.
 */
import { createHash } from "node:crypto";
import type { AccessEntry, AccessReport, RuleAccess } from "../report/access-report";
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

const STATE_CODE = { declared: "d", "not-declared": "n", "not-live": "p", unknown: "u", "not-managed": "m" } as const;
const EXPIRY_CODE = { expired: "x", expiring: "s", none: "-" } as const;
const STATE_TEXT = {
  declared: "declared",
  "not-declared": "not declared",
  "not-live": "not in the live list",
  unknown: "",
  "not-managed": "not managed by this app",
} as const;
/** The states and expiries as the script numbers them (see SCRIPT's STATES and EXPIRY). */
const STATE_INDEX = { declared: 0, "not-declared": 1, "not-live": 2, unknown: 3, "not-managed": 4 } as const;
const EXPIRY_INDEX = { none: 0, expiring: 1, expired: 2 } as const;

/** Most entry rows of the table shown without JavaScript, by default. */
export const NOSCRIPT_ROWS = 5_000;

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
        `<td>${rule.declaredBy.length === 0 ? "not managed by this app" : rule.declaredBy.map(escapeHtml).join("<br>")}</td>` +
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
  /** The CSV written with the page, as a path from the page's directory: named where the table without JavaScript is cut short. */
  readonly csvFile?: string;
  /** Most entry rows in the table shown without JavaScript. @default NOSCRIPT_ROWS */
  readonly noscriptRows?: number;
}

/**
 * The data the script renders, as compact JSON: `people` (user ID and aliases, each person once),
 * `paths` (declared-by lists), `dates`, `viol` (violation lists), `n` (entries per rule, in the
 * order of the rules) and `rows`: five numbers an entry, [person, state × 3 + expiry, paths index,
 * dates index, viol index], -1 for none.
 */
function scriptData(report: AccessReport): unknown {
  const tables = { people: new Map<string, number>(), paths: new Map<string, number>(), dates: new Map<string, number>(), viol: new Map<string, number>() };
  const people: [string | null, string[]][] = [];
  const paths: string[][] = [];
  const dates: string[] = [];
  const viol: string[][] = [];
  const indexOf = <T>(map: Map<string, number>, key: string, list: T[], value: () => T): number => {
    let at = map.get(key);
    if (at === undefined) {
      at = list.push(value()) - 1;
      map.set(key, at);
    }
    return at;
  };
  const counts = new Map<string, number>(report.rules.map((r) => [r.ruleId, 0]));
  const rows: number[] = [];
  for (const e of report.entries) {
    counts.set(e.ruleId, (counts.get(e.ruleId) ?? 0) + 1);
    const person = indexOf(tables.people, `${e.userId ?? "\u0000"}\u0001${e.aliases.join("\u0001")}`, people, () => [e.userId === null ? null : oneLine(e.userId), e.aliases.map(oneLine)]);
    rows.push(
      person,
      STATE_INDEX[e.state] * 3 + EXPIRY_INDEX[e.expiry],
      e.declaredBy.length === 0 ? -1 : indexOf(tables.paths, e.declaredBy.join("\u0001"), paths, () => e.declaredBy.map(oneLine)),
      e.expiresAt === null ? -1 : indexOf(tables.dates, e.expiresAt, dates, () => oneLine(e.expiresAt ?? "")),
      e.violations.length === 0 ? -1 : indexOf(tables.viol, e.violations.join("\u0001"), viol, () => e.violations.map(oneLine)),
    );
  }
  return {
    rules: report.rules.map((r) => ({ n: oneLine(r.ruleName), l: listKind(r.listType) })),
    n: report.rules.map((r) => counts.get(r.ruleId) ?? 0),
    people,
    paths,
    dates,
    viol,
    rows,
  };
}

/**
 * The entries as a table for a reader without JavaScript: one row group per rule, at most
 * `noscriptRows` rows; when cut short, it says how many are left out and where they are.
 */
function noscriptTable(report: AccessReport, options: HtmlRenderOptions): string {
  const limit = options.noscriptRows ?? NOSCRIPT_ROWS;
  const byRule = new Map<string, AccessEntry[]>(report.rules.map((r) => [r.ruleId, []]));
  for (const e of report.entries) byRule.get(e.ruleId)?.push(e);
  let left = limit;
  const groups: string[] = [];
  for (const rule of report.rules) {
    if (left <= 0) break;
    const rows = (byRule.get(rule.ruleId) ?? []).slice(0, left);
    left -= rows.length;
    groups.push(
      `<tbody><tr><th scope="rowgroup" colspan="6">${ruleHeading(rule)}</th></tr>\n` +
        (rows.length === 0 ? `<tr><td colspan="6">No entries.</td></tr>\n` : rows.map(entryRow).join("")) +
        "</tbody>\n",
    );
  }
  const shown = limit - Math.max(left, 0);
  const cut = report.entries.length > shown;
  const where =
    options.csvFile === undefined
      ? "write them all as CSV with <code>report --csv FILE</code>"
      : `all of them are in <code>${escapeHtml(options.csvFile)}</code>, written with this page`;
  const note = cut ? `<p class="note">This table lists the first ${shown.toLocaleString("en-US")} of ${report.entries.length.toLocaleString("en-US")} entries: ${where}; with JavaScript on, the search above finds every entry.</p>` : "";
  return (
    note +
    `<table id="all-table"><caption>Every entry, rule by rule</caption>\n<thead><tr><th scope="col">User ID</th><th scope="col">Aliases</th><th scope="col">State</th><th scope="col">Declared by</th><th scope="col">Expires</th><th scope="col">Policy violations</th></tr></thead>\n` +
    groups.join("") +
    "</table>"
  );
}

/** The page. */
export function renderReportHtml(report: AccessReport, options: HtmlRenderOptions = {}): string {
  const decl = report.withDeclarations;
  const allTable = noscriptTable(report, options);
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
<p>${headerFacts(report).join(" · ")}</p>
${declarationNote(report)}
</header>
<main>
${unresolvedSection(report)}
${searchSection(decl)}
<section aria-labelledby="rules-heading">
<h2 id="rules-heading">Rules</h2>
<table id="rules"><caption>Entries per rule</caption>
<thead>${summaryHead(decl)}</thead>
<tbody>
${report.rules.map((r, i) => summaryRow(r, i, decl)).join("")}</tbody>
</table>
</section>
<section aria-labelledby="entries-heading">
<h2 id="entries-heading">Entries</h2>
<noscript id="all">${allTable}</noscript>
<p id="entries-note" hidden>Every entry is in the table of matches above: clear the search and the filters to list them all${
    options.csvFile === undefined ? "" : `, or open <code>${escapeHtml(options.csvFile)}</code> beside this page`
  }.</p>
</section>
</main>
<footer><p>Made by alert-rule-users${options.toolVersion === undefined ? "" : ` ${escapeHtml(options.toolVersion)}`}${
    options.generatedAt === undefined || options.generatedAt === report.now ? "" : ` at ${escapeHtml(options.generatedAt)}`
  }. One read of each rule's list; nothing was changed.</p></footer>
<script type="application/json" id="report-data">${jsonForScript(scriptData(report))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The header's facts: the tenant, the time, how many rules and entries, the system rules not read. */
function headerFacts(report: AccessReport): string[] {
  return [
    `Tenant <strong>${escapeHtml(report.tenantId)}</strong>`,
    `as of <time>${escapeHtml(report.now)}</time>`,
    plural(report.rules.length, "rule with an editable list", "rules with an editable list"),
    plural(report.entries.length, "entry", "entries"),
    ...(report.systemRules > 0 ? [`${plural(report.systemRules, "system rule")} not read (no editable list)`] : []),
  ];
}

/** What the declarations say (drift, expiry, rules not managed), or that they were not read. */
function declarationNote(report: AccessReport): string {
  if (!report.withDeclarations) {
    return `<p class="note">The app's declarations were not read, so this report does not say who declared each entry. Run <code>alert-rule-users report</code> where the app is (its cdktf.json), or with <code>--app</code>.</p>`;
  }
  const drift = report.entries.filter((e) => e.state === "not-declared" || e.state === "not-live").length;
  const notManaged = report.entries.filter((e) => e.state === "not-managed").length;
  const unmanagedRules = report.rules.filter((r) => !r.managed).length;
  const expiring = report.entries.filter((e) => e.expiry === "expiring").length;
  const expired = report.entries.filter((e) => e.expiry === "expired").length;
  return `<p>Declarations read: <strong>${drift}</strong> drift (not declared, or declared but not in the live list), <strong>${expiring}</strong> expiring within 14 days, <strong>${expired}</strong> expired but still in the list; <strong>${notManaged}</strong> ${notManaged === 1 ? "entry" : "entries"} in ${plural(unmanagedRules, "rule")} not managed by this app (it declares nothing for them: not drift).</p>`;
}

/** The declarations whose rule was not found, when there are any. */
function unresolvedSection(report: AccessReport): string {
  return report.unresolved.length === 0
    ? ""
    : `<h2>Declarations without a rule</h2><ul>${report.unresolved
        .map((u) => `<li><code>${escapeHtml(u.constructPath)}</code> declares ${escapeHtml(u.rule)}: ${escapeHtml(u.reason)}</li>`)
        .join("")}</ul>`;
}

/** The head of the rules table: the declarations' columns when they were read. */
function summaryHead(decl: boolean): string {
  return `<tr><th scope="col">Rule</th><th scope="col">List</th><th scope="col" class="num">Entries</th><th scope="col" class="num shown">Shown</th>${
    decl ? `<th scope="col" class="num">Drift</th><th scope="col" class="num">Expiring</th><th scope="col" class="num">Expired</th><th scope="col">Declared by</th><th scope="col">Policy violations</th>` : ""
  }</tr>`;
}

/** The search (hidden until the page's script shows it): the filters, the matches' table, "Show more". */
function searchSection(decl: boolean): string {
  return `<section aria-labelledby="search-heading" id="app" hidden>
<h2 id="search-heading">Find people</h2>
<form id="filters" role="search">
<p><label for="q">Person (alias or user ID)</label> <input type="search" id="q" autocomplete="off" spellcheck="false"></p>
<p><label for="f-rule">Rule</label> <select id="f-rule"><option value="">every rule</option></select>
<label for="f-type">List</label> <select id="f-type"><option value="">every list type</option><option>inclusion list</option><option>exclusion list</option><option>all users</option></select></p>
<fieldset${decl ? "" : " disabled"}><legend>Only entries that are</legend>
<label><input type="checkbox" id="f-drift"> drift (not declared, or not in the live list)</label>
<label><input type="checkbox" id="f-soon"> expiring within 14 days</label>
<label><input type="checkbox" id="f-expired"> expired</label>
<label><input type="checkbox" id="f-unmanaged"> not managed by this app</label>
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
</section>`;
}
