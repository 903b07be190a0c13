/**
 * A Terraform plan as plain data (`terraform show -json PLANFILE`) → the declarations it holds, as
 * a synthesized output (cdktf.out's shape: manifest.json and one stack's cdk.tf.json) that
 * `plan --skip-synth --output DIR` reads like any other (docs/provider-workflows.md). Pure: no
 * files. Only the planned values of managed `alertrules_rule_user_list` resources are taken, in
 * every module; outputs, variables, prior state and every other resource are left behind, so what
 * leaves the job that evaluated the configuration is declarations and nothing else.
 */
import { z } from "zod";
import { ConfigError } from "../../errors";
import { compareStrings } from "../engine/canonical";
import { NATIVE_RESOURCE_TYPE } from "../native/native-provider";
import { escapeTemplate } from "./triggers";

/** The stack name the declarations of an HCL configuration are written under. */
export const HCL_STACK = "hcl";

interface ModuleValues {
  readonly resources?: readonly { address: string; mode: string; type: string; values?: Record<string, unknown> | undefined }[] | undefined;
  readonly child_modules?: readonly ModuleValues[] | undefined;
}

const moduleSchema: z.ZodType<ModuleValues> = z.lazy(() =>
  z.looseObject({
    resources: z.array(z.looseObject({ address: z.string(), mode: z.string(), type: z.string(), values: z.record(z.string(), z.unknown()).optional() })).optional(),
    child_modules: z.array(moduleSchema).optional(),
  }),
);

const showSchema = z.looseObject({
  format_version: z.string(),
  planned_values: z.looseObject({ root_module: moduleSchema }).optional(),
});

/** Every string (object keys too) escaped as a `.tf.json` file needs it; what readers unescape. */
function escaped(value: unknown): unknown {
  if (typeof value === "string") return escapeTemplate(value);
  if (Array.isArray(value)) return value.map(escaped);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeTemplate(k), escaped(v)]));
  return value;
}

function resourcesOf(module: ModuleValues): { address: string; values: Record<string, unknown> }[] {
  const own = (module.resources ?? []).filter((r) => r.mode === "managed" && r.type === NATIVE_RESOURCE_TYPE).map((r) => ({ address: r.address, values: r.values ?? {} }));
  return [...own, ...(module.child_modules ?? []).flatMap(resourcesOf)];
}

/** The files of the synthesized output, by path relative to it. */
export interface DeclarationsOutput {
  readonly "manifest.json": unknown;
  readonly [stackFile: string]: unknown;
}

/**
 * The declarations of a plan's JSON, as an output directory's files. `where` names the input in
 * errors. Throws a ConfigError when the input is not `terraform show -json` of a plan.
 */
export function declarationsFromTerraformShow(json: unknown, where: string): DeclarationsOutput {
  const parsed = showSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`${where} is not the JSON of a Terraform plan (terraform show -json PLANFILE):\n${z.prettifyError(parsed.error)}`);
  }
  const resources = parsed.data.planned_values === undefined ? [] : resourcesOf(parsed.data.planned_values.root_module);
  const declared: Record<string, unknown> = {};
  for (const { address, values } of resources.sort((a, b) => compareStrings(a.address, b.address))) {
    declared[address] = { ...(escaped(values) as Record<string, unknown>), "//": { metadata: { path: address } } };
  }
  const stackFile = `stacks/${HCL_STACK}/cdk.tf.json`;
  return {
    "manifest.json": { version: "terraform-show", stacks: { [HCL_STACK]: { name: HCL_STACK, synthesizedStackPath: stackFile } } },
    [stackFile]: resources.length === 0 ? {} : { resource: { [NATIVE_RESOURCE_TYPE]: declared } },
  };
}
