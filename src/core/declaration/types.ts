/**
 * The declared desired state of one rule's user list: what a `RuleUserList` construct writes into
 * the synthesized JSON and what the engine reads back. Plain data, no cdktf.
 */

/** The two list modes of design.md §4. */
export const LIST_MODES = ["authoritative", "additive"] as const;

/**
 * `authoritative`: the rule's list becomes exactly the declaration.
 * `additive`: only missing users and aliases are added; nothing is ever removed.
 */
export type ListMode = (typeof LIST_MODES)[number];

/** One declared user: the user ID (`userIdFromAuthority`) and the aliases to alert on. */
export interface DeclaredUser {
  userId: string;
  aliases: string[];
}

/** How a declaration names its rule: by `observerRuleId`, or by exact rule name. */
export type RuleRef = { kind: "id"; ruleId: string } | { kind: "name"; ruleName: string };

/** One declared rule list, as read from the synthesized JSON (or the provisioner environment). */
export interface DeclaredList {
  /** Path of the RuleUserList construct, e.g. `my-stack/exfiltration-watch`. */
  constructPath: string;
  /** Name of the stack that holds it. */
  stack: string;
  rule: RuleRef;
  mode: ListMode;
  allowMassRemoval: boolean;
  /** Canonical order (see canonical.ts). */
  users: DeclaredUser[];
}

/** A human-readable name of the rule reference, for messages. */
export function describeRuleRef(rule: RuleRef): string {
  return rule.kind === "id" ? `rule ${rule.ruleId}` : `rule named "${rule.ruleName}"`;
}
