/**
 * What the cdktf and the cdktn bindings of the native provider share (rule-user-list.ts and
 * cdktn.ts each hold a hand-written `TerraformProvider` and `TerraformResource` of their framework,
 * no `cdktf get`, each a few lines that call into here): the provider's props, configuration and
 * attributes, the resource's configuration, the `removed` block of a move, and the aspect that
 * drops a provider a list added when the stack has its own.
 */
import type { IConstruct } from "constructs";
import { escapeTemplate } from "../core/declaration";
import { NATIVE_RESOURCE_TYPE, PROVIDER_LOCAL_NAME, PROVIDER_SOURCE } from "../core/native/native-provider";
import { TOOL_VERSION } from "../io/version";
import type { NativeAttributes } from "../core/declaration/native";

/** The provisioner resource types a native list can be moved from. */
export type ProvisionerResourceType = "null_resource" | "terraform_data";

/** What a framework needs to build the native resource of a list. */
export interface NativeSpec {
  /** The attributes, read at synth (the policies that apply are known only then). */
  readonly attributes: () => NativeAttributes;
  /** The provisioner resource the list had, for the `moved` block (or, moved by import, the `removed` block). */
  readonly movedFrom?: ProvisionerResourceType;
  /** How the list moves: a `moved` block (Terraform 1.8+), or `removed` and `import` blocks (Terraform 1.7+). @default "moved" */
  readonly moveWith?: "moved" | "import";
  /** The rule ID of the `import` block. */
  readonly importId?: string;
}

/**
 * The native provider's arguments; each is optional and falls back to its environment variable.
 * There is no `token`: a synthesized stack is a file, and a token never goes into one (set
 * ALERTS_API_TOKEN, or `tokenCommand`).
 */
export interface AlertRulesProviderProps {
  /** @default - ALERTS_API_URL */
  readonly url?: string;
  /** @default - ALERTS_TENANT_ID */
  readonly tenantId?: string;
  /** A command that prints a token (docs/contract.md §10.2). @default - ALERTS_API_TOKEN_COMMAND */
  readonly tokenCommand?: string;
  /** Most requests a second to the service, as `--max-rps`. @default - the CLI's default */
  readonly maxRps?: number;
}

/** The id, in a stack, of the provider a native list adds when the stack has none. */
export const PROVIDER_CHILD_ID = "alert-rule-users-alertrules";

export const HCL_OUTPUT_UNSUPPORTED =
  "RuleUserList: the alertrules_rule_user_list resource synthesizes JSON only; unset SYNTH_HCL_OUTPUT (or hclOutput in the App config).";

export function providerAttributes(props: AlertRulesProviderProps): Record<string, unknown> {
  return {
    ...(props.url === undefined ? {} : { url: escapeTemplate(props.url) }),
    ...(props.tenantId === undefined ? {} : { tenant_id: escapeTemplate(props.tenantId) }),
    ...(props.tokenCommand === undefined ? {} : { token_command: escapeTemplate(props.tokenCommand) }),
    ...(props.maxRps === undefined ? {} : { max_rps: props.maxRps }),
  };
}

const GENERATOR = { providerName: PROVIDER_LOCAL_NAME, providerVersion: TOOL_VERSION };

/** The `TerraformProvider` configuration of the native provider, in either framework. */
export const PROVIDER_CONFIG = { terraformResourceType: PROVIDER_LOCAL_NAME, terraformGeneratorMetadata: GENERATOR, terraformProviderSource: PROVIDER_SOURCE };

/** The `TerraformResource` configuration of `alertrules_rule_user_list`, in either framework. */
export const NATIVE_RESOURCE_CONFIG = { terraformResourceType: NATIVE_RESOURCE_TYPE, terraformGeneratorMetadata: GENERATOR };

/** The `removed` block that forgets the provisioner resource a list had, destroying nothing. */
export function removedBlock(from: ProvisionerResourceType, logicalId: string): Record<string, unknown> {
  return { from: `${from}.${logicalId}`, lifecycle: { destroy: false } };
}

/** The `moved` block that carries the provisioner resource's state over (the provider's MoveResourceState: no request). */
export function movedBlock(from: ProvisionerResourceType, logicalId: string): Record<string, unknown> {
  return { from: `${from}.${logicalId}`, to: `${NATIVE_RESOURCE_TYPE}.${logicalId}` };
}

/** A native resource's JSON (`toTerraform`), with the `moved` block (or the `removed` block) of its move when it has one. */
export function withMove(tf: unknown, spec: NativeSpec, logicalId: string): Record<string, unknown> {
  const json = tf as Record<string, unknown>;
  if (spec.movedFrom === undefined) return json;
  return spec.moveWith === "import" ? { ...json, removed: [removedBlock(spec.movedFrom, logicalId)] } : { ...json, moved: [movedBlock(spec.movedFrom, logicalId)] };
}

/**
 * Removes, at synth, the provider child `childId` that a list added to `stack` when the stack
 * holds another provider of the same kind (`isSame`), declared before or after the lists: two
 * default provider blocks are a Terraform error.
 */
export class ProviderDedupe {
  constructor(
    private readonly stack: IConstruct,
    private readonly childId: string,
    private readonly isSame: (construct: IConstruct) => boolean,
  ) {}

  visit(node: IConstruct): void {
    if (node !== this.stack) return;
    const ours = this.stack.node.tryFindChild(this.childId);
    if (ours !== undefined && this.stack.node.findAll().some((c) => c !== ours && this.isSame(c))) this.stack.node.tryRemoveChild(this.childId);
  }
}
