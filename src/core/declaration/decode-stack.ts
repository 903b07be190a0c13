/**
 * decodeStack: one synthesized Terraform JSON stack (`cdk.tf.json`, already parsed) → the rule
 * lists it declares. Pure: no files, no cdktf. Every `null_resource` (its `triggers`) and every
 * `terraform_data` (its `triggers_replace`) carrying alert-rule-users triggers is decoded, and every
 * native `alertrules_rule_user_list` (its attributes, declaration/native.ts); all invalid
 * declarations are reported at once, each with its construct path.
 */
import { z } from "zod";
import { ConfigError, DeclarationError } from "../../errors";
import type { DeclarationFailure } from "../../errors";
import { compareStrings } from "../engine/canonical";
import { RESOURCE_CHILD_ID, decodeTriggers, isRuleUserListTriggers } from "./triggers";
import { decodeNativeAttributes } from "./native";
import { NATIVE_RESOURCE_TYPE } from "../native/native-provider";
import type { DesiredList } from "../engine/desired";
import { POLICIES_KEY, decodePolicies } from "../engine/policy-schema";

const resourceSchema = z.looseObject({
  triggers: z.unknown().optional(),
  triggers_replace: z.unknown().optional(),
  "//": z
    .looseObject({ metadata: z.looseObject({ path: z.string().optional() }).optional(), [POLICIES_KEY]: z.unknown().optional() })
    .optional(),
});

const stackSchema = z.looseObject({
  resource: z
    .looseObject({
      null_resource: z.record(z.string(), resourceSchema).optional(),
      terraform_data: z.record(z.string(), resourceSchema).optional(),
      [NATIVE_RESOURCE_TYPE]: z.record(z.string(), resourceSchema).optional(),
    })
    .optional(),
});

/** The resource types a RuleUserList synthesizes, with the attribute that holds its triggers. */
const CARRIERS = [
  { type: "null_resource", attribute: "triggers" },
  { type: "terraform_data", attribute: "triggers_replace" },
] as const;

/** The path of the RuleUserList that owns a resource: its `//.metadata.path` without the child id. */
function constructPathOf(metadataPath: string | undefined, stack: string, address: string): string {
  if (metadataPath === undefined || metadataPath === "") return `${stack}/${address}`;
  const suffix = `/${RESOURCE_CHILD_ID}`;
  return metadataPath.endsWith(suffix) ? metadataPath.slice(0, -suffix.length) : metadataPath;
}

/**
 * The lists declared in one stack, ordered by construct path. `where` names the stack's source in
 * messages (a file path). Throws a ConfigError when the JSON is not a Terraform JSON stack, and one
 * DeclarationError listing every invalid declaration.
 */
export function decodeStack(stack: string, json: unknown, where = `stack "${stack}"`): DesiredList[] {
  const parsed = stackSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`${where} is not a synthesized Terraform JSON stack:\n${z.prettifyError(parsed.error)}`);
  }
  const lists: DesiredList[] = [];
  const failures: DeclarationFailure[] = [];
  for (const { type, attribute } of CARRIERS) {
    for (const [resourceName, resource] of Object.entries(parsed.data.resource?.[type] ?? {})) {
      const triggers = resource[attribute];
      if (!isRuleUserListTriggers(triggers)) continue;
      const address = `${type}.${resourceName}`;
      const constructPath = constructPathOf(resource["//"]?.metadata?.path, stack, address);
      try {
        const where = `${constructPath} (stack ${stack}, ${address})`;
        const declaration = decodeTriggers(triggers, where, attribute);
        const policies = decodePolicies(resource["//"]?.[POLICIES_KEY], where, `"//".${POLICIES_KEY}`);
        lists.push({ constructPath, stack, ...declaration, ...(policies.length > 0 ? { policies } : {}) });
      } catch (error) {
        if (!(error instanceof DeclarationError)) throw error;
        for (const failure of error.failures) failures.push(failure); // never spread: a list may hold very many
      }
    }
  }
  for (const [resourceName, resource] of Object.entries(parsed.data.resource?.[NATIVE_RESOURCE_TYPE] ?? {})) {
    const address = `${NATIVE_RESOURCE_TYPE}.${resourceName}`;
    const constructPath = constructPathOf(resource["//"]?.metadata?.path, stack, address);
    try {
      const { declaration, policies } = decodeNativeAttributes(resource, `${constructPath} (stack ${stack}, ${address})`);
      lists.push({ constructPath, stack, ...declaration, ...(policies.length > 0 ? { policies } : {}) });
    } catch (error) {
      if (!(error instanceof DeclarationError)) throw error;
      for (const failure of error.failures) failures.push(failure);
    }
  }
  if (failures.length > 0) throw new DeclarationError(failures, `Invalid rule list declarations in ${where}`);
  return lists.sort((a, b) => compareStrings(a.constructPath, b.constructPath));
}
