/**
 * Which declarations changed since REF (docs/contract.md §10.1), decided on the decoded declarations: one
 * table of a declaration at REF and now, and what changed (nothing: the rule is not read).
 */
import { compareDeclarations } from "../../src/core/engine/changed-declarations";
import type { DeclarationChange } from "../../src/core/engine/changed-declarations";
import { withChangedSince } from "../../src/core/changed-since/changed-since-plan";
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredList, DesiredUser } from "../../src/core/engine/desired";
import type { ListPolicy } from "../../src/core/engine/policy-schema";
import { parsePlan, serializePlan } from "../../src/core/engine/plan-schema";
import { renderPlanMarkdown, renderPlanText } from "../../src/core/render";
import { declared, found, listOf } from "../support/builders";

const alice: DesiredUser = { userId: "1001", aliases: ["alice@example.com"] };
const bob: DesiredUser = { userId: "1002", aliases: ["bob@example.com", "b@example.com"] };
const list = (overrides: Partial<DesiredList> = {}): DesiredList => ({ ...declared([alice, bob], { ruleId: "rule-a" }), ...overrides });
const policy = (checks: Omit<ListPolicy, "path">, path = "stack/guardrails"): ListPolicy => ({ path, ...checks });

interface Row {
  readonly name: string;
  readonly before: DesiredList;
  readonly now: DesiredList;
  /** What changed; [] when the declaration is the same (not read). */
  readonly changes: DeclarationChange[];
}

const ROWS: Row[] = [
  { name: "the same declaration", before: list(), now: list(), changes: [] },
  { name: "users in another order", before: list(), now: list({ users: [bob, alice] }), changes: [] },
  { name: "a user added", before: list(), now: list({ users: [alice, bob, { userId: "1003", aliases: ["c@example.com"] }] }), changes: ["users"] },
  { name: "a user removed", before: list(), now: list({ users: [alice] }), changes: ["users"] },
  { name: "a user replaced by another with the same aliases", before: list(), now: list({ users: [alice, { ...bob, userId: "1009" }] }), changes: ["users"] },
  { name: "an alias added", before: list(), now: list({ users: [alice, { ...bob, aliases: [...bob.aliases, "bobby@example.com"] }] }), changes: ["aliases"] },
  { name: "an alias spelt in another case (what a write sends)", before: list(), now: list({ users: [{ ...alice, aliases: ["Alice@example.com"] }, bob] }), changes: ["aliases"] },
  { name: "aliases in another order", before: list(), now: list({ users: [alice, { ...bob, aliases: [...bob.aliases].reverse() }] }), changes: [] },
  { name: "an expiry set", before: list(), now: list({ users: [{ ...alice, expiresAt: "2027-01-01" }, bob] }), changes: ["expiry"] },
  { name: "an expiry moved", before: list({ users: [{ ...alice, expiresAt: "2027-01-01" }, bob] }), now: list({ users: [{ ...alice, expiresAt: "2027-02-01" }, bob] }), changes: ["expiry"] },
  { name: "an expiry dropped", before: list({ users: [{ ...alice, expiresAt: "2027-01-01" }, bob] }), now: list(), changes: ["expiry"] },
  { name: "mode", before: list(), now: list({ mode: "additive" }), changes: ["mode"] },
  { name: "allowMassRemoval", before: list(), now: list({ allowMassRemoval: true }), changes: ["allowMassRemoval"] },
  { name: "a policy added above the list", before: list(), now: list({ policies: [policy({ maxUsers: 5 })] }), changes: ["policy"] },
  { name: "a policy's check changed", before: list({ policies: [policy({ maxUsers: 5 })] }), now: list({ policies: [policy({ maxUsers: 6 })] }), changes: ["policy"] },
  { name: "a policy removed", before: list({ policies: [policy({ maxUsers: 5 })] }), now: list({ policies: [] }), changes: ["policy"] },
  { name: "a policy renamed or moved, same checks", before: list({ policies: [policy({ maxUsers: 5 })] }), now: list({ policies: [policy({ maxUsers: 5 }, "stack/team/limits")] }), changes: [] },
  { name: "no policies written as [] or left out", before: list({ policies: [] }), now: list(), changes: [] },
  { name: "the construct renamed, same rule and content", before: list(), now: list({ constructPath: "stack/renamed" }), changes: [] },
  { name: "the construct moved to another stack, same rule and content", before: list(), now: list({ stack: "other", constructPath: "other/rule-a" }), changes: [] },
  {
    name: "several at once, in a fixed order",
    before: list(),
    now: list({ mode: "additive", users: [{ ...alice, expiresAt: "2027-01-01" }], policies: [policy({ forbidRemovalsFromInclusionLists: true })] }),
    changes: ["mode", "users", "expiry", "policy"],
  },
];

describe("compareDeclarations: what changed in the declaration of one rule", () => {
  it.each(ROWS)("$name", ({ before, now, changes }) => {
    // when REF's declaration and now's are compared
    const comparison = compareDeclarations([before], [now]);

    // then the rule is read exactly when something changed, with what changed
    expect(comparison.changed.map((c) => c.changes)).toEqual(changes.length === 0 ? [] : [changes]);
    expect(comparison.unchanged).toEqual(changes.length === 0 ? [now] : []);
    expect(comparison.removed).toEqual([]);
  });
});

