import { Aspects, TerraformProvider, TerraformStack, Token } from "cdktf";
import type { IAspect } from "cdktf";
import { Construct } from "constructs";
import type { IConstruct } from "constructs";
import { NullProvider } from "@cdktf/provider-null/lib/provider";
import { Resource } from "@cdktf/provider-null/lib/resource";
import {
  DEFAULT_CLI_COMMAND,
  RESOURCE_CHILD_ID,
  encodeTriggerFields,
  provisionerCommand,
  provisionerEnvironment,
  validateDeclaration,
} from "../core/declaration";
import { canonicalUsers } from "../core/canonical";
import { POLICIES_KEY } from "../core/policy-schema";
import { policiesFor } from "./rule-user-list-policy";
import { PEER_RANGES, compatibleScope } from "./compat";
import type { Framework } from "./compat";
import type { DesiredUser, ListMode } from "../core/desired";

/** One user of a {@link RuleUserList}. */
export interface RuleUserListUser {
  /** The user's ID (`userIdFromAuthority`): non-empty, no whitespace, once per list. */
  readonly userId: string;
  /**
   * The user's email addresses and cloud aliases: at least one, none empty. Aliases compare
   * case-insensitively and trimmed (so each may appear once per list); the spelling given here is
   * what gets sent.
   */
  readonly aliases: readonly string[];
  /**
   * The day (`yyyy-MM-dd`, UTC) from which the user is no longer desired: from that day on, plan and
   * apply remove the user from an authoritative list and stop adding them to an additive one (the
   * plan says "expired on …"). For exceptions that should lapse by themselves, e.g. a user exempted
   * from an exclusion rule for a project.
   *
   * @default - the user never expires
   */
  readonly expiresAt?: string;
}

/** Properties of a {@link RuleUserList}. Set exactly one of `ruleId` and `ruleName`. */
export interface RuleUserListProps {
  /**
   * The rule's `observerRuleId`.
   *
   * @default - the rule is found by `ruleName`
   */
  readonly ruleId?: string;
  /**
   * The rule's exact name; resolved when planning (zero or several matches are a plan error).
   *
   * @default - the rule is identified by `ruleId`
   */
  readonly ruleName?: string;
  /**
   * `"authoritative"`: the rule's list becomes exactly `users` (users and aliases not declared are
   * removed). `"additive"`: missing users and aliases are added, nothing is ever removed.
   *
   * @default "authoritative"
   */
  readonly mode?: ListMode;
  /**
   * Lets `terraform apply` (the provisioner) pass the mass-removal guard for this rule: losing
   * every entry of the list, or more than half of a list of 10 or more.
   *
   * @default false - such an apply is refused and nothing is sent
   */
  readonly allowMassRemoval?: boolean;
  /** The desired users; an empty array declares an empty list. */
  readonly users: readonly RuleUserListUser[];
  /**
   * How the `local-exec` provisioner invokes the CLI; it runs
   * `<cliCommand> apply --from-env --auto-approve` in Terraform's working directory, with the
   * connection settings (`ALERTS_API_URL`, `ALERTS_API_TOKEN`, `ALERTS_TENANT_ID`) inherited from
   * the environment of `terraform apply`.
   *
   * @default "npx --no -- alert-rule-users" - the CLI installed in the project (`--` keeps npx from taking the CLI's flags as its own)
   */
  readonly cliCommand?: string;
}

/** cdktf as this entry loads it, for the check that the app shares its copies (compat.ts). */
const CDKTF: Framework = { packageName: "cdktf", range: PEER_RANGES.cdktf, stackClass: TerraformStack, isStack: (x) => TerraformStack.isStack(x) };

/** The id of the `null` provider a RuleUserList adds to a stack that has none. */
const PROVIDER_ID = "alert-rule-users-null";
const DEDUPE_MARK = Symbol.for("alert-rule-users/null-provider-dedupe");

function isNullProvider(construct: IConstruct): boolean {
  return TerraformProvider.isTerraformProvider(construct) && construct.terraformResourceType === NullProvider.tfResourceType;
}

/**
 * Removes the `null` provider a RuleUserList added when the stack gained its own afterwards (two
 * default provider blocks are a Terraform error). Runs at synth, before the stack is rendered.
 */
class NullProviderDedupe implements IAspect {
  constructor(private readonly stack: TerraformStack) {}

  visit(node: IConstruct): void {
    if (node !== this.stack) return;
    const ours = this.stack.node.tryFindChild(PROVIDER_ID);
    if (ours === undefined) return;
    if (this.stack.node.findAll().some((c) => c !== ours && isNullProvider(c))) {
      this.stack.node.tryRemoveChild(PROVIDER_ID);
    }
  }
}

/**
 * Writes the RuleUserListPolicy checks that apply to a list into its resource's `"//"` block (which
 * Terraform ignores), at synth, when the whole tree is built. Lists without policies are untouched.
 */
