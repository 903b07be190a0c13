/**
 * The access report's join (docs/contract.md §10.3): every live entry with who declares it, drift both
 * ways, expiry as of `now`, and the plan's own policy violations. Pure: no service.
 */
import { buildAccessReport, isDrift, isNotManaged } from "../../src/core/report/access-report";
import type { DesiredUser } from "../../src/core/engine/desired";
import type { LiveRule } from "../../src/core/live/who";
import { declared, entry, exclusion, facts, inclusion, user } from "./render/builders";

const until = (u: DesiredUser, expiresAt: string): DesiredUser => ({ ...u, expiresAt });
const NOW = "2026-11-24T08:00:00Z";
const EXC = "00000000-0000-4000-8000-00000000000e";
const INC = "00000000-0000-4000-8000-00000000000i";

function live(ruleId: string, name: string, list: LiveRule["list"]): LiveRule {
  return { rule: { ...facts(ruleId, name), isEnabled: true }, list };
}

const rules: LiveRule[] = [
  live(INC, "Watch", inclusion(entry("1", "alice@example.com"), entry(null, "Intern@Example.com"))),
  live(EXC, "Exceptions", exclusion(entry("2", "bob@example.com"), entry("3", "carol@example.com"), entry("4", "dan@example.com"), entry("9", "console@example.com"))),
  live("sys", "Departing", null),
];

describe("buildAccessReport", () => {
  it("without declarations lists every live entry, rules by name, with an unknown state", () => {
    // when
    const report = buildAccessReport({ rules, now: NOW, tenantId: "t" });

    // then
    expect(report.withDeclarations).toBe(false);
    expect(report.systemRules).toBe(1);
    expect(report.rules.map((r) => r.ruleName)).toEqual(["Exceptions", "Watch"]);
    expect(report.entries.map((e) => [e.ruleName, e.userId, e.state, e.expiry])).toEqual([
      ["Exceptions", "2", "unknown", "none"],
      ["Exceptions", "3", "unknown", "none"],
      ["Exceptions", "4", "unknown", "none"],
      ["Exceptions", "9", "unknown", "none"],
      ["Watch", "1", "unknown", "none"],
      ["Watch", null, "unknown", "none"],
    ]);
  });

  it("counts the entries of a rule the app declares nothing for as not managed by this app, not as drift (issue 32)", () => {
    // given declarations for the exclusion list only
    const decl = [declared("exceptions", EXC, [user("2", "bob@example.com")])];

    // when
    const report = buildAccessReport({ rules, declared: decl, now: NOW, tenantId: "t" });

    // then the Watch rule is not managed, and none of its entries is drift
    const byName = new Map(report.rules.map((r) => [r.ruleName, r]));
    expect(byName.get("Watch")).toMatchObject({ managed: false, drift: 0, entries: 2 });
    expect(byName.get("Exceptions")).toMatchObject({ managed: true, drift: 3 });
    expect(report.entries.filter((e) => e.ruleName === "Watch").map((e) => e.state)).toEqual(["not-managed", "not-managed"]);
    expect(report.entries.filter((e) => e.ruleName === "Exceptions").map((e) => e.state)).toEqual(["declared", "not-declared", "not-declared", "not-declared"]);
    expect(report.entries.filter(isDrift)).toHaveLength(3);
    expect(report.entries.filter(isNotManaged)).toHaveLength(2);
  });

  it("says who declares each entry, which are drift, and which expire, as of now", () => {
    // given bob expires in 10 days, carol expired yesterday (still live), dan is declared nowhere
    // and erin is declared but not live; an expired, absent frank is rightly gone
    const decl = [
      declared("exceptions", EXC, [
        until(user("2", "bob@example.com"), "2026-12-04"),
        until(user("3", "carol@example.com"), "2026-11-23"),
        user("5", "erin@example.com"),
        until(user("6", "frank@example.com"), "2026-11-01"),
        until(user("9", "console@example.com"), "2027-06-01"),
      ]),
      declared("watch", INC, [user("1", "ALICE@example.com"), user("7", "intern@example.com")]),
    ];

    // when
    const report = buildAccessReport({ rules, declared: decl, now: NOW, tenantId: "t" });

    // then
    expect(report.entries.map((e) => [e.userId, e.state, e.declaredBy.join(), e.expiresAt, e.expiry])).toEqual([
      ["2", "declared", "stack/exceptions", "2026-12-04", "expiring"],
      ["3", "declared", "stack/exceptions", "2026-11-23", "expired"],
      ["4", "not-declared", "", null, "none"],
      ["5", "not-live", "stack/exceptions", null, "none"],
      ["9", "declared", "stack/exceptions", "2027-06-01", "none"],
      ["1", "declared", "stack/watch", null, "none"],
      [null, "declared", "stack/watch", null, "none"],
    ]);
    expect(report.rules.map((r) => [r.ruleName, r.entries, r.drift, r.expiring, r.expired])).toEqual([
      ["Exceptions", 5, 2, 1, 1],
      ["Watch", 2, 0, 0, 0],
    ]);
  });

  it("carries the plan's policy violations: per user on the entry, every one on the rule", () => {
    // given exceptions must expire within 30 days
    const decl = [
      declared("exceptions", EXC, [until(user("2", "bob@example.com"), "2026-12-04"), user("3", "carol@example.com")], {
        policies: [{ path: "stack/guardrails", exclusionListsRequireExpiry: { maxDays: 30 } }],
      }),
    ];

    // when
    const report = buildAccessReport({ rules, declared: decl, now: NOW, tenantId: "t" });

    // then
    const carol = report.entries.find((e) => e.userId === "3")!;
    expect(carol.violations).toEqual(["exclusionListsRequireExpiry (policy stack/guardrails)"]);
    expect(report.entries.find((e) => e.userId === "2")!.violations).toEqual([]);
    expect(report.rules.find((r) => r.ruleId === EXC)!.violations).toEqual([expect.stringMatching(/^policy stack\/guardrails: exclusionListsRequireExpiry \(maxDays 30\).*3 \(no expiresAt\)/)]);
  });

  it("names declarations whose rule is not in the tenant", () => {
    const report = buildAccessReport({ rules, declared: [declared("gone", "no-such-rule", [user("1", "a@example.com")])], now: NOW, tenantId: "t" });
    expect(report.unresolved).toEqual([{ constructPath: "stack/gone", rule: "rule no-such-rule", reason: "no such rule in the tenant" }]);
  });
});
