/**
 * RuleUserList for cdktf apps (the `alert-rule-users` entry): the shared construct
 * (rule-user-list-base.ts) built with cdktf and @cdktf/provider-null. CDK Terrain apps import
 * `alert-rule-users/cdktn` instead (cdktn.ts).
 */
import { Aspects, TerraformProvider, TerraformResource, TerraformStack, Token, anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl } from "cdktf";
import type { IAspect } from "cdktf";
import { addCustomSynthesis } from "cdktf/lib/synthesize/synthesizer";
import { ValidateTerraformVersion } from "cdktf/lib/validations/validate-terraform-version";
import type { Construct, IConstruct } from "constructs";
import { NullProvider } from "@cdktf/provider-null/lib/provider";
import { Resource } from "@cdktf/provider-null/lib/resource";
import { RESOURCE_CHILD_ID } from "../core/declaration";
import type { Triggers } from "../core/declaration";
import { RuleUserListBase } from "./rule-user-list-base";
import type { LocalExec, NativeSpec, RuleUserListProps, TerraformKit } from "./rule-user-list-base";
import { PEER_RANGES, compatibleScope } from "./compat";
import type { Framework } from "./compat";
import { NATIVE_RESOURCE_TYPE, PROVIDER_LOCAL_NAME, PROVIDER_SOURCE } from "../core/native/native-provider";
import { HCL_OUTPUT_UNSUPPORTED, PROVIDER_CHILD_ID, providerAttributes, removedBlock } from "./native";
import type { AlertRulesProviderProps } from "./native";
import { TOOL_VERSION } from "../io/version";

export type { ProvisionerResourceType, RuleUserListMove, RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list-base";
export type { AlertRulesProviderProps } from "./native";

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
 * Gives the stack a `null` provider unless it has one, once per stack (the first list looks; the
 * dedupe aspect removes ours at synth if the stack gains its own later): no walk of the tree per list.
 */
function ensureNullProvider(stack: TerraformStack): void {
  if (DEDUPE_MARK in stack) return;
  Object.defineProperty(stack, DEDUPE_MARK, { value: true });
  if (!stack.node.findAll().some(isNullProvider)) {
    new NullProvider(stack, PROVIDER_ID);
  }
  Aspects.of(stack).add(new NullProviderDedupe(stack));
}

/** The message of cdktf's own check, which DataResource runs once per resource. */
const TERRAFORM_DATA_VERSION = ">=1.4";
const TERRAFORM_DATA_HINT = "The built-in Terraform data resource is only supported for Terraform >=1.4. Please upgrade your Terraform version.";
const VERSION_CHECKED = new WeakSet<TerraformStack>();

/**
 * Terraform's built-in `terraform_data`, with the same JSON as cdktf's DataResource but without its
 * `terraform version` process per resource (24.8 s for 300 lists): the stack checks the version
 * once instead, with cdktf's own check and message.
 */
class TerraformDataResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    private readonly triggersReplace: Triggers,
    provisioner: LocalExec,
  ) {
    super(scope, id, { terraformResourceType: "terraform_data", terraformGeneratorMetadata: { providerName: "terraform" }, provisioners: [provisioner] });
    const stack = TerraformStack.of(this);
    if (!VERSION_CHECKED.has(stack)) {
      VERSION_CHECKED.add(stack);
      stack.node.addValidation(new ValidateTerraformVersion(TERRAFORM_DATA_VERSION, TERRAFORM_DATA_HINT));
    }
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { triggers_replace: hashMapper(anyToTerraform)({ ...this.triggersReplace }) };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    return { triggers_replace: hashMapperHcl(anyToHclTerraform)({ ...this.triggersReplace }) };
  }
}

/**
 * The native provider (source `alert-rule-users/alertrules`, version = this package's): its
 * `required_providers` entry and provider block. A stack with native lists gets one by itself;
 * declare your own to set its arguments (every one falls back to its environment variable).
 */
export class AlertRulesProvider extends TerraformProvider {
  constructor(
    scope: Construct,
    id: string,
    private readonly props: AlertRulesProviderProps = {},
  ) {
    super(scope, id, {
      terraformResourceType: PROVIDER_LOCAL_NAME,
      terraformGeneratorMetadata: { providerName: PROVIDER_LOCAL_NAME, providerVersion: TOOL_VERSION },
      terraformProviderSource: PROVIDER_SOURCE,
    });
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return providerAttributes(this.props);
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    throw new Error(HCL_OUTPUT_UNSUPPORTED);
  }
}