class PolicyWriter implements IAspect {
  constructor(private readonly list: RuleUserList) {}

  visit(node: IConstruct): void {
    if (node !== this.list) return;
    const policies = policiesFor(this.list);
    if (policies.length > 0) this.list.resource.addOverride(`//.${POLICIES_KEY}`, policies);
  }
}

function ensureNullProvider(stack: TerraformStack): void {
  if (!stack.node.findAll().some(isNullProvider)) {
    new NullProvider(stack, PROVIDER_ID);
  }
  if (!(DEDUPE_MARK in stack)) {
    Object.defineProperty(stack, DEDUPE_MARK, { value: true });
    Aspects.of(stack).add(new NullProviderDedupe(stack));
  }
}

/** Failures for values only known at apply time: plan reads the synthesized JSON as written. */
function tokenFailures(props: RuleUserListProps): string[] {
  const literal = (field: string, value: unknown): string[] =>
    typeof value === "string" && Token.isUnresolved(value)
      ? [`${field}: is an unresolved token (a Terraform reference or variable); use a literal value, plan reads the declaration from the synthesized JSON`]
      : [];
  const users: readonly Partial<RuleUserListUser>[] = Array.isArray(props.users) ? props.users : [];
  return [
    ...literal("ruleId", props.ruleId),
    ...literal("ruleName", props.ruleName),
    ...literal("cliCommand", props.cliCommand),
    ...users.flatMap((user, i) => [
      ...literal(`users[${i}].userId`, user?.userId),
      ...literal(`users[${i}].expiresAt`, user?.expiresAt),
      ...((Array.isArray(user?.aliases) ? user.aliases : []) as readonly unknown[]).flatMap((alias, j) => literal(`users[${i}].aliases[${j}]`, alias)),
    ]),
  ];
}

/** The users in a shape canonical form can take, whatever was passed (failures are reported apart). */
function usableUsers(users: unknown): DesiredUser[] {
  if (!Array.isArray(users)) return [];
  return (users as unknown[]).flatMap((user) => {
    if (typeof user !== "object" || user === null) return [];
    const { userId, aliases, expiresAt } = user as { userId?: unknown; aliases?: unknown; expiresAt?: unknown };
    return [
      {
        userId: typeof userId === "string" ? userId : "",
        aliases: Array.isArray(aliases) ? (aliases as unknown[]).filter((a): a is string => typeof a === "string") : [],
        ...(typeof expiresAt === "string" ? { expiresAt } : {}),
      },
    ];
  });
}

/**
 * The desired user list of one alert rule.
 *
 * Synthesizes one `null_resource` whose `triggers` carry the rule reference, the mode and the
 * canonical list, and whose `local-exec` provisioner runs `alert-rule-users apply --from-env
 * --auto-approve` for that rule, so `terraform apply` converges the rule when its list changes.
 * `alert-rule-users plan`/`apply` read the same triggers from the synthesized JSON.
 *
 * Props are validated at synth (`app.synth()`, `cdktf synth`): every failure of every list of a
 * stack is reported at once, each with the construct path.
 */
export class RuleUserList extends Construct {
  /** The id of the `null_resource` child. */
  static readonly RESOURCE_ID = RESOURCE_CHILD_ID;

  /** The rule's observerRuleId, when declared by ID. */
  readonly ruleId: string | undefined;
  /** The rule's name, when declared by name. */
  readonly ruleName: string | undefined;
  readonly mode: ListMode;
  readonly allowMassRemoval: boolean;
  /** The declared users in canonical order (sorted by userId, aliases sorted). */
  readonly users: readonly DesiredUser[];
  /** The `null_resource` that carries the declaration. */
  readonly resource: Resource;

  constructor(scope: Construct, id: string, props: RuleUserListProps) {
    super(compatibleScope(scope, id, CDKTF), id);
    const failures = [...validateDeclaration(props), ...tokenFailures(props)];
    this.node.addValidation({ validate: () => failures });

    this.ruleId = props.ruleId;
    this.ruleName = props.ruleName;
    this.mode = props.mode ?? "authoritative";
    this.allowMassRemoval = props.allowMassRemoval ?? false;
    this.users = canonicalUsers(usableUsers(props.users));

    const stack = TerraformStack.of(this);
    ensureNullProvider(stack);
    this.resource = new Resource(this, RuleUserList.RESOURCE_ID, {
      triggers: encodeTriggerFields({
        ruleId: typeof props.ruleId === "string" ? props.ruleId : "",
        ruleName: typeof props.ruleName === "string" ? props.ruleName : "",
        mode: String(this.mode),
        allowMassRemoval: this.allowMassRemoval === true,
        users: this.users,
      }),
      provisioners: [
        {
          type: "local-exec",
          command: provisionerCommand(props.cliCommand ?? DEFAULT_CLI_COMMAND),
          environment: provisionerEnvironment(this.node.path, stack.node.id),
        },
      ],
    });
    Aspects.of(this).add(new PolicyWriter(this));
  }
}
