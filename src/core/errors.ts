import { AlertRuleUsersError } from "../errors";

/** A plan file that cannot be read, is not a plan, is of another format version, or was modified. */
export class PlanFileError extends AlertRuleUsersError {
  constructor(message: string) {
    super("PLAN_FILE", message);
  }
}

/** A saved plan whose observed lists or connection no longer match: nothing was sent. */
export class StalePlanError extends AlertRuleUsersError {
  readonly staleRules: readonly string[];
  constructor(message: string, staleRules: readonly string[]) {
    super("STALE_PLAN", message);
    this.staleRules = staleRules;
  }
}

/** The mass-removal guard refused the plan: nothing was sent. */
export class MassRemovalError extends AlertRuleUsersError {
  constructor(message: string) {
    super("MASS_REMOVAL", message);
  }
}

/** Unknown, ambiguous or duplicated rules in the declaration: nothing was sent. */
export class UnresolvedRulesError extends AlertRuleUsersError {
  constructor(message: string) {
    super("UNRESOLVED_RULES", message);
  }
}
