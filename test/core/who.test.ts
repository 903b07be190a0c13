/**
 * `who` and `rules list` as pure functions of live rules (and the app's declaration): matching by
 * alias (case-insensitive, trimmed) and user ID (exact), across inclusion and exclusion lists.
 */
import type { LiveRule } from "../../src/core/live/who";
import { findPeople, matchesQuery, ruleRows } from "../../src/core/live/who";
import { declared, entry, listOf, user } from "../support/builders";

const rule = (id: string, name: string, overrides: Partial<LiveRule["rule"]> = {}) => ({
  observerRuleId: id,
  name,
  isSystem: false,
  ruleSource: "Alerting",
  isEnabled: true,
  ...overrides,
});

const LIVE: LiveRule[] = [
  { rule: rule("r-inc", "Engineering watch"), list: listOf([entry("u1", "Alice@Example.com", "alice@eng.example.com"), entry("u2", "bob@example.com")]) },
  { rule: rule("r-exc", "Cloud sharing"), list: listOf([entry("u1", "alice@example.com"), entry(null, "ALICE@example.com ")], "ALL_USERS_NOT_SPECIFIED") },
  { rule: rule("r-sys", "Departing", { isSystem: true, ruleSource: "Departing Employee" }), list: null },
];

describe("matchesQuery", () => {
  it.each([
    ["alice@example.com", "u1", ["Alice@Example.com"], true],
    ["  ALICE@EXAMPLE.COM ", "u1", ["alice@example.com"], true],
    ["u1", "u1", ["x@example.com"], true],
    ["U1", "u1", ["x@example.com"], false],
    ["u", "u1", ["x@example.com"], false],
    ["alice", "u1", ["alice@example.com"], false],
    ["", null, [""], false],
  ] as const)("%j against %s %j: %s", (query, userId, aliases, expected) => {
    expect(matchesQuery(query, userId, aliases)).toBe(expected);
  });
});

describe("findPeople", () => {
  it("finds an alias case-insensitively in inclusion and exclusion lists, entries without ID included", () => {
    const matches = findPeople(["ALICE@example.COM"], LIVE);
    expect(matches).toEqual([
      { query: "ALICE@example.COM", ruleId: "r-exc", ruleName: "Cloud sharing", listType: "ALL_USERS_NOT_SPECIFIED", userId: "u1", aliases: ["alice@example.com"] },
      { query: "ALICE@example.COM", ruleId: "r-exc", ruleName: "Cloud sharing", listType: "ALL_USERS_NOT_SPECIFIED", userId: null, aliases: ["ALICE@example.com "] },
      { query: "ALICE@example.COM", ruleId: "r-inc", ruleName: "Engineering watch", listType: "SPECIFIED_USERS", userId: "u1", aliases: ["Alice@Example.com", "alice@eng.example.com"] },
    ]);
  });

  it("finds a user ID exactly, each query in turn", () => {
    const matches = findPeople(["u2", "nobody@example.com", "u1"], LIVE);
    expect(matches.map((m) => `${m.query} ${m.ruleId} ${m.userId ?? "-"}`)).toEqual(["u2 r-inc u2", "u1 r-exc u1", "u1 r-inc u1"]);
  });

  it("with the app's declaration, names the constructs that declare each match and adds declared people not yet live", () => {
    // given the inclusion rule declared by ID with alice, the exclusion rule by name without her,
    // and the legal rule declaring her although its live list does not have her
    const app = [
      declared([user("u1", "alice@example.com")], { ruleId: "r-inc", path: "prod/engineering" }),
      declared([user("u9", "someone@example.com")], { ruleName: "Cloud sharing", path: "prod/cloud-sharing" }),
      declared([user("u1", "alice@example.com")], { ruleId: "r-legal", path: "prod/legal" }),
    ];
    const live: LiveRule[] = [...LIVE, { rule: rule("r-legal", "Legal hold"), list: listOf([entry("u5", "nina@example.com")]) }];

    // when
    const matches = findPeople(["alice@example.com"], live, app);

    // then
    expect(matches.map((m) => [m.ruleId, m.userId, m.declared, m.live])).toEqual([
      ["r-exc", "u1", [], true],
      ["r-exc", null, [], true],
      ["r-inc", "u1", ["prod/engineering"], true],
      ["r-legal", "u1", ["prod/legal"], false],
    ]);
  });
});

describe("ruleRows", () => {
  it("lists every rule by name with its list type and entry count; null for system rules", () => {
    expect(ruleRows(LIVE)).toEqual([
      { ruleId: "r-exc", name: "Cloud sharing", listType: "ALL_USERS_NOT_SPECIFIED", users: 2, isSystem: false, ruleSource: "Alerting", isEnabled: true },
      { ruleId: "r-sys", name: "Departing", listType: null, users: null, isSystem: true, ruleSource: "Departing Employee", isEnabled: true },
      { ruleId: "r-inc", name: "Engineering watch", listType: "SPECIFIED_USERS", users: 2, isSystem: false, ruleSource: "Alerting", isEnabled: true },
    ]);
  });
});
