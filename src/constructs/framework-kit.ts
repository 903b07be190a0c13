/**
 * The framework a RuleUserList is built on, as the shared code sees it: the few cdktf or cdktn
 * members it needs ({@link TerraformKit}), passed in by each entry (`rule-user-list.ts`,
 * `cdktn.ts`), so `rule-user-list-base.ts` imports `constructs` only.
 */
import type { Construct, IConstruct } from "constructs";
import type { Triggers } from "../core/declaration";
import { PROVIDER_LOCAL_NAME } from "../core/native/native-provider";
import type { NativeSpec } from "./native";

/** The `local-exec` provisioner of a list, in the shape both frameworks take. */
export interface LocalExec {
  readonly type: "local-exec";
  readonly command: string;
  readonly environment: Record<string, string>;
}

/** A synthesized resource, as the shared code uses it. */
export interface OverridableResource extends IConstruct {
  addOverride(path: string, value: unknown): void;
}

/** What a framework passes to a construct's custom synthesis: where the stacks are written. */
export interface SynthesisSession {
  readonly outdir: string;
  readonly manifest: { forStack(stack: never): { readonly workingDirectory: string } };
}

/** The parts of a Terraform CDK framework (cdktf or cdktn) a RuleUserList needs. */
export interface TerraformKit {
  /** The stack a construct belongs to (`TerraformStack.of`). */
  readonly stackOf: (construct: IConstruct) => IConstruct;
  /** Whether a value is an unresolved token (`Token.isUnresolved`). */
  readonly isUnresolved: (value: unknown) => boolean;
  /** Adds an aspect to a scope (`Aspects.of(scope).add`). */
  readonly addAspect: (scope: IConstruct, aspect: { visit(node: IConstruct): void }) => void;
  /** A `null_resource` with these triggers and provisioner (and a null provider in its stack when needed). */
  readonly nullResource: (scope: Construct, id: string, triggers: Triggers, provisioner: LocalExec) => OverridableResource;
  /**
   * A `terraform_data` resource with these `triggers_replace` and provisioner, without a process
   * per resource at synth (cdktf's own class runs `terraform version` for each one): the Terraform
   * version is checked once per stack.
   */
  readonly dataResource: (scope: Construct, id: string, triggers: Triggers, provisioner: LocalExec) => OverridableResource;
  /** The native `alertrules_rule_user_list` resource, with its `import` block when the spec has one. */
  readonly nativeResource: (scope: Construct, id: string, spec: NativeSpec) => OverridableResource;
  /** A provider block of the native provider (`AlertRulesProvider` with no props) in `stack`. */
  readonly alertRulesProvider: (stack: IConstruct, id: string) => void;
  /** Whether a construct is a provider block of the native provider. */
  readonly isAlertRulesProvider: (construct: IConstruct) => boolean;
  /** Calls `onSynthesize` when the stack of `construct` is written (the framework's custom synthesis). */
  readonly addCustomSynthesis: (construct: IConstruct, onSynthesize: (session: SynthesisSession) => void) => void;
}

/** The framework values the members of every {@link TerraformKit} are made of: cdktf's or cdktn's, the same shape. */
export interface FrameworkValues {
  readonly TerraformStack: { of(construct: IConstruct): IConstruct };
  readonly Token: { isUnresolved(value: unknown): boolean };
  readonly Aspects: { of(scope: IConstruct): { add(aspect: { visit(node: IConstruct): void }): void } };
  readonly TerraformProvider: { isTerraformProvider(x: unknown): x is { terraformResourceType: string } };
  readonly addCustomSynthesis: (construct: IConstruct, synthesis: { onSynthesize(session: SynthesisSession): void }) => void;
}

/** The members of a kit that only call the framework, the same in both. */
export function frameworkKit(
  cdk: FrameworkValues,
): Pick<TerraformKit, "stackOf" | "isUnresolved" | "addAspect" | "isAlertRulesProvider" | "addCustomSynthesis"> {
  return {
    stackOf: (construct) => cdk.TerraformStack.of(construct),
    isUnresolved: (value) => cdk.Token.isUnresolved(value),
    addAspect: (scope, aspect) => cdk.Aspects.of(scope).add(aspect),
    isAlertRulesProvider: (c) => cdk.TerraformProvider.isTerraformProvider(c) && c.terraformResourceType === PROVIDER_LOCAL_NAME,
    addCustomSynthesis: (construct, onSynthesize) => cdk.addCustomSynthesis(construct, { onSynthesize: (session) => onSynthesize(session) }),
  };
}
