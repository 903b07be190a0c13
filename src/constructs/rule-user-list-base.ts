/**
 * What the cdktf RuleUserList (`rule-user-list.ts`) and the CDK Terrain one (`cdktn.ts`) share: the
 * props, validation at synth, the trigger map, the `local-exec` provisioner and the policy writer.
 * Imports `constructs` only; each entry passes its own framework in a {@link TerraformKit}, so the
 * same code builds the same JSON with either.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Construct } from "constructs";
import type { IConstruct } from "constructs";
import {
  DECLARED_RULES_FILE,
  DEFAULT_CLI_COMMAND,
  ENV_POLICIES,
  POLICIES_TRIGGER,
  RESOURCE_CHILD_ID,
  encodeTriggerFields,
  duplicateKey,
  encodeDeclaredRules,
  escapeTemplate,
  provisionerCommand,
  provisionerEnvironment,
  usersJson,
  usersSizeFailures,
  validateDeclaration,
} from "../core/declaration";
import type { RuleReference, TriggerAttribute } from "../core/declaration";
import { canonicalUsers } from "../core/engine/canonical";
import { POLICIES_KEY } from "../core/engine/policy-schema";
import { policiesFor } from "./rule-user-list-policy";
import type { DesiredUser, ListMode } from "../core/engine/desired";
import { declarationPolicyFailures, encodeNativeAttributes, policiesTrigger } from "../core/declaration/native";
import { NATIVE_RESOURCE_TYPE, ON_DESTROY_VALUES, nativeImportId } from "../core/native/native-provider";
import { LOCK_FILE_NAME } from "../core/native/provider-lock";
import type { OnDestroy } from "../core/native/native-provider";
import { installProviderAtHand } from "../io/provider-install";
import { PROVIDER_CHILD_ID, ProviderDedupe } from "./native";
import type { LocalExec, OverridableResource, TerraformKit } from "./framework-kit";
import type { ProvisionerResourceType } from "./native";

/** One user of a RuleUserList. */
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

/**
 * The Terraform resource that carries a list: `null_resource` (hashicorp/null) or the built-in
 * `terraform_data` (each with a provisioner that runs the CLI), or the native provider's
 * `alertrules_rule_user_list` (docs/provider.md).
 */
export type RuleUserListResourceType = "null_resource" | "terraform_data" | "alertrules_rule_user_list";

/** The resource types a RuleUserList can synthesize. */
export const RESOURCE_TYPES: readonly RuleUserListResourceType[] = ["null_resource", "terraform_data", NATIVE_RESOURCE_TYPE];

export type { ProvisionerResourceType } from "./native";

/**
 * Moving a list that Terraform applied as a provisioner resource onto the native resource, with no
 * write to the service (docs/provider-migration.md): by default a `moved` block from the old
 * resource (same construct, same logical ID; Terraform 1.8 or later), whose state the provider
 * makes from the old resource's triggers (the declaration and its policies), so the first plan
 * shows the move and no change; or, `with: "import"` (Terraform 1.7), a `removed` block
 * (`lifecycle { destroy = false }`) for the old resource and an `import` block for the new one.
 */
export interface RuleUserListMove {
  /** The resource type the list had until now. */
  readonly resourceType: ProvisionerResourceType;
  /**
   * How the state moves: `"moved"`, a `moved` block (Terraform 1.8+; the plan shows no change);
   * `"import"`, `removed` and `import` blocks (Terraform 1.7+; the plan shows the import, the
   * policies of the list as an update that sends nothing, and an additive list's undeclared live
   * users leaving the state).
   *
   * @default "moved"
   */
  readonly with?: "moved" | "import";
  /**
   * Not needed: the `import` block names the rule as the list does (by ID, or `name:` and the
   * rule's name for a list declared by `ruleName`; `additive:` in front for an additive list), so
   * the first plan after the move shows the import and no change. Checked, then unused.
   *
   * @default - the list's `ruleId` or `ruleName`
   */
  readonly ruleId?: string;
}

