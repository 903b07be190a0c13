/**
 * The words of a declaration in the diff's messages: an unknown or ambiguous rule is explained in
 * the caller's field names, the RuleUserList's props by default, the native resource's attributes
 * when the provider asks (NATIVE_RULE_FIELDS).
 */
import { CONSTRUCT_RULE_FIELDS, NATIVE_RULE_FIELDS, diffRule } from "../../src/core/engine/diff";
import type { DesiredList } from "../../src/core/engine/desired";

const list = (over: Partial<DesiredList>): DesiredList => ({ constructPath: "app/x", stack: "s", ruleId: null, ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [], ...over });

describe("the diff's messages about the rule, in the caller's words", () => {
  it("says 'declare the rule by rule_id' to the provider for an unknown rule_name, with the name a typo meant", () => {
    const plan = diffRule(list({ ruleName: "Finance file type mismatch wach" }), { kind: "not-found", knownNames: ["Finance file type mismatch watch"] }, { batchSize: 100, ruleFields: NATIVE_RULE_FIELDS });
    expect(plan.reason).toBe("no rule is named 'Finance file type mismatch wach' in this tenant (names match exactly, case included): check the name or declare the rule by rule_id. Did you mean 'Finance file type mismatch watch'?");
  });

  it("says rule_name = \"…\" to the provider for a rule name given as rule_id", () => {
    const plan = diffRule(list({ ruleId: "Finance file type mismatch watch" }), { kind: "not-found", knownNames: ["Finance file type mismatch watch"] }, { batchSize: 100, ruleFields: NATIVE_RULE_FIELDS });
    expect(plan.reason).toContain('check the rule_id (the rule\'s observerRuleId) or declare the rule by rule_name. This looks like a rule name (\'Finance file type mismatch watch\'): declare it with rule_name = "Finance file type mismatch watch" instead of rule_id.');
  });

  it("says 'declare this list by rule_id' to the provider for an ambiguous name", () => {
    const plan = diffRule(list({ ruleName: "Twice" }), { kind: "ambiguous", ruleIds: ["a", "b"] }, { batchSize: 100, ruleFields: NATIVE_RULE_FIELDS });
    expect(plan.reason).toBe("2 rules are named 'Twice' (IDs a, b): declare this list by rule_id instead.");
  });

  it("keeps the construct's words by default", () => {
    expect(diffRule(list({ ruleName: "Nope" }), { kind: "not-found" }, { batchSize: 100 }).reason).toContain("declare the rule by ruleId.");
    expect(diffRule(list({ ruleId: "Has spaces" }), { kind: "not-found" }, { batchSize: 100, ruleFields: CONSTRUCT_RULE_FIELDS }).reason).toContain("declare it with ruleName instead of ruleId.");
  });
});
