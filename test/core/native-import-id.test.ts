/**
 * nativeImportIdProblem: an import ID that names no rule as meant (a typo in a prefix, a name
 * without "name:") is refused with the accepted forms, instead of Terraform's "Cannot import
 * non-existent remote object" after a read of a rule that cannot exist.
 */
import { nativeImportIdProblem, parseNativeImportId } from "../../src/core/native/native-provider";

describe("nativeImportIdProblem", () => {
  it.each(["f4570500-47e2-48ad-abbb-28a532759836", "name:Finance file type mismatch watch", "additive:f4570500-47e2-48ad-abbb-28a532759836", "additive:name:Finance: Q3 watch", "  f4570500  "])(
    "accepts %j, which parseNativeImportId reads",
    (id) => {
      expect(nativeImportIdProblem(id)).toBeNull();
      expect(parseNativeImportId(id)).not.toBeNull();
    },
  );

  it.each([
    ["nmae:Finance file type mismatch watch", /starts with "nmae:", which is not a form of this provider's import IDs\. Did you mean "name:"\?/],
    ["additive:nmae:Finance", /starts with "nmae:".*Did you mean "name:"\?/],
    ["addtive:f4570500", /Did you mean "additive:"\?/],
    ["rule:f4570500", /starts with "rule:", which is not a form/],
    ["name:additive:Finance", /"additive:" after "name:": it comes first \(additive:name:Finance\)/],
    ["name:", /"name:" without a rule name/],
    ["", /The import ID is empty/],
    ["Finance file type mismatch watch", /has spaces, which a rule ID never has: to import by the rule's name, write "name:Finance file type mismatch watch"/],
  ])("refuses %j, naming the accepted forms", (id, reason) => {
    const problem = nativeImportIdProblem(id);
    expect(problem).toMatch(reason);
    expect(problem).toContain('Accepted forms: RULE_ID (the rule\'s observerRuleId), "name:" and the rule\'s exact name, and either with "additive:" in front');
  });
});