/** Properties of a RuleUserList. Set exactly one of `ruleId` and `ruleName`. */
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
  /**
   * The desired users; an empty array declares an empty list. At most 1.5 MiB as JSON (about
   * 13,000 users with 2 aliases of some 30 characters each): `terraform apply` passes them to the CLI in the
   * environment of a process, which Linux caps. Synth refuses a bigger list.
   */
  readonly users: readonly RuleUserListUser[];
  /**
   * How the `local-exec` provisioner invokes the CLI; it runs
   * `<cliCommand> apply --from-env --auto-approve` in Terraform's working directory, with the
   * connection settings (`ALERTS_API_URL`, `ALERTS_API_TOKEN` or `ALERTS_API_TOKEN_COMMAND`, `ALERTS_TENANT_ID`) inherited from
   * the environment of `terraform apply`.
   *
   * @default "npx --no -- alert-rule-users" - the CLI installed in the project (`--` keeps npx from taking the CLI's flags as its own)
   */
  readonly cliCommand?: string;
  /**
   * The resource that carries the list. `"terraform_data"` is Terraform's built-in resource
   * (Terraform 1.4 or later): no provider to download, so `terraform init` works offline; the
   * triggers go into its `triggers_replace`. `"null_resource"` needs the hashicorp/null provider;
   * the triggers go into its `triggers`. Both run the same provisioner, and plan/apply read both.
   * Changing it replaces the resource, so the next `terraform apply` runs the rule's apply once.
   *
   *
   * `"alertrules_rule_user_list"` is the native resource of this package's own provider
   * (source `alert-rule-users/alertrules`, docs/provider.md): no provisioner, `terraform plan`
   * shows the live list and changes in place; synth adds the provider to the stack and installs it
   * into the stack directory, so `terraform init` there needs no network. `cliCommand` is unused.
   *
   * @default "null_resource" - from `alert-rule-users`; `"terraform_data"` from `alert-rule-users/cdktn`
   */
  readonly resourceType?: RuleUserListResourceType;
  /**
   * What `terraform destroy` (or removing the list from the app) does to the live list, for
   * `resourceType: "alertrules_rule_user_list"` only: `"keep"` leaves it as it is, `"clear"`
   * removes what the list manages.
   *
   * @default - the provider's default, "keep"
   */
  readonly onDestroy?: OnDestroy;
  /**
   * For `resourceType: "alertrules_rule_user_list"`: the list was applied as a `null_resource` or
   * `terraform_data` until now; the stack moves it over with zero writes (see {@link RuleUserListMove}).
   * Keep it until the move is applied everywhere; it does nothing after that.
   *
   * @default - no move
   */
  readonly movedFrom?: RuleUserListMove;
}

