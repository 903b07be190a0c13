/**
 * RuleUserListPolicy (docs/contract.md §9.1): checks on membership that every RuleUserList under a scope
 * must pass at plan time. Depends on `constructs` only (no cdktf), so the cdktf and the cdktn
 * entries export the same class. The policy writes nothing itself: each RuleUserList writes the
 * policies above it into its resource's `"//"` block at synth (see policiesFor), and `plan`
 * evaluates them purely (src/core/engine/policy.ts).
 */
import { Construct } from "constructs";
import type { IConstruct } from "constructs";
import { encodePolicy, validatePolicyProps } from "../core/engine/policy-schema";
import type { ListPolicy } from "../core/engine/policy-schema";

/** Properties of a {@link RuleUserListPolicy}: set at least one check. */
export interface RuleUserListPolicyProps {
  /**
   * Most users (entries) a list may have after apply: the declared users of an authoritative list;
   * for an additive list, what is there plus what it adds.
   *
   * @default - no limit
   */
  readonly maxUsers?: number;
  /**
   * The only domains an alias may have: the exact domain after `@`, compared case-insensitively
   * (`example.com` does not allow `eu.example.com`). An alias without `@` fails this check.
   *
   * @default - any alias
   */
  readonly allowedAliasDomains?: readonly string[];
  /**
   * Every user of an exclusion list (ALL_USERS_NOT_SPECIFIED: people not monitored) must carry an
   * `expiresAt` no later than `maxDays` days after the plan's `now`.
   *
   * @default - exclusion lists need no expiry
   */
  readonly exclusionListsRequireExpiry?: { readonly maxDays: number };
  /**
   * When true, a plan that removes anything from an inclusion list (SPECIFIED_USERS: people
   * monitored) is refused: users, aliases, entries without a user ID, expired users included.
   *
   * @default false
   */
  readonly forbidRemovalsFromInclusionLists?: boolean;
}

const POLICY_MARK = Symbol.for("alert-rule-users/RuleUserListPolicy");
/**
 * The policies declared directly on a scope, in the order they were created (the order of its
 * children), kept on the scope itself under a global symbol so any copy of this package finds them.
 */
const POLICIES_OF_SCOPE = Symbol.for("alert-rule-users/policies-of-scope");

type ScopeWithPolicies = IConstruct & { [POLICIES_OF_SCOPE]?: RuleUserListPolicy[] };

/** Records `policy` on its scope, so a list finds it by looking at its ancestors only. */
function registerOnScope(scope: IConstruct, policy: RuleUserListPolicy): void {
  const holder = scope as ScopeWithPolicies;
  let policies = holder[POLICIES_OF_SCOPE];
  if (policies === undefined) {
    policies = [];
    Object.defineProperty(holder, POLICIES_OF_SCOPE, { value: policies, enumerable: false });
  }
  policies.push(policy);
}

/**
 * Checks on every {@link RuleUserList} under `scope` (in any stack below it), evaluated by
 * `alert-rule-users plan` and `apply`: a list that fails a check makes its rule an error
 * (`errorKind: "policy"`), the plan exits 1 and apply sends nothing. Invalid props fail synth with
 * the construct path.
 *
 * @example
 * new RuleUserListPolicy(stack, "guardrails", {
 *   maxUsers: 200,
 *   allowedAliasDomains: ["example.com"],
 *   exclusionListsRequireExpiry: { maxDays: 90 },
 *   forbidRemovalsFromInclusionLists: true,
 * });
 */
export class RuleUserListPolicy extends Construct {
  /** Whether `x` is a RuleUserListPolicy (of any copy of this package). */
  static isRuleUserListPolicy(x: unknown): x is RuleUserListPolicy {
    return typeof x === "object" && x !== null && POLICY_MARK in x;
  }

  readonly props: RuleUserListPolicyProps;

  constructor(scope: Construct, id: string, props: RuleUserListPolicyProps) {
    super(scope, id);
    Object.defineProperty(this, POLICY_MARK, { value: true });
    this.props = props;
    registerOnScope(scope, this);
    const failures = validatePolicyProps(props ?? {});
    this.node.addValidation({ validate: () => failures });
  }

  /** The policy as the synthesized JSON carries it. */
  toData(): ListPolicy {
    return encodePolicy(this.node.path, this.props ?? {});
  }
}

/**
 * The policies that apply to a construct: those whose scope (parent) is the construct or one of its
 * ancestors, nearest scope first, each once, wherever they were declared relative to the construct.
 * Looks at the construct's ancestors only (each holds its own policies), never at their other
 * children: linear synth for any number of lists.
 */
export function policiesFor(construct: IConstruct): ListPolicy[] {
  const found: ListPolicy[] = [];
  for (const scope of construct.node.scopes.slice().reverse()) {
    for (const policy of (scope as ScopeWithPolicies)[POLICIES_OF_SCOPE] ?? []) {
      // a policy removed from the tree (node.tryRemoveChild) no longer applies
      if (scope.node.tryFindChild(policy.node.id) === policy) found.push(policy.toData());
    }
  }
  return found;
}
