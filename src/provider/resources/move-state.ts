/**
 * The resource's MoveResourceState: a `moved` block from the `terraform_data` or `null_resource`
 * that a RuleUserList wrote (its provisioner ran the CLI) onto `alertrules_rule_user_list`, with
 * zero writes. The state is made from the declaration the source's triggers carry (no request);
 * Terraform's refresh then reads the live list through it, so the first plan after the move shows
 * what is live against what is declared, as any plan does.
 *
 *   moved {
 *     from = terraform_data.exfiltration-watch_resource_DD269330
 *     to   = alertrules_rule_user_list.exfiltration-watch_resource_DD269330
 *   }
 */
import { declarationOfProvisionerState } from "../../core/declaration/provisioner-state";
import type { Diagnostic, MoveRequest, ObjectValue, Value } from "../protocol";
import type { StateAnswer } from "../framework/resource";
import { typedLiteral } from "../framework/dynamic";
import { EMPTY_RULE_USER_LIST, ruleUserListModel, type RuleUserListModel } from "./rule-user-list-model";
import { usersValue } from "./rule-user-list-values";

/** The providers whose resources a RuleUserList writes: Terraform's built-in one (terraform_data) and hashicorp/null. */
const SOURCE_PROVIDERS: Record<string, RegExp> = {
  terraform_data: /^(registry\.terraform\.io\/)?(terraform\.io\/builtin\/terraform|hashicorp\/terraform)$|builtin\/terraform$/,
  null_resource: /(^|\/)hashicorp\/null$/,
};

/** The resource's model of a provisioner resource's state, or the error diagnostic that says why it cannot move. */
function movedModel(request: Pick<MoveRequest, "sourceProvider" | "sourceType" | "sourceState">): { state: RuleUserListModel } | { error: Diagnostic } {
  const fail = (detail: string): { error: Diagnostic } => ({ error: { severity: "error", summary: "Cannot move this resource into alertrules_rule_user_list", detail } });
  const provider = SOURCE_PROVIDERS[request.sourceType];
  if (provider !== undefined && !provider.test(request.sourceProvider)) {
    return fail(`${request.sourceType} of provider ${request.sourceProvider} is not the ${request.sourceType} a RuleUserList writes; import the list instead (terraform import, or an import block).`);
  }
  const read = declarationOfProvisionerState(request.sourceType, request.sourceState);
  if (!read.ok) return fail(read.reason);
  const { declaration, policies } = read;
  return {
    state: {
      // every attribute and block null but what the declaration says
      ...EMPTY_RULE_USER_LIST,
      // the rule as the declaration names it; Terraform's refresh right after the move resolves it and fills id
      id: declaration.ruleId ?? `name:${declaration.ruleName ?? ""}`,
      ruleId: declaration.ruleId,
      ruleName: declaration.ruleName,
      mode: declaration.mode,
      users: usersValue(declaration.users),
      allowMassRemoval: declaration.allowMassRemoval,
      onDestroy: "keep",
      // as the configuration writes them (the construct's own encoding): the move shows no change of policies
      policies: policies === null ? null : typedLiteral(policies as Value),
      expiredUserIds: [],
      entriesWithoutUserId: [],
    },
  };
}

/** The resource's state of a provisioner resource's state (encoded), or the error diagnostic that says why it cannot move. */
export function movedState(request: Pick<MoveRequest, "sourceProvider" | "sourceType" | "sourceState">): { state: ObjectValue } | { error: Diagnostic } {
  const moved = movedModel(request);
  return "state" in moved ? { state: ruleUserListModel.encode(moved.state) } : moved;
}

/** The resource's `move`: no request, nothing written. */
export function moveResourceState(request: MoveRequest): Promise<StateAnswer<RuleUserListModel>> {
  const moved = movedModel(request);
  return Promise.resolve("state" in moved ? { state: moved.state } : { state: null, diagnostics: [moved.error] });
}
