/**
 * The plan: plain, serializable data. Written by `plan`, saved with `--out`, read back by `apply`.
 * The JSON form is documented in docs/plan-format.md; its zod schema is in plan-file.ts.
 */
import type { UsersToAlertOn } from "../api/schemas";

export type ListMode = "authoritative" | "additive";

export interface PlannedUser {
  readonly userId: string;
  readonly aliases: readonly string[];
}

/** One write call, exactly as it will be sent (minus tenantId and ruleId, which the rule carries). */
export type PlannedCall =
  | { readonly operation: "add-users"; readonly userList: readonly PlannedUser[] }
  | { readonly operation: "remove-user-aliases"; readonly userList: readonly PlannedUser[] }
  | { readonly operation: "remove-users"; readonly userIdList: readonly string[] }
  | { readonly operation: "remove-all-users" };

/** An observed entry as the service returned it (userId null when the entry has no usable ID). */
export interface ObservedEntry {
  readonly userId: string | null;
  readonly aliases: readonly string[];
}

export interface RuleChanges {
  /** Users not in the list yet, with all their declared aliases. */
  readonly addUsers: readonly PlannedUser[];
  /** Users already in the list that gain aliases. */
  readonly addAliases: readonly PlannedUser[];
  /** Users that stay but lose aliases. */
  readonly removeAliases: readonly PlannedUser[];
  /** Users removed with all their aliases. */
  readonly removeUsers: readonly PlannedUser[];
  /** Entries without a user ID that a remove-all-users takes away. */
  readonly removeEntriesWithoutId: readonly ObservedEntry[];
  /** The whole list is emptied (remove-all-users), alone or as the first step of a rebuild. */
  readonly removeAll: boolean;
  /** remove-all-users then add-users of the whole declaration (entries without IDs present). */
  readonly rebuild: boolean;
}

export interface MassRemovalCheck {
  /** Entries (user bags) in the observed list. */
  readonly entries: number;
  /** Entries none of whose aliases remains after apply. */
  readonly lost: number;
  /** True when the guard of design.md §5 refuses this rule without --allow-mass-removal. */
  readonly triggered: boolean;
}

export type RuleAction = "update" | "no-op" | "skip" | "error";

/**
 * Errors that block the whole apply (a declaration that cannot be trusted) versus errors that
 * only keep this rule from being applied (the service failed while observing it).
 */
export type RuleErrorKind = "unknown-rule" | "ambiguous-rule" | "duplicate-rule" | "observe-failed";

export interface RulePlan {
  /** The resolved observerRuleId (also for rules declared by name); null when unresolved. */
  readonly ruleId: string | null;
  /** The rule's name as the service reports it, or as declared when unresolved. */
  readonly ruleName: string | null;
  readonly declaredBy: "ruleId" | "ruleName";
  readonly constructPath: string;
  readonly stack: string;
  readonly mode: ListMode;
  readonly action: RuleAction;
  /** Why a rule is skipped or in error; why it is rebuilt; null otherwise. */
  readonly reason: string | null;
  readonly errorKind: RuleErrorKind | null;
  readonly listType: UsersToAlertOn | null;
  readonly allowMassRemoval: boolean;
  /** sha256 of the observed list; apply of a saved plan refuses when it no longer matches. */
  readonly fingerprint: string | null;
  /** The declared list in canonical order: what verify compares the read-back list with. */
  readonly desired: readonly PlannedUser[];
  readonly changes: RuleChanges;
  readonly calls: readonly PlannedCall[];
  readonly massRemoval: MassRemovalCheck;
  readonly warnings: readonly string[];
}

export interface PlanSummary {
  readonly rules: number;
  readonly toUpdate: number;
  readonly noOp: number;
  readonly skipped: number;
  readonly errors: number;
  readonly usersToAdd: number;
  readonly aliasesToAdd: number;
  readonly aliasesToRemove: number;
  readonly usersToRemove: number;
  readonly rebuilds: number;
  readonly removeAll: number;
  readonly calls: number;
  readonly massRemovals: number;
}

export interface Plan {
  readonly formatVersion: 1;
  readonly tool: { readonly name: "alert-rule-users"; readonly version: string };
  readonly createdAt: string;
  /** Where the plan was observed: apply refuses a plan for another service or tenant. */
  readonly connection: { readonly baseUrl: string; readonly tenantId: string };
  readonly options: { readonly batchSize: number };
  readonly rules: readonly RulePlan[];
  readonly summary: PlanSummary;
}

export const PLAN_FORMAT_VERSION = 1 as const;
export const DEFAULT_BATCH_SIZE = 100;
