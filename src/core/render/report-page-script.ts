/*
 * The script of the access report's page (src/core/render/report-html.ts), inlined in its <script>
 * and allowed by the page's Content-Security-Policy by its sha256, computed when the page is written.
 */

/**
 * The page's behaviour: reads the compact JSON of the report (see scriptData), searches the
 * people (each once: user ID and aliases, case-insensitive), filters on each entry's numbers, and
 * builds rows only for the entries it shows. Values are shown with textContent only.
 */
export const SCRIPT = `
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
