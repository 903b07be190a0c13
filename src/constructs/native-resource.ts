/**
 * The `alertrules_rule_user_list` resource of a native list: one class for both frameworks. Each
 * entry (rule-user-list.ts, cdktn.ts) passes its own `TerraformResource` and gets the maker its
 * {@link TerraformKit} holds.
 */
import type { Construct } from "constructs";
import { HCL_OUTPUT_UNSUPPORTED, NATIVE_RESOURCE_CONFIG, withMove } from "./native";
import type { NativeSpec } from "./native";
import type { OverridableResource, TerraformKit } from "./framework-kit";

/** What the shared class uses of a framework's `TerraformResource`. */
interface FrameworkResource extends OverridableResource {
  importFrom(id: string): void;
  toTerraform(): unknown;
  readonly friendlyUniqueId: string;
}

/** A framework's `TerraformResource` class (cdktf's or cdktn's), as the shared class extends it. */
export type ResourceClass = abstract new (scope: Construct, id: string, config: typeof NATIVE_RESOURCE_CONFIG) => FrameworkResource;

/** The kit's `nativeResource` for a framework: the resource, its `import` block, its move's `removed` block. */
export function nativeResourceMaker(Base: ResourceClass): TerraformKit["nativeResource"] {
  class NativeListResource extends Base {
    constructor(
      scope: Construct,
      id: string,
      private readonly spec: NativeSpec,
    ) {
      super(scope, id, NATIVE_RESOURCE_CONFIG);
      if (spec.importId !== undefined) this.importFrom(spec.importId);
    }

    // The framework's protected hooks, overridden at run time: a structural type cannot name a
    // protected member, so the compiler does not see these as overrides.
    synthesizeAttributes(): Record<string, unknown> {
      return { ...this.spec.attributes() };
    }

    synthesizeHclAttributes(): Record<string, unknown> {
      throw new Error(HCL_OUTPUT_UNSUPPORTED);
    }

    override toTerraform(): Record<string, unknown> {
      return withMove(super.toTerraform(), this.spec, this.friendlyUniqueId);
    }
  }
  return (scope, id, spec) => new NativeListResource(scope, id, spec);
}
