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
 * The page's behaviour: indexes the <noscript> table (raw text when scripting is on: the same
 * escaped markup entryRow writes) without parsing it, searches that text (the query escaped the
 * same way, matches kept when they fall in a row's user ID or aliases and begin in a cell's text,
 * never in a tag or an entity around it), filters on each row's
 * data-k, and parses only the rows it shows (or all, to sort). Values are decoded from the five
 * entities escapeHtml writes and shown with textContent only.
 */
const SCRIPT = `
(function () {
  "use strict";
  var PAGE = 200;
  var MARK = '<tr data-k="';
  var STATES = { d: "declared", n: "not declared", p: "not in the live list", u: "" };
  var STATE_CLASS = { d: "", n: "st-not-declared", p: "st-not-live", u: "" };
  var EXPIRY = { x: "expired", s: "expiring", "-": "" };
  var ENT = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
  var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  function dec(s) { return s.indexOf("&") < 0 ? s : s.replace(/&(?:amp|lt|gt|quot|#39);/g, function (e) { return ENT[e]; }); }
  function list(s) { return s === "" ? [] : s.split("<br>").map(dec); }
  function $(id) { return document.getElementById(id); }

  // The rows are indexed, not parsed: where each starts in the text, and its rule. A row is parsed
  // when it is shown or sorted; a search runs over the text itself.
  var rules = JSON.parse($("rules-data").textContent);
  var src = $("all").textContent;
  var starts = [], ruleOf = [], bodies = [];
  for (var b = src.indexOf("<tbody>"); b >= 0; b = src.indexOf("<tbody>", b + 7)) bodies.push(b);
  var r = -1, next = 0;
  for (var at = src.indexOf(MARK); at >= 0; at = src.indexOf(MARK, at + MARK.length)) {
    while (next < bodies.length && bodies[next] < at) r = next++;
    starts.push(at + MARK.length);
    ruleOf.push(r);
  }
  var N = starts.length, parsed = new Array(N);
  function key(i, n) { return src.charAt(starts[i] + n); }
  /** Where the state cell of row i begins: the user ID and aliases cells are before it. */
  function stateCell(i) {
    var c = src.indexOf("<td>", starts[i] + 9);
    return src.indexOf("<td>", c + 4);
  }
  function row(i) {
    if (parsed[i] === undefined) {
      var from = starts[i];
      var cells = src.slice(from + 9, src.indexOf("</tr>", from)).split("<td>");
      var id = key(i, 2) === "1" ? dec(cells[0]) : null;
      parsed[i] = { r: ruleOf[i], st: key(i, 0), ex: key(i, 1), id: id, al: list(cells[1]), dc: list(cells[3]), exp: dec(cells[4]).slice(0, 10), v: list(cells[5]) };
    }
    return parsed[i];
  }
  /** The rows whose user ID or an alias contains the needle (case-insensitive), as flags. */
  function found(needle) {
    var hit = new Uint8Array(N);
    var escaped = needle.replace(/[&<>"']/g, function (c) { return ESC[c]; }).replace(/[.*+?^$|{}()[\\]\\\\\\/]/g, "\\\\$&");
    var re = new RegExp(escaped, "gi");
    var m, lo, hi, mid;
    while ((m = re.exec(src)) !== null) {
      lo = 0; hi = N - 1;
      if (N === 0 || starts[0] > m.index) continue;
      while (lo < hi) { mid = (lo + hi + 1) >> 1; if (starts[mid] <= m.index) lo = mid; else hi = mid - 1; }
      if (!hit[lo] && m.index + m[0].length <= stateCell(lo) && inText(m.index)) hit[lo] = 1;
    }
    return hit;
  }
  /**
   * True when a match at \`at\` begins in the text of a cell, not inside the markup around it: a
   * tag (\`<td>\`, \`<br>\`) or an entity (\`&amp;\`): "td", "br" or "amp" match no row by it.
   */
  function inText(at) {
    if (src.lastIndexOf("<", at) > src.lastIndexOf(">", at - 1)) return false;
    var amp = src.lastIndexOf("&", at - 1);
    if (amp >= 0 && at - amp <= 5) {
      var semi = src.indexOf(";", amp);
      if (semi >= at && ENT[src.slice(amp, semi + 1)] !== undefined) return false;
    }
    return true;
  }

  var q = $("q"), fRule = $("f-rule"), fType = $("f-type"), fDrift = $("f-drift"), fSoon = $("f-soon"), fExpired = $("f-expired");
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
    var drift = fDrift.checked, soon = fSoon.checked, expired = fExpired.checked;
    var counts = rules.map(function () { return 0; });
    shown = [];
    for (var n = 0; n < N; n++) {
      var i = order === null ? n : order[n];
      if (hit !== null && !hit[i]) continue;
      if (rule !== -1 && ruleOf[i] !== rule) continue;
      if (type !== "" && rules[ruleOf[i]].l !== type) continue;
      if (drift && key(i, 0) !== "n" && key(i, 0) !== "p") continue;
      if ((soon || expired) && !((soon && key(i, 1) === "s") || (expired && key(i, 1) === "x"))) continue;
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
  [q, fRule, fType, fDrift, fSoon, fExpired].forEach(function (el) { el.addEventListener(el === q ? "input" : "change", update); });
  document.documentElement.className = "js";
  $("app").hidden = false;
  $("entries-note").hidden = false;
  // The rows are in the order of the "Rule" column already: no sort before the first search.
  document.querySelector('#results th[data-key="rule"]').setAttribute("aria-sort", "ascending");
  update();
})();
`;
