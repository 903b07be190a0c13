/**
 * The desired state of one rule's user list: what a `RuleUserList` construct declares, what the
 * synthesized JSON (or the provisioner's environment) carries and what the diff takes as input.
 * One type for the whole tool. Plain data, no cdktf.
 */
import type { UserAliases } from "./canonical";
import type { ListPolicy } from "./policy-schema";

/** One RuleUserList's rule: exactly one of `ruleId` and `ruleName` is set. */
export interface RuleReference {
  readonly constructPath: string;
  readonly ruleId: string | null;
  readonly ruleName: string | null;
}

/** The two list modes of docs/contract.md §4. */
export const LIST_MODES = ["authoritative", "additive"] as const;

/**
 * `authoritative`: the rule's list becomes exactly the declaration.
 * `additive`: only missing users and aliases are added; nothing is ever removed.
 */
export type ListMode = (typeof LIST_MODES)[number];

/**
 * One declared user: the user ID (`userIdFromAuthority`), the aliases to alert on and, optionally,
 * the day (`yyyy-MM-dd`, UTC) from which the user is no longer desired (see expiry.ts).
 */
export type DesiredUser = UserAliases & { readonly expiresAt?: string };

/** One declared rule list. Exactly one of `ruleId` and `ruleName` is set. */
export interface DesiredList {
  /** Path of the RuleUserList construct, e.g. `my-stack/exfiltration-watch`. */
  readonly constructPath: string;
  /** Name of the stack that holds it. */
  readonly stack: string;
  /** The rule's observerRuleId; null when the rule is declared by name. */
  readonly ruleId: string | null;
  /** The rule's exact name; null when the rule is declared by ID. */
  readonly ruleName: string | null;
  readonly mode: ListMode;
  readonly allowMassRemoval: boolean;
  /** In canonical order when read from the synthesized JSON (see canonical.ts). */
  readonly users: readonly DesiredUser[];
  /**
   * The RuleUserListPolicy checks that apply to this list (policies declared on a scope above it),
   * as decoded from the synthesized JSON. @default - none
   */
  readonly policies?: readonly ListPolicy[];
  /**
   * The rule declarations of the whole app this list was synthesized in, when the list is applied
   * alone (`apply --from-env`, the Terraform path): another construct there that declares the same
   * rule (by ID or by name, once read) makes this list a duplicate, as in a plan of the whole app.
   * @default - none: plan and apply see every declaration themselves
   */
  readonly declaredElsewhere?: readonly RuleReference[];
}

/** The declaration without its location: what a trigger map or the environment carries. */
export type ListDeclaration = Omit<DesiredList, "constructPath" | "stack" | "policies" | "declaredElsewhere">;

/** A human-readable name of the rule a list declares, for messages. */
export function describeRule(list: Pick<DesiredList, "ruleId" | "ruleName">): string {
  return list.ruleId !== null ? `rule ${list.ruleId}` : `rule named "${list.ruleName ?? ""}"`;
}