/** Failures for values only known at apply time: plan reads the synthesized JSON as written. */
function tokenFailures(props: RuleUserListProps, isUnresolved: (value: unknown) => boolean): string[] {
  // every token marker of cdktf and cdktn (`${TfToken[`, `#{…`, `&{…`) holds a brace: a string
  // without one is a literal, and most aliases need no look at the framework's token registry
  const literal = (field: string, value: unknown): string[] =>
    typeof value === "string" && value.includes("{") && isUnresolved(value)
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

function resourceTypeFailures(resourceType: unknown): string[] {
  return resourceType === undefined || (RESOURCE_TYPES as readonly unknown[]).includes(resourceType)
    ? []
    : [
        `resourceType: ${typeof resourceType === "string" ? JSON.stringify(resourceType) : `a ${typeof resourceType}`} is not a resource type; use "terraform_data" (built into Terraform 1.4+, no provider), "null_resource" (hashicorp/null) or "${NATIVE_RESOURCE_TYPE}" (this package's provider)`,
      ];
}

/** Failures of the props only the native resource takes. */
function nativeFailures(props: RuleUserListProps, native: boolean): string[] {
  const failures: string[] = [];
  const onDestroy: unknown = props.onDestroy;
  if (onDestroy !== undefined) {
    if (!native) failures.push(`onDestroy: applies to resourceType "${NATIVE_RESOURCE_TYPE}" only; remove it or use that resource type`);
    else if (!(ON_DESTROY_VALUES as readonly unknown[]).includes(onDestroy)) failures.push(`onDestroy: must be "keep" or "clear", got ${JSON.stringify(onDestroy) ?? typeof onDestroy}`);
  }
  const move: unknown = props.movedFrom;
  if (move !== undefined) {
    const from = typeof move === "object" && move !== null ? (move as { resourceType?: unknown; ruleId?: unknown; with?: unknown }) : {};
    if (from.with !== undefined && from.with !== "moved" && from.with !== "import") failures.push(`movedFrom.with: must be "moved" (a moved block, Terraform 1.8+) or "import" (removed and import blocks), got ${JSON.stringify(from.with) ?? typeof from.with}`);
    if (!native) failures.push(`movedFrom: applies to resourceType "${NATIVE_RESOURCE_TYPE}" only (the resource the list moves to)`);
    if (from.resourceType !== "null_resource" && from.resourceType !== "terraform_data") {
      failures.push(`movedFrom.resourceType: must be "null_resource" or "terraform_data" (the resource type the list had), got ${JSON.stringify(from.resourceType) ?? typeof from.resourceType}`);
    }
    if (from.ruleId !== undefined && (typeof from.ruleId !== "string" || from.ruleId.trim() === "")) failures.push("movedFrom.ruleId: must be the rule's observerRuleId");
  }
  return failures;
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

/** The RuleUserLists of one app (the root of the construct tree), by the rule they declare. */
interface AppDeclarations {
  readonly lists: RuleUserListBase[];
  readonly byRule: Map<string, RuleUserListBase[]>;
}

const APPS = new WeakMap<IConstruct, AppDeclarations>();
/** The stacks whose declared-rules file is written at synth. */
const STACKS_WITH_RULES_FILE = new WeakSet<IConstruct>();

function declarationsOf(root: IConstruct): AppDeclarations {
  let app = APPS.get(root);
  if (app === undefined) {
    app = { lists: [], byRule: new Map() };
    APPS.set(root, app);
  }
  return app;
}

const referenceOf = (list: RuleUserListBase): RuleReference => ({
  constructPath: list.node.path,
  ruleId: typeof list.ruleId === "string" ? list.ruleId : null,
  ruleName: typeof list.ruleName === "string" ? list.ruleName : null,
});

/**
 * The failure of a list whose rule another list of the app declares the same way (same ID, or
 * same name): found at synth from the app's index, never by walking the tree.
 */
function duplicateFailures(list: RuleUserListBase, app: AppDeclarations, key: string | null): string[] {
  const same = key === null ? [] : (app.byRule.get(key) ?? []);
  if (same.length < 2) return [];
  const others = same.filter((other) => other !== list).map((other) => other.node.path);
  const field = list.ruleId !== undefined ? `ruleId: rule '${String(list.ruleId)}'` : `ruleName: rule '${String(list.ruleName)}'`;
  return [
    `${field} is declared again by ${others.join(", ")}: keep exactly one RuleUserList per rule (two lists for one rule would each converge it to their own list)`,
  ];
}

/**
 * Writes, once per stack, the app's rule declarations into the stack's working directory
 * (`alert-rule-users.rules.json`): each provisioner reads it to refuse a rule that another list of
 * the app declares the other way (by ID here, by name there), which only the service can resolve.
 */
function writeDeclaredRulesOnce(stack: IConstruct, app: AppDeclarations, kit: TerraformKit): void {
  if (STACKS_WITH_RULES_FILE.has(stack)) return;
  STACKS_WITH_RULES_FILE.add(stack);
  const holder = new Construct(stack, "alert-rule-users-declared-rules");
  kit.addCustomSynthesis(holder, (session) => {
    const dir = join(session.outdir, session.manifest.forStack(stack as never).workingDirectory);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, DECLARED_RULES_FILE), encodeDeclaredRules(app.lists.map(referenceOf)));
  });
}

/** The stacks that hold the native provider's block (their own, or the one a list added). */
const STACKS_WITH_PROVIDER_BLOCK = new WeakSet<IConstruct>();

/**
 * Gives the stack, once, the native provider (its `required_providers` entry and a provider block)
 * and the aspect that drops that block at synth if the stack declares its own, before or after the
 * lists: no walk of the tree per list.
 */
