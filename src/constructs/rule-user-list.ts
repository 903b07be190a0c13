/**
 * RuleUserList for cdktf apps (the `alert-rule-users` entry): the shared construct
 * (rule-user-list-base.ts) built with cdktf and @cdktf/provider-null. CDK Terrain apps import
 * `alert-rule-users/cdktn` instead (cdktn.ts).
 */
import { Aspects, DataResource, TerraformProvider, TerraformStack, Token } from "cdktf";
import type { IAspect, TerraformResource } from "cdktf";
import type { Construct, IConstruct } from "constructs";
import { NullProvider } from "@cdktf/provider-null/lib/provider";
import { Resource } from "@cdktf/provider-null/lib/resource";
import { RESOURCE_CHILD_ID } from "../core/declaration";
import { RuleUserListBase } from "./rule-user-list-base";
import type { RuleUserListProps, TerraformKit } from "./rule-user-list-base";
import { PEER_RANGES, compatibleScope } from "./compat";
import type { Framework } from "./compat";

export type { RuleUserListProps, RuleUserListResourceType, RuleUserListUser } from "./rule-user-list-base";

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

function ensureNullProvider(stack: TerraformStack): void {
  if (!stack.node.findAll().some(isNullProvider)) {
    new NullProvider(stack, PROVIDER_ID);
  }
  if (!(DEDUPE_MARK in stack)) {
    Object.defineProperty(stack, DEDUPE_MARK, { value: true });
    Aspects.of(stack).add(new NullProviderDedupe(stack));
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
  dataResource: (scope, id, triggers, provisioner) => new DataResource(scope, id, { triggersReplace: { ...triggers }, provisioners: [provisioner] }),
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

  /** The `null_resource` or `terraform_data` resource that carries the declaration. */
  declare readonly resource: TerraformResource;

  constructor(scope: Construct, id: string, props: RuleUserListProps) {
    super(compatibleScope(scope, id, CDKTF), id, props, CDKTF_KIT, "null_resource");
  }
}
