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
import type { AccessEntry, AccessReport, RuleAccess } from "../access-report";
import { listKind, oneLine, plural } from "./common";

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
  const drift = report.entries.filter((e) => e.state === "not-declared" || e.state === "not-live").length;
  const notManaged = report.entries.filter((e) => e.state === "not-managed").length;
  const unmanagedRules = report.rules.filter((r) => !r.managed).length;
  const expiring = report.entries.filter((e) => e.expiry === "expiring").length;
  const expired = report.entries.filter((e) => e.expiry === "expired").length;

  const facts = [
    `Tenant <strong>${escapeHtml(report.tenantId)}</strong>`,
    `as of <time>${escapeHtml(report.now)}</time>`,
    plural(report.rules.length, "rule with an editable list", "rules with an editable list"),
    plural(report.entries.length, "entry", "entries"),
    ...(report.systemRules > 0 ? [`${plural(report.systemRules, "system rule")} not read (no editable list)`] : []),
  ];
  const declarationNote = decl
    ? `<p>Declarations read: <strong>${drift}</strong> drift (not declared, or declared but not in the live list), <strong>${expiring}</strong> expiring within 14 days, <strong>${expired}</strong> expired but still in the list; <strong>${notManaged}</strong> ${notManaged === 1 ? "entry" : "entries"} in ${plural(unmanagedRules, "rule")} not managed by this app (it declares nothing for them: not drift).</p>`
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

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4;color:#1b1f24;background:#fff}
body{margin:0 auto;padding:1rem 1.5rem;max-width:110rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%;font-size:.875rem}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border-bottom:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
thead th{background:#f6f8fa;position:sticky;top:0}
th[scope=rowgroup]{background:#eef2f6}
.num{text-align:right;font-variant-numeric:tabular-nums}
small{color:#57606a}
.note{background:#fff8c5;border:1px solid #d4a72c;padding:.4rem .6rem}
form p{margin:.4rem 0}
label{margin-right:.8rem}
input[type=search]{width:22rem;max-width:100%;font:inherit;padding:.25rem .4rem}
select{font:inherit}
fieldset{border:1px solid #d0d7de;margin:.4rem 0;padding:.3rem .6rem}
fieldset label{white-space:nowrap}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit;text-align:left}
th button::after{content:" \\2195";color:#8c959f}
th[aria-sort=ascending] button::after{content:" \\2191";color:inherit}
th[aria-sort=descending] button::after{content:" \\2193";color:inherit}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0969da;outline-offset:2px}
#more{font:inherit;padding:.3rem .8rem}
.st-not-declared,.st-not-live{background:#fff1e5}
.ex-expired{color:#a40e26;font-weight:600}
.ex-expiring{color:#7d4e00;font-weight:600}
.shown{display:none}
.js .shown{display:table-cell}
@media print{
  body{max-width:none;padding:0;font-size:10pt}
  #filters,#more,th button::after{display:none}
  thead th{position:static}
  thead{display:table-header-group}
  tr{break-inside:avoid}
  .st-not-declared,.st-not-live{background:none;font-style:italic}
}
`;

/**
 * The page's behaviour: reads the compact JSON of the report (see scriptData), searches the
 * people (each once: user ID and aliases, case-insensitive), filters on each entry's numbers, and
 * builds rows only for the entries it shows. Values are shown with textContent only.
 */
const SCRIPT = `
(function () {
  "use strict";
  var PAGE = 200;
  var STATES = ["declared", "not declared", "not in the live list", "", "not managed by this app"];
  var STATE_CLASS = ["", "st-not-declared", "st-not-live", "", ""];
  var EXPIRY = ["", "expiring", "expired"];
  function $(id) { return document.getElementById(id); }

  var data = JSON.parse($("report-data").textContent);
  var rules = data.rules, people = data.people, rows = data.rows;
  var N = rows.length / 5;
  var ruleOf = new Int32Array(N);
  for (var r = 0, at = 0; r < data.n.length; r++) for (var c = 0; c < data.n[r]; c++) ruleOf[at++] = r;
  function person(i) { return rows[i * 5]; }
  function state(i) { return (rows[i * 5 + 1] / 3) | 0; }
  function expiry(i) { return rows[i * 5 + 1] % 3; }
  function row(i) {
    var b = i * 5, p = people[rows[b]];
    return {
      r: ruleOf[i], st: state(i), ex: expiry(i), id: p[0], al: p[1],
      dc: rows[b + 2] < 0 ? [] : data.paths[rows[b + 2]],
      exp: rows[b + 3] < 0 ? "" : data.dates[rows[b + 3]],
      v: rows[b + 4] < 0 ? [] : data.viol[rows[b + 4]]
    };
  }
  /** Each person's user ID and aliases in lower case, one line each, built at the first search. */
  var hay = null;
  /** The people whose user ID or an alias contains the needle (case-insensitive), as flags. */
  function found(needle) {
    if (hay === null) hay = people.map(function (p) { return ((p[0] === null ? "" : p[0]) + "\\n" + p[1].join("\\n")).toLowerCase(); });
    var low = needle.toLowerCase(), hit = new Uint8Array(people.length);
    for (var n = 0; n < hay.length; n++) if (hay[n].indexOf(low) >= 0) hit[n] = 1;
    return hit;
  }

  var q = $("q"), fRule = $("f-rule"), fType = $("f-type"), fDrift = $("f-drift"), fSoon = $("f-soon"), fExpired = $("f-expired"), fUnmanaged = $("f-unmanaged");
  for (var i = 0; i < rules.length; i++) {
    var o = document.createElement("option");
    o.value = String(i);
    o.textContent = rules[i].n;
    fRule.appendChild(o);
  }
  var sortKey = "rule", sortDir = 1, order = null, shown = [], limit = PAGE;
  var KEYS = {
    rule: function (x) { return rules[x.r].n.toLowerCase() + "\\u0000" + x.r; },
    list: function (x) { return rules[x.r].l; },
    id: function (x) { return x.id === null ? "\\uffff" : x.id; },
    aliases: function (x) { return x.al.join(", ").toLowerCase(); },
    state: function (x) { return STATES[x.st]; },
    declared: function (x) { return x.dc.length === 0 ? "\\uffff" : x.dc.join(", "); },
    expires: function (x) { return x.exp === "" ? "\\uffff" : x.exp; }
  };
  function sortRows() {
    var f = KEYS[sortKey];
    var keyed = [];
    for (var n = 0; n < N; n++) keyed.push({ k: f(row(n)), n: n });
    keyed.sort(function (a, b) { return a.k < b.k ? -sortDir : a.k > b.k ? sortDir : a.n - b.n; });
    order = keyed.map(function (e) { return e.n; });
    var ths = document.querySelectorAll("#results th[data-key]");
    for (var j = 0; j < ths.length; j++) {
      if (ths[j].getAttribute("data-key") === sortKey) ths[j].setAttribute("aria-sort", sortDir === 1 ? "ascending" : "descending");
      else ths[j].removeAttribute("aria-sort");
    }
  }
  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function multi(tr, values) {
    var td = document.createElement("td");
    for (var n = 0; n < values.length; n++) {
      if (n > 0) td.appendChild(document.createElement("br"));
      td.appendChild(document.createTextNode(values[n]));
    }
    tr.appendChild(td);
  }
  function render() {
    var body = $("results-body");
    var frag = document.createDocumentFragment();
    var end = Math.min(shown.length, limit);
    for (var n = 0; n < end; n++) {
      var x = row(shown[n]);
      var tr = document.createElement("tr");
      if (STATE_CLASS[x.st]) tr.className = STATE_CLASS[x.st];
      cell(tr, rules[x.r].n);
      cell(tr, rules[x.r].l);
      cell(tr, x.id === null ? "(no user ID)" : x.id);
      multi(tr, x.al);
      cell(tr, STATES[x.st]);
      multi(tr, x.dc);
      cell(tr, x.exp + (EXPIRY[x.ex] ? " (" + EXPIRY[x.ex] + ")" : ""), EXPIRY[x.ex] ? "ex-" + EXPIRY[x.ex] : "");
      multi(tr, x.v);
      frag.appendChild(tr);
    }
    body.textContent = "";
    body.appendChild(frag);
    var more = $("more");
    more.hidden = shown.length <= end;
    more.textContent = "Show " + Math.min(PAGE, shown.length - end) + " more (" + (shown.length - end) + " not shown)";
    $("count").textContent = shown.length + (shown.length === 1 ? " entry matches" : " entries match") +
      (shown.length > end ? "; the first " + end + " are listed." : ".");
  }
  function update() {
    var needle = q.value.trim();
    var hit = needle === "" ? null : found(needle);
    var rule = fRule.value === "" ? -1 : Number(fRule.value);
    var type = fType.value;
    var drift = fDrift.checked, soon = fSoon.checked, expired = fExpired.checked, unmanaged = fUnmanaged.checked;
    var counts = rules.map(function () { return 0; });
    shown = [];
    for (var n = 0; n < N; n++) {
      var i = order === null ? n : order[n];
      if (hit !== null && !hit[person(i)]) continue;
      if (rule !== -1 && ruleOf[i] !== rule) continue;
      if (type !== "" && rules[ruleOf[i]].l !== type) continue;
      var st = state(i), ex = expiry(i);
      if ((drift || unmanaged) && !((drift && (st === 1 || st === 2)) || (unmanaged && st === 4))) continue;
      if ((soon || expired) && !((soon && ex === 1) || (expired && ex === 2))) continue;
      shown.push(i);
      counts[ruleOf[i]]++;
    }
    var tds = document.querySelectorAll("#rules td.shown");
    for (var c = 0; c < tds.length; c++) tds[c].textContent = String(counts[Number(tds[c].getAttribute("data-r"))]);
    limit = PAGE;
    render();
  }
  var ths = document.querySelectorAll("#results th[data-key]");
  for (var h = 0; h < ths.length; h++) {
    ths[h].querySelector("button").addEventListener("click", (function (k) {
      return function () {
        sortDir = sortKey === k ? -sortDir : 1;
        sortKey = k;
        sortRows();
        update();
      };
    })(ths[h].getAttribute("data-key")));
  }
  $("more").addEventListener("click", function () { limit += PAGE; render(); });
  $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
  [q, fRule, fType, fDrift, fSoon, fExpired, fUnmanaged].forEach(function (el) { el.addEventListener(el === q ? "input" : "change", update); });
  document.documentElement.className = "js";
  $("app").hidden = false;
  $("entries-note").hidden = false;
  // The rows are in the order of the "Rule" column already: no sort before the first search.
  document.querySelector('#results th[data-key="rule"]').setAttribute("aria-sort", "ascending");
  update();
})();
`;
