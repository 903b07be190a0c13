/** What observe() learned about one declared list: the input of the pure diff, with the declaration. */
import type { UsersToAlertOn } from "../../api/rules/schemas";
import type { ObservedEntry } from "./plan-schema";

/** The rule metadata facts the diff depends on. */
export interface RuleFacts {
  readonly observerRuleId: string;
  readonly name: string;
  readonly isSystem: boolean;
  readonly ruleSource: string;
}

export interface ObservedList {
  readonly usersToAlertOn: UsersToAlertOn;
  /** Entries as returned; `userId` is null for entries without a usable user ID. */
  readonly entries: readonly ObservedEntry[];
}

/** One list read again (query-users): the list, or why it could not be read. */
export type ListRead = { readonly ok: true; readonly list: ObservedList } | { readonly ok: false; readonly message: string };

export type RuleObservation =
  /** `list` is null when the rule was not read because its metadata already says it is skipped. */
  | { readonly kind: "found"; readonly rule: RuleFacts; readonly list: ObservedList | null }
  /** `knownNames`: names of rules the tenant has, to suggest the one a typo meant (may be empty or absent). */
  | { readonly kind: "not-found"; readonly knownNames?: readonly string[] }
  | { readonly kind: "ambiguous"; readonly ruleIds: readonly string[] }
  | { readonly kind: "failed"; readonly rule: RuleFacts | null; readonly message: string };
