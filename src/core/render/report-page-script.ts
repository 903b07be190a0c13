/*
 * The script of the access report's page (src/core/render/report-html.ts), inlined in its <script>
 * and allowed by the page's Content-Security-Policy by its sha256, computed when the page is written.
 */

/**
 * The page's behaviour: indexes the <noscript> table (raw text when scripting is on: the same
 * escaped markup entryRow writes) without parsing it, searches that text (the query escaped the
 * same way, matches kept when they fall in a row's user ID or aliases), filters on each row's
 * data-k, and parses only the rows it shows (or all, to sort). Values are decoded from the five
 * entities escapeHtml writes and shown with textContent only.
 */
export const SCRIPT = `
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
      if (!hit[lo] && m.index + m[0].length <= stateCell(lo)) hit[lo] = 1;
    }
    return hit;
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
