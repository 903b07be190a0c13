/**
 * The validation of an `alertrules_rule_user_list` configuration: the declaration's checks
 * (rule-user-list-declaration.ts), and the rule it names recorded for the plan's first search
 * (declared-rules.ts). Its own module, without the engine's workflow: Terraform validates every
 * resource in a process of its own before the walk (src/provider/provider.ts builds this half
 * there, and the whole resource only where a call reads or plans).
 */
import type { Diagnostic } from "../protocol";
import type { Validation } from "../framework/resource";
import { stringValue } from "../framework/values";
import type { DeclaredRules } from "./declared-rules";
import { declarationOf } from "./rule-user-list-declaration";
import { ruleUserListModel, type RuleUserListModel } from "./rule-user-list-model";

export class RuleUserListValidation implements Validation<RuleUserListModel> {
  readonly model = ruleUserListModel;

  constructor(private readonly declaredRules: DeclaredRules) {}

  validate(config: RuleUserListModel): Diagnostic[] {
    this.declaredRules.record(stringValue(config.ruleId), stringValue(config.ruleName));
    const declared = declarationOf(config);
    return declared.kind === "invalid" ? declared.diagnostics : [];
  }
}
