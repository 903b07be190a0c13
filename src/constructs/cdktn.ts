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
import { Aspects, DataResource, TerraformResource, TerraformStack, Token } from "cdktn";
import type { Construct } from "constructs";
import { RESOURCE_CHILD_ID } from "../core/declaration";
import type { Triggers } from "../core/declaration";
import { RuleUserListBase } from "./rule-user-list-base";
import type { LocalExec, RuleUserListProps, TerraformKit } from "./rule-user-list-base";
import { compatibleScope } from "./compat";
import type { Framework } from "./compat";

export { RuleUserListPolicy } from "./rule-user-list-policy";
export type { RuleUserListPolicyProps } from "./rule-user-list-policy";
export type { RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list-base";

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

/** A `null_resource` without generated bindings: its triggers, as given. */
class NullResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    private readonly triggers: Triggers,
    provisioner: LocalExec,
  ) {
    super(scope, id, { terraformResourceType: "null_resource", provisioners: [provisioner] });
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { triggers: { ...this.triggers } };
  }
}

const CDKTN_KIT: TerraformKit = {
  stackOf: (construct) => TerraformStack.of(construct),
  isUnresolved: (value) => Token.isUnresolved(value),
  addAspect: (scope, aspect) => Aspects.of(scope).add(aspect),
  nullResource: (scope, id, triggers, provisioner) => new NullResource(scope, id, triggers, provisioner),
  dataResource: (scope, id, triggers, provisioner) => new DataResource(scope, id, { triggersReplace: { ...triggers }, provisioners: [provisioner] }),
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