function addProviderBlockOnce(stack: IConstruct, kit: TerraformKit): void {
  if (STACKS_WITH_PROVIDER_BLOCK.has(stack)) return;
  STACKS_WITH_PROVIDER_BLOCK.add(stack);
  kit.alertRulesProvider(stack, PROVIDER_CHILD_ID);
  kit.addAspect(stack, new ProviderDedupe(stack, PROVIDER_CHILD_ID, kit.isAlertRulesProvider));
}

/**
 * The lock file committed beside the app (`.terraform.lock.hcl` in the directory the app runs in,
 * where cdktf.json is), copied into a stack directory at synth: cdktf.out is git-ignored and
 * rewritten, so a lock file kept only there is never committed (docs/provider-migration.md).
 */
function copyCommittedLock(stackDir: string): void {
  const committed = join(process.cwd(), LOCK_FILE_NAME);
  if (!existsSync(committed) || resolve(committed) === resolve(stackDir, LOCK_FILE_NAME)) return;
  writeFileSync(join(stackDir, LOCK_FILE_NAME), readFileSync(committed));
}

/** The stacks whose directory gets the provider at synth. */
const STACKS_WITH_PROVIDER = new WeakSet<IConstruct>();

/**
 * Installs, once per stack, the native provider into the stack's working directory at synth (its
 * implied local mirror, src/io/provider-install.ts), so `terraform init` there finds the provider
 * of this very package with no network.
 */
function installProviderOnce(stack: IConstruct, kit: TerraformKit): void {
  if (STACKS_WITH_PROVIDER.has(stack)) return;
  STACKS_WITH_PROVIDER.add(stack);
  const holder = new Construct(stack, "alert-rule-users-provider-mirror");
  kit.addCustomSynthesis(holder, (session) => {
    const dir = join(session.outdir, session.manifest.forStack(stack as never).workingDirectory);
    installProviderAtHand({ dir });
    copyCommittedLock(dir);
  });
}

/**
 * Writes the RuleUserListPolicy checks that apply to a list, at synth when the whole tree is built,
 * into its resource's `"//"` block (which Terraform ignores; `plan` reads it) and into its
 * provisioner's environment (so `terraform apply` refuses a violating list as `apply` does). Lists
 * without policies are untouched.
 */
class PolicyWriter {
  constructor(
    private readonly list: IConstruct,
    private readonly resource: OverridableResource,
    private readonly provisioner: LocalExec,
    private readonly attribute: TriggerAttribute,
  ) {}

  visit(node: IConstruct): void {
    if (node !== this.list) return;
    const policies = policiesFor(this.list);
    if (policies.length === 0) return;
    this.resource.addOverride(`//.${POLICIES_KEY}`, policies);
    // in the triggers too, so that a moved block onto the native resource carries them (triggers.ts)
    this.resource.addOverride(`${this.attribute}.${POLICIES_TRIGGER}`, policiesTrigger(policies));
    this.provisioner.environment[ENV_POLICIES] = escapeTemplate(JSON.stringify(policies));
  }
}

/**
 * The desired user list of one alert rule, built with a framework's {@link TerraformKit}; the
 * public classes are `RuleUserList` of `alert-rule-users` (cdktf) and of `alert-rule-users/cdktn`.
 */
export abstract class RuleUserListBase extends Construct {
  /** The rule's observerRuleId, when declared by ID. */
  readonly ruleId: string | undefined;
  /** The rule's name, when declared by name. */
  readonly ruleName: string | undefined;
  readonly mode: ListMode;
  readonly allowMassRemoval: boolean;
  /** The declared users in canonical order (sorted by userId, aliases sorted). */
  readonly users: readonly DesiredUser[];
  /** The Terraform resource type that carries the declaration. */
  readonly resourceType: RuleUserListResourceType;
  /** The resource that carries the declaration. */
  readonly resource: OverridableResource;

