/**
 * The `alert-rule-users/cdktn` entry: RuleUserList and RuleUserListPolicy for CDK Terrain (`cdktn`,
 * the maintained fork of cdktf) apps, with the same props as the main entry. The only difference:
 * `resourceType` defaults to `"terraform_data"`, Terraform's built-in resource, since there is no
 * `@cdktn/provider-null`. With `resourceType: "null_resource"` the stack declares no null provider
 * block; Terraform installs hashicorp/null by itself at `terraform init`.
 *
 * @example
 * import { App, TerraformStack } from "cdktn";
 * import { RuleUserList } from "alert-rule-users/cdktn";
 *
 * const app = new App();
 * const stack = new TerraformStack(app, "alert-rules");
 * new RuleUserList(stack, "exfiltration-watch", {
 *   ruleName: "Endpoint exfiltration",
 *   users: [{ userId: "00u1a2b3", aliases: ["maria.santos@example.com"] }],
 * });
 * app.synth();
 */
import { Aspects, TerraformProvider, TerraformResource, TerraformStack, Token, anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl } from "cdktn";
import { addCustomSynthesis } from "cdktn/lib/synthesize/synthesizer";
import { ValidateTerraformVersion } from "cdktn/lib/validations/validate-terraform-version";
import type { Construct } from "constructs";
import { RESOURCE_CHILD_ID } from "../core/declaration";
import type { TriggerAttribute, Triggers } from "../core/declaration";
import { RuleUserListBase } from "./rule-user-list-base";
import type { RuleUserListProps } from "./rule-user-list-base";
import { frameworkKit } from "./framework-kit";
import type { LocalExec, TerraformKit } from "./framework-kit";
import { compatibleScope } from "./compat";
import type { Framework } from "./compat";
import { HCL_OUTPUT_UNSUPPORTED, PROVIDER_CONFIG, providerAttributes } from "./native";
import { nativeResourceMaker } from "./native-resource";
import type { AlertRulesProviderProps } from "./native";

export { RuleUserListPolicy } from "./rule-user-list-policy";
export type { RuleUserListPolicyProps } from "./rule-user-list-policy";
export type { ProvisionerResourceType, RuleUserListMove, RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list-base";
export type { AlertRulesProviderProps } from "./native";

/**
 * cdktn as this entry loads it, for the check that the app shares its copies (compat.ts): the
 * range of package.json's peerDependencies, and the `constructs` range cdktn 0.24 itself accepts.
 */
const CDKTN: Framework = {
  packageName: "cdktn",
  range: "^0.24.0",
  stackClass: TerraformStack,
  isStack: (x) => TerraformStack.isStack(x),
  constructsRange: ">=10.6.0 <10.8.0",
};

const VERSION_CHECKED = new WeakSet<TerraformStack>();

/** The `alertrules_rule_user_list` of a list (native-resource.ts), with this framework's resource class. */
const nativeResource = nativeResourceMaker(TerraformResource);

/**
 * A `null_resource` or a `terraform_data` without generated bindings: its triggers, as given. For
 * `terraform_data` the same JSON as cdktn's DataResource, without its `terraform version` process
 * per resource: the stack checks the version once, with cdktn's own check and message.
 */
class ListResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    private readonly attribute: TriggerAttribute,
    private readonly triggers: Triggers,
    provisioner: LocalExec,
  ) {
    const data = attribute === "triggers_replace";
    super(scope, id, {
      terraformResourceType: data ? "terraform_data" : "null_resource",
      ...(data ? { terraformGeneratorMetadata: { providerName: "terraform" } } : {}),
      provisioners: [provisioner],
    });
    const stack = TerraformStack.of(this);
    if (data && !VERSION_CHECKED.has(stack)) {
      VERSION_CHECKED.add(stack);
      stack.node.addValidation(
        new ValidateTerraformVersion(">=1.4", "The built-in Terraform data resource is only supported for Terraform >=1.4. Please upgrade your Terraform version."),
      );
    }
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    const value: unknown = hashMapper(anyToTerraform)({ ...this.triggers });
    return { [this.attribute]: value };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    const value: unknown = hashMapperHcl(anyToHclTerraform)({ ...this.triggers });
    return { [this.attribute]: value };
  }
}

/**
 * The native provider (source `alert-rule-users/alertrules`, version = this package's), for a CDK
 * Terrain stack: as the main entry's AlertRulesProvider.
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

const CDKTN_KIT: TerraformKit = {
  ...frameworkKit({ TerraformStack, Token, Aspects, TerraformProvider, addCustomSynthesis }),
  nullResource: (scope, id, triggers, provisioner) => new ListResource(scope, id, "triggers", triggers, provisioner),
  dataResource: (scope, id, triggers, provisioner) => new ListResource(scope, id, "triggers_replace", triggers, provisioner),
  nativeResource,
  alertRulesProvider: (stack, id) => new AlertRulesProvider(stack, id),
};

/**
 * The desired user list of one alert rule, for a CDK Terrain app: the same construct as
 * `alert-rule-users`' RuleUserList (same props, same synthesized triggers and provisioner), with
 * `resourceType` defaulting to `"terraform_data"`.
 */
export class RuleUserList extends RuleUserListBase {
  /** The id of the resource child. */
  static readonly RESOURCE_ID = RESOURCE_CHILD_ID;

  /** The `terraform_data` or `null_resource` resource that carries the declaration. */
  declare readonly resource: TerraformResource;

  constructor(scope: Construct, id: string, props: RuleUserListProps) {
    super(compatibleScope(scope, id, CDKTN), id, props, CDKTN_KIT, "terraform_data");
  }
}
