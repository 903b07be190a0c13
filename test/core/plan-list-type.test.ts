/**
 * A plan's list type (issue 31 item 8): an update is planned against a list of a known type, so a
 * saved plan whose update says `listType: null` (or `ALL_USERS`) was edited and is refused when it
 * is read; and a read-back saying the rule monitors all users never verifies a rule.
 */
import { parsePlan, serializePlan, type Plan } from "../../src/core/engine/plan-schema";
import { readBackProblem } from "../../src/core/engine/verify";
import { entry, listOf } from "../support/builders";
import { exfiltrationCase, planOf } from "./render/builders";

/** The plan with its first update's listType replaced, saved again (a checksum recomputed, as an editor would). */
function editedListType(listType: unknown): string {
  const plan = planOf(exfiltrationCase());
  const rules = plan.rules.map((rule, i) => (i === plan.rules.findIndex((r) => r.action === "update") ? { ...rule, listType } : rule));
  return serializePlan({ ...plan, rules } as unknown as Plan);
}

describe("the list type of an update in a saved plan", () => {
  it("is required: an update with listType null is refused when the plan is read, naming the field", () => {
    expect(() => parsePlan(editedListType(null), "plan.json")).toThrow(/not a valid plan[\s\S]*must have the list type it was planned against[\s\S]*rules\[0\]\.listType/);
  });

  it("is never ALL_USERS: an update of an all-users rule is never planned", () => {
    expect(() => parsePlan(editedListType("ALL_USERS"), "plan.json")).toThrow(/must have the list type it was planned against/);
  });

  it("as planned reads back", () => {
    expect(() => parsePlan(editedListType("SPECIFIED_USERS"), "plan.json")).not.toThrow();
  });
});

describe("a read-back that says the rule monitors all users", () => {
  const rule = planOf(exfiltrationCase()).rules.find((r) => r.action === "update")!;
  const allUsers = listOf(rule.desired.map((u) => entry(u.userId, ...u.aliases)), "ALL_USERS");

  it("never verifies the rule, even when the plan names no list type", () => {
    expect(readBackProblem({ ...rule, listType: null }, allUsers)).toMatch(/list is of type ALL_USERS, not \(no list type in the plan\) as planned/);
    expect(readBackProblem(rule, allUsers)).toMatch(/cannot be verified/);
  });

  it("the same list of the planned type verifies", () => {
    expect(readBackProblem(rule, listOf(rule.desired.map((u) => entry(u.userId, ...u.aliases)), rule.listType!))).toBeNull();
  });
});