const isAlertRulesProvider = (c: IConstruct): boolean => TerraformProvider.isTerraformProvider(c) && c.terraformResourceType === PROVIDER_LOCAL_NAME;

/** Removes the provider a list added when the stack has its own (declared before or after the lists). */
class AlertRulesProviderDedupe implements IAspect {
  constructor(private readonly stack: TerraformStack) {}

  visit(node: IConstruct): void {
    if (node !== this.stack) return;
    const ours = this.stack.node.tryFindChild(PROVIDER_CHILD_ID);
    if (ours !== undefined && this.stack.node.findAll().some((c) => c !== ours && isAlertRulesProvider(c))) this.stack.node.tryRemoveChild(PROVIDER_CHILD_ID);
  }
}

const WITH_PROVIDER = new WeakSet<TerraformStack>();

/** The `alertrules_rule_user_list` of a list: its attributes read at synth, and the move's blocks. */
class NativeListResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    private readonly spec: NativeSpec,
  ) {
    super(scope, id, { terraformResourceType: NATIVE_RESOURCE_TYPE, terraformGeneratorMetadata: { providerName: PROVIDER_LOCAL_NAME, providerVersion: TOOL_VERSION } });
    if (spec.importId !== undefined) this.importFrom(spec.importId);
    const stack = TerraformStack.of(this);
    if (!WITH_PROVIDER.has(stack)) {
      WITH_PROVIDER.add(stack);
      new AlertRulesProvider(stack, PROVIDER_CHILD_ID);
      Aspects.of(stack).add(new AlertRulesProviderDedupe(stack));
    }
    if (spec.movedFrom === "null_resource") ensureNullProvider(stack); // the state's null_resource needs its provider to be forgotten
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { ...this.spec.attributes() };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    throw new Error(HCL_OUTPUT_UNSUPPORTED);
  }

  override toTerraform(): Record<string, unknown> {
    const tf = super.toTerraform() as Record<string, unknown>;
    return this.spec.movedFrom === undefined ? tf : { ...tf, removed: [removedBlock(this.spec.movedFrom, this.friendlyUniqueId)] };
  }
}

const CDKTF_KIT: TerraformKit = {
  stackOf: (construct) => TerraformStack.of(construct),
  isUnresolved: (value) => Token.isUnresolved(value),
  addAspect: (scope, aspect) => Aspects.of(scope).add(aspect),
  nullResource: (scope, id, triggers, provisioner) => {
    ensureNullProvider(TerraformStack.of(scope));
    return new Resource(scope, id, { triggers: { ...triggers }, provisioners: [provisioner] });
  },
  dataResource: (scope, id, triggers, provisioner) => new TerraformDataResource(scope, id, triggers, provisioner),
  nativeResource: (scope, id, spec) => new NativeListResource(scope, id, spec),
  addCustomSynthesis: (construct, onSynthesize) => addCustomSynthesis(construct, { onSynthesize: (session) => onSynthesize(session) }),
};

/**
 * The desired user list of one alert rule.
 *
 * Synthesizes one resource (`null_resource` by default, or Terraform's built-in `terraform_data`
 * with `resourceType`) whose triggers carry the rule reference, the mode and the canonical list, and
 * whose `local-exec` provisioner runs `alert-rule-users apply --from-env --auto-approve` for that
 * rule, so `terraform apply` converges the rule when its list changes. `alert-rule-users
 * plan`/`apply` read the same triggers from the synthesized JSON.
 *
 * Props are validated at synth (`app.synth()`, `cdktf synth`): every failure of every list of a
 * stack is reported at once, each with the construct path.
 */
export class RuleUserList extends RuleUserListBase {
  /** The id of the resource child. */
  static readonly RESOURCE_ID = RESOURCE_CHILD_ID;

  /** The `null_resource`, `terraform_data` or `alertrules_rule_user_list` resource that carries the declaration. */
  declare readonly resource: TerraformResource;

  constructor(scope: Construct, id: string, props: RuleUserListProps) {
    super(compatibleScope(scope, id, CDKTF), id, props, CDKTF_KIT, "null_resource");
  }
}
