/**
 * Re-derivation of a saved plan (src/core/engine/rederive.ts) and plan signatures
 * (src/core/engine/plan-signature.ts): pure, no service.
 */
import { buildPlan } from "../../src/core/engine/build-plan";
import type { Plan, RulePlan } from "../../src/core/engine/plan-schema";
import { parsePlan, serializePlan } from "../../src/core/engine/plan-schema";
import { checkPlanSignature, signPlan } from "../../src/core/engine/plan-signature";
import { checkRederived, ruleDifferences } from "../../src/core/engine/rederive";
import { rederiveRule } from "../../src/core/engine/verify";
import { PlanFileError } from "../../src/errors";
import { declared, entry, found, listOf, user } from "../support/builders";

// given a list of 12 users, and a declaration that keeps 11 and adds one, expiring one kept user
const observed = listOf(Array.from({ length: 12 }, (_, i) => entry(`u${i}`, `u${i}@example.com`)));
const desired = declared([
  ...Array.from({ length: 11 }, (_, i) => ({ ...user(`u${i}`, `u${i}@example.com`), ...(i === 3 ? { expiresAt: "2026-01-01" } : {}) })),
  user("new", "new@example.com"),
]);
const plan: Plan = buildPlan({
  declarations: [desired],
  observations: [found(observed)],
  connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t-1" },
  createdAt: "2026-02-01T00:00:00.000Z",
  toolVersion: "test",
});
const rule = plan.rules[0]!;
const withRule = (edited: RulePlan): Plan => ({ ...plan, rules: [edited] });

describe("re-deriving a saved plan from its desired lists and the lists read now", () => {
  it("an unedited plan follows from itself (the expiry marks of removed users included)", () => {
    expect(rule.changes.removeUsers.map((u) => u.reason)).toEqual([undefined, "expired"]);
    expect(ruleDifferences(rule, rederiveRule(rule, observed, plan.options.batchSize))).toEqual([]);
    expect(() => checkRederived(plan, [observed])).not.toThrow();
  });

  it.each<[string, (r: RulePlan) => RulePlan, RegExp]>([
    ["a call dropped", (r) => ({ ...r, calls: r.calls.filter((c) => c.operation !== "remove-users") }), /calls \(file: add-users; derived: add-users, remove-users\)/],
    ["a call added", (r) => ({ ...r, calls: [...r.calls, { operation: "remove-all-users" }] }), /calls \(file: add-users, remove-users, remove-all-users; derived: add-users, remove-users\)/],
    ["users swapped inside a call", (r) => ({ ...r, calls: r.calls.map((c) => (c.operation === "remove-users" ? { ...c, userIdList: ["u0"] } : c)) }), /calls \(file: add-users, remove-users; derived: add-users, remove-users\)/],
    ["the guard's verdict", (r) => ({ ...r, massRemoval: { ...r.massRemoval, triggered: !r.massRemoval.triggered } }), /mass-removal check/],
    ["the changes shown to the reviewer", (r) => ({ ...r, changes: { ...r.changes, addUsers: [] } }), /changes/],
  ])("refuses a plan with %s edited", (_what, edit, says) => {
    const edited = withRule(edit(rule));
    expect(() => checkRederived(edited, [observed])).toThrow(PlanFileError);
    expect(() => checkRederived(edited, [observed])).toThrow(says);
  });

  it("a rule turned into a no-op is told apart, but sends nothing, so there is nothing to refuse", () => {
    const edited = withRule({ ...rule, action: "no-op" });
    expect(ruleDifferences(edited.rules[0]!, rederiveRule(rule, observed, 100))).toContain("action (file: no-op; derived: update)");
    expect(() => checkRederived(edited, [])).not.toThrow();
  });

  it("refuses a plan whose list read now no longer leads to its calls (another tenant's list)", () => {
    const elsewhere = listOf([entry("b1", "b1@example.com")]);
    expect(() => checkRederived(plan, [elsewhere])).toThrow(/stack\/rule-1 \(rule rule-1\): .*calls/);
  });
});

describe("plan signatures", () => {
  const KEY = "0123456789abcdef-test-key";

  it("a signed plan document checks as valid with its key, invalid with another, after any edit, and unsigned without one", () => {
    const signed = parsePlan(serializePlan(plan, KEY), "test");
    expect(checkPlanSignature(signed, KEY)).toBe("valid");
    expect(checkPlanSignature(signed, KEY + "x")).toBe("invalid");
    expect(checkPlanSignature(parsePlan(serializePlan(plan), "test"), KEY)).toBe("unsigned");
    const edited = { ...signed, createdAt: "2026-02-02T00:00:00.000Z" };
    expect(checkPlanSignature(edited, KEY)).toBe("invalid");
  });

  it("the signature covers the plan, not its checksum or signature fields, and the checksum does not change with signing", () => {
    const unsigned = JSON.parse(serializePlan(plan)) as { checksum: string };
    const signed = JSON.parse(serializePlan(plan, KEY)) as { checksum: string; signature: string };
    expect(signed.checksum).toBe(unsigned.checksum);
    expect(signed.signature).toBe(signPlan(plan, KEY));
    expect(signPlan(parsePlan(serializePlan(plan, KEY), "test"), KEY)).toBe(signed.signature);
    expect(serializePlan(plan, KEY)).not.toContain(KEY);
  });
});