describe("compareDeclarations: rules added, removed, redeclared", () => {
  it("a list declared only now is added; one declared only at REF is removed", () => {
    // given a at REF only, b now only, c in both
    const a = list({ ruleId: "rule-a", constructPath: "stack/a" });
    const b = list({ ruleId: "rule-b", constructPath: "stack/b" });
    const c = list({ ruleId: "rule-c", constructPath: "stack/c" });

    // when compared
    const comparison = compareDeclarations([a, c], [b, c]);

    // then b is read as added, a is removed (never read), c is not read
    expect(comparison.changed).toEqual([{ list: b, changes: ["added"] }]);
    expect(comparison.removed).toEqual([{ ruleId: "rule-a", ruleName: null, constructPath: "stack/a", stack: "stack" }]);
    expect(comparison.unchanged).toEqual([c]);
  });

  it("a rule declared by ID at REF and by name now is a new reference: the name is added, the ID removed", () => {
    // given the same list declared by ID, then by name
    const byId = list();
    const byName = { ...list(), ruleId: null, ruleName: "Exfiltration watch" };

    // when compared
    const comparison = compareDeclarations([byId], [byName]);

    // then the declaration by name is read; the one by ID is reported removed (until the read shows it is the same rule)
    expect(comparison.changed).toEqual([{ list: byName, changes: ["added"] }]);
    expect(comparison.removed.map((r) => r.ruleId)).toEqual(["rule-a"]);
  });

  it("a rule declared twice now is read, each declaration, so the duplicate error of a full plan shows", () => {
    // given one declaration at REF and the same one twice now
    const one = list({ constructPath: "stack/one" });
    const two = list({ constructPath: "stack/two" });

    // when compared
    const comparison = compareDeclarations([one], [one, two]);

    // then both are read
    expect(comparison.changed).toEqual([
      { list: one, changes: ["duplicate"] },
      { list: two, changes: ["duplicate"] },
    ]);
  });

  it("never modifies its inputs", () => {
    const before = [list({ users: [bob, alice] })];
    const now = [list({ users: [alice] })];
    const copies = JSON.stringify([before, now]);
    compareDeclarations(before, now);
    expect(JSON.stringify([before, now])).toBe(copies);
  });
});

describe("withChangedSince: the plan of the changed rules", () => {
  const CONNECTION = { baseUrl: "http://127.0.0.1:1", tenantId: "t" };
  const planOf = (desired: DesiredList[]) =>
    buildPlan({
      declarations: desired,
      observations: desired.map((d) => found(listOf([]), { observerRuleId: d.ruleId ?? "rule-a", name: "Exfiltration watch" })),
      connection: CONNECTION,
      createdAt: "2026-11-24T08:00:00.000Z",
      toolVersion: "0.0.0-test",
    });

  it("records what was read, how many were not and why; a redeclared rule is not 'no longer managed'", () => {
    // given REF declared rule-a by ID and rule-z; now rule-a by name (resolved to rule-a) and rule-c unchanged
    const byName = { ...list(), ruleId: null, ruleName: "Exfiltration watch" };
    const c = list({ ruleId: "rule-c", constructPath: "stack/c" });
    const z = list({ ruleId: "rule-z", constructPath: "stack/z" });
    const comparison = compareDeclarations([list(), c, z], [byName, c]);

    // when the changed rules are planned and the plan marked
    const plan = withChangedSince(planOf(comparison.changed.map((x) => x.list)), comparison, { ref: "origin/main", commit: "0123456789abcdef" });

    // then
    expect(plan.changedSince).toEqual({
      ref: "origin/main",
      commit: "0123456789abcdef",
      read: [{ constructPath: "stack/rule-a", changes: ["added"] }],
      unread: { count: 1, reason: "unchanged since origin/main; the scheduled drift check reads every rule" },
      noLongerManaged: [{ ruleId: "rule-z", ruleName: null, constructPath: "stack/z", stack: "stack" }],
    });
    // and the saved form keeps it under the checksum, and the renderers say it
    expect(parsePlan(serializePlan(plan), "plan.json").changedSince).toEqual(plan.changedSince);
    const edited = serializePlan(plan).replace('"count": 1', '"count": 0');
    expect(() => parsePlan(edited, "plan.json")).toThrow(/checksum mismatch/);
    for (const out of [renderPlanText(plan, { color: false }), renderPlanMarkdown(plan)]) {
      expect(out).toContain("1 declared rule not read: unchanged since origin/main; the scheduled drift check reads every rule.");
      expect(out).toContain("rule rule-z (stack/z at origin/main): no longer managed");
    }
  });

  it("a full plan has no changedSince and renders as before", () => {
    const plan = planOf([list()]);
    expect(plan.changedSince).toBeUndefined();
    expect(renderPlanText(plan, { color: false })).not.toContain("not read");
  });
});
