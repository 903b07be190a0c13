/**
 * RuleUserList for cdktf apps (the `alert-rule-users` entry): the shared construct
 * (rule-user-list-base.ts) built with cdktf and @cdktf/provider-null. CDK Terrain apps import
 * `alert-rule-users/cdktn` instead (cdktn.ts).
 */
import { Aspects, TerraformProvider, TerraformResource, TerraformStack, Token, anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl } from "cdktf";
import { addCustomSynthesis } from "cdktf/lib/synthesize/synthesizer";
import { ValidateTerraformVersion } from "cdktf/lib/validations/validate-terraform-version";
import type { Construct, IConstruct } from "constructs";
import { NullProvider } from "@cdktf/provider-null/lib/provider";
import { Resource } from "@cdktf/provider-null/lib/resource";
import { RESOURCE_CHILD_ID } from "../core/declaration";
import type { Triggers } from "../core/declaration";
import { RuleUserListBase } from "./rule-user-list-base";
import type { RuleUserListProps } from "./rule-user-list-base";
import { frameworkKit } from "./framework-kit";
import type { LocalExec, TerraformKit } from "./framework-kit";
import { PEER_RANGES, compatibleScope } from "./compat";
import type { Framework } from "./compat";
import { HCL_OUTPUT_UNSUPPORTED, PROVIDER_CONFIG, ProviderDedupe, providerAttributes } from "./native";
import { nativeResourceMaker } from "./native-resource";
import type { AlertRulesProviderProps } from "./native";

export type { ProvisionerResourceType, RuleUserListMove, RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list-base";
export type { AlertRulesProviderProps } from "./native";

/** cdktf as this entry loads it, for the check that the app shares its copies (compat.ts). */
const CDKTF: Framework = { packageName: "cdktf", range: PEER_RANGES.cdktf, stackClass: TerraformStack, isStack: (x) => TerraformStack.isStack(x) };

/** The id of the `null` provider a RuleUserList adds to a stack that has none. */
const PROVIDER_ID = "alert-rule-users-null";
const DEDUPE_MARK = Symbol.for("alert-rule-users/null-provider-dedupe");

/** The `alertrules_rule_user_list` of a list (native-resource.ts), with this framework's resource class. */
const nativeResource = nativeResourceMaker(TerraformResource);

function isNullProvider(construct: IConstruct): boolean {
  return TerraformProvider.isTerraformProvider(construct) && construct.terraformResourceType === NullProvider.tfResourceType;
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
  Aspects.of(stack).add(new ProviderDedupe(stack, PROVIDER_ID, isNullProvider));
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
    super(scope, id, PROVIDER_CONFIG);
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return providerAttributes(this.props);
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    throw new Error(HCL_OUTPUT_UNSUPPORTED);
  }
}

const CDKTF_KIT: TerraformKit = {
  ...frameworkKit({ TerraformStack, Token, Aspects, TerraformProvider, addCustomSynthesis }),
  nullResource: (scope, id, triggers, provisioner) => {
    ensureNullProvider(TerraformStack.of(scope));
    return new Resource(scope, id, { triggers: { ...triggers }, provisioners: [provisioner] });
  },
  dataResource: (scope, id, triggers, provisioner) => new TerraformDataResource(scope, id, triggers, provisioner),
  nativeResource: (scope, id, spec) => {
    const resource = nativeResource(scope, id, spec);
    if (spec.movedFrom === "null_resource") ensureNullProvider(TerraformStack.of(scope)); // the state's null_resource needs its provider to be forgotten
    return resource;
  },
  alertRulesProvider: (stack, id) => new AlertRulesProvider(stack, id),
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