  protected constructor(scope: Construct, id: string, props: RuleUserListProps, kit: TerraformKit, defaultResourceType: RuleUserListResourceType) {
    super(scope, id);
    this.ruleId = props.ruleId;
    this.ruleName = props.ruleName;
    this.mode = props.mode ?? "authoritative";
    this.allowMassRemoval = props.allowMassRemoval ?? false;
    this.users = canonicalUsers(usableUsers(props.users));
    const requested: unknown = props.resourceType;
    this.resourceType = (RESOURCE_TYPES as readonly unknown[]).includes(requested) ? (requested as RuleUserListResourceType) : defaultResourceType;
    const native = this.resourceType === NATIVE_RESOURCE_TYPE;

    const json = usersJson(this.users);
    const failures = [
      ...validateDeclaration(props),
      ...tokenFailures(props, kit.isUnresolved),
      ...resourceTypeFailures(requested),
      ...(native ? [] : usersSizeFailures(json, this.users.length)),
      ...nativeFailures(props, native),
    ];
    const app = declarationsOf(this.node.root);
    const key = failures.length === 0 ? duplicateKey(referenceOf(this)) : null;
    app.lists.push(this);
    if (key !== null) {
      const same = app.byRule.get(key);
      if (same === undefined) app.byRule.set(key, [this]);
      else same.push(this);
    }
    // a native list fails synth for the policy checks its declaration alone decides (the others need the live list: the provider's plan)
    const policyFailures = (): string[] => (native && failures.length === 0 ? declarationPolicyFailures(this, policiesFor(this), new Date().toISOString().slice(0, 10)) : []);
    this.node.addValidation({ validate: () => [...failures, ...duplicateFailures(this, app, key), ...policyFailures()] });

    const stack = kit.stackOf(this);
    if (native) {
      const ruleId = typeof props.ruleId === "string" ? props.ruleId : undefined;
      const ruleName = typeof props.ruleName === "string" ? props.ruleName : undefined;
      const onDestroy = props.onDestroy === "keep" || props.onDestroy === "clear" ? props.onDestroy : undefined;
      const move = props.movedFrom;
      // A list declared by name is imported by name (`name:…`), an additive one as additive: the
      // first plan after the move then shows the import and no change (src/core/native/native-provider.ts).
      const moveWith = move?.with === "import" ? "import" : "moved";
      const importId =
        move === undefined || moveWith === "moved"
          ? undefined
          : nativeImportId({ ruleId: ruleId ?? null, ruleName: ruleId === undefined ? (ruleName ?? null) : null, mode: this.mode === "additive" ? "additive" : "authoritative" });
      this.resource = kit.nativeResource(this, RESOURCE_CHILD_ID, {
        attributes: () =>
          encodeNativeAttributes(
            { ruleId, ruleName: ruleId === undefined ? ruleName : undefined, mode: String(this.mode), allowMassRemoval: this.allowMassRemoval === true, users: this.users, onDestroy },
            policiesFor(this),
          ),
        ...(move?.resourceType === "null_resource" || move?.resourceType === "terraform_data" ? { movedFrom: move.resourceType, moveWith } : {}),
        ...(typeof importId === "string" && importId !== "" ? { importId } : {}),
      });
      addProviderBlockOnce(stack, kit);
      installProviderOnce(stack, kit);
      return;
    }
    writeDeclaredRulesOnce(stack, app, kit);
    const triggers = encodeTriggerFields({
      ruleId: typeof props.ruleId === "string" ? props.ruleId : "",
      ruleName: typeof props.ruleName === "string" ? props.ruleName : "",
      mode: String(this.mode),
      allowMassRemoval: this.allowMassRemoval === true,
      users: this.users,
    }, json);
    const attribute: TriggerAttribute = this.resourceType === "terraform_data" ? "triggers_replace" : "triggers";
    const provisioner: LocalExec = {
      type: "local-exec",
      command: provisionerCommand(props.cliCommand ?? DEFAULT_CLI_COMMAND),
      environment: provisionerEnvironment(this.node.path, stack.node.id, triggers, attribute),
    };
    const make = this.resourceType === "terraform_data" ? kit.dataResource : kit.nullResource;
    this.resource = make(this, RESOURCE_CHILD_ID, triggers, provisioner);
    kit.addAspect(this, new PolicyWriter(this, this.resource, provisioner, attribute));
  }
}
