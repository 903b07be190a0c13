import type { DeclaredList } from "../declaration";
import type { DesiredList } from "./observation";

/** The engine's view of a declaration read from the synthesized JSON or the provisioner environment. */
export function toDesiredList(d: DeclaredList): DesiredList {
  return {
    constructPath: d.constructPath,
    stack: d.stack,
    ruleId: d.rule.kind === "id" ? d.rule.ruleId : null,
    ruleName: d.rule.kind === "name" ? d.rule.ruleName : null,
    mode: d.mode,
    allowMassRemoval: d.allowMassRemoval,
    users: d.users.map((u) => ({ userId: u.userId, aliases: [...u.aliases] })),
  };
}
