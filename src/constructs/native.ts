/**
 * What the cdktf and the cdktn bindings of the native provider share (rule-user-list.ts and
 * cdktn.ts each hold a hand-written `TerraformProvider` and `TerraformResource` of their framework,
 * no `cdktf get`): the provider's props and attributes, and the `removed` block of a move.
 */
import { escapeTemplate } from "../core/declaration";
import type { ProvisionerResourceType } from "./rule-user-list-base";

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

/** The `removed` block that forgets the provisioner resource a list had, destroying nothing. */
export function removedBlock(from: ProvisionerResourceType, logicalId: string): Record<string, unknown> {
  return { from: `${from}.${logicalId}`, lifecycle: { destroy: false } };
}
