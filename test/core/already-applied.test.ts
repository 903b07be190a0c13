/**
 * A saved plan whose lists, read again before its first write, are already as it leaves them
 * (src/core/engine/still-planned.ts, `admitSavedPlanReads`): a re-run of a merge's apply says
 * "already applied" and sends nothing; every other change since the plan is still refused as stale.
 * Pure: the lists read again are given.
 */
import { alreadyAppliedResult } from "../../src/core/engine/apply-results";
import { buildPlan } from "../../src/core/engine/build-plan";
import { fingerprintList } from "../../src/core/engine/fingerprint";
import type { ListRead, ObservedList } from "../../src/core/engine/observation";
import type { Plan } from "../../src/core/engine/plan-schema";
import { admitSavedPlanReads } from "../../src/core/engine/still-planned";
import { PlanFileError, StalePlanError } from "../../src/errors";
import { declared, entry, found, listOf, user } from "../support/builders";

// given two rules: rule-1 gains bob, rule-2 loses carol (both authoritative)
const before1 = listOf([entry("alice", "alice@example.com")]);
const before2 = listOf([entry("dave", "dave@example.com"), entry("carol", "carol@example.com")]);
const plan: Plan = buildPlan({
  declarations: [
    declared([user("alice", "alice@example.com"), user("bob", "bob@example.com")], { ruleId: "rule-1" }),
    declared([user("dave", "dave@example.com")], { ruleId: "rule-2" }),
  ],
  observations: [found(before1, { observerRuleId: "rule-1" }), found(before2, { observerRuleId: "rule-2" })],
  connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t-1" },
  createdAt: "2026-02-01T00:00:00.000Z",
  toolVersion: "test",
});
// the lists as the plan leaves them
const after1 = listOf([entry("alice", "alice@example.com"), entry("bob", "bob@example.com")]);
const after2 = listOf([entry("dave", "dave@example.com")]);

const read = (list: ObservedList): ListRead => ({ ok: true, list });

describe("a saved plan read again right before its first write", () => {
  it("the lists it read: still planned (its calls are sent)", () => {
    expect(plan.rules.map((r) => r.action)).toEqual(["update", "update"]);
    expect(admitSavedPlanReads(plan, [read(before1), read(before2)])).toBe("still-planned");
  });

  it("every list already as it leaves them (its apply ran before): already applied, nothing to send", () => {
    expect(admitSavedPlanReads(plan, [read(after1), read(after2)])).toBe("already-applied");
    // the same entries in another order, an alias in another case: still what it leaves
    const reordered = listOf([entry("bob", "BOB@example.com"), entry("alice", "alice@example.com")]);
    expect(admitSavedPlanReads(plan, [read(reordered), read(after2)])).toBe("already-applied");
  });

  it("the result of an already applied plan: nothing sent, each rule it changes read and matched, ok", () => {
    const result = alreadyAppliedResult(plan);
    expect(result.ok).toBe(true);
    expect(result.rules.map((r) => [r.outcome, r.calls.length, r.verified])).toEqual([
      ["unchanged", 0, true],
      ["unchanged", 0, true],
    ]);
    expect(result.summary).toMatchObject({ applied: 0, unchanged: 2, failed: 0 });
  });

  it.each<[string, ListRead[]]>([
    ["one list applied, the other still as it was read (an apply cut short)", [read(after1), read(before2)]],
    ["one list applied, the other changed otherwise", [read(after1), read(listOf([entry("dave", "dave@example.com"), entry("eve", "eve@example.com")]))]],
    ["a list changed otherwise (a user added in the console)", [read(listOf([...after1.entries, entry("mallory", "mallory@example.com")])), read(after2)]],
    ["a list as it leaves it, but now of the other list type", [read(listOf([...after1.entries], "ALL_USERS_NOT_SPECIFIED")), read(after2)]],
    ["a list that could not be read", [read(after1), { ok: false, message: "HTTP 503" }]],
  ])("refused as stale, nothing sent: %s", (_case, reads) => {
    expect(() => admitSavedPlanReads(plan, reads)).toThrow(StalePlanError);
  });

  it("a stale refusal names the rules already as the plan leaves them, apart from those that changed otherwise", () => {
    const refusal = (() => {
      try {
        admitSavedPlanReads(plan, [read(after1), read(listOf([entry("eve", "eve@example.com")]))]);
      } catch (err) {
        return err as StalePlanError;
      }
      throw new Error("not refused");
    })();
    expect(refusal.message).toMatch(/stale/);
    expect(refusal.staleRules).toEqual(["stack/rule-1 (rule rule-1): already as this plan leaves it (an earlier apply of it was cut short?)", "stack/rule-2 (rule rule-2)"]);
  });

  it("an edited plan is refused even when the lists match what it leaves (its calls do not follow from what it read)", () => {
    // the file says rule-1's list was already after1 when planned (fingerprint), yet it still sends add-users
    const edited: Plan = { ...plan, rules: [{ ...plan.rules[0]!, fingerprint: fingerprintList(after1) }] };
    expect(() => admitSavedPlanReads(edited, [read(after1)])).toThrow(PlanFileError);
  });

  it("a plan that changes nothing is still planned (there is nothing to send either way)", () => {
    const empty: Plan = { ...plan, rules: [] };
    expect(admitSavedPlanReads(empty, [])).toBe("still-planned");
  });
});
