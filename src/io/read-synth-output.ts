/**
 * Reads the desired lists from the synthesized output (cdktf.out): manifest.json, then each
 * selected stack's cdk.tf.json, then every `null_resource` carrying alert-rule-users triggers.
 * Never imports cdktf and never runs the user's code: the JSON is the single source of truth.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { compareCodeUnits } from "../core/declaration/canonical";
import { DeclarationError } from "../core/declaration/errors";
import type { DeclarationFailure } from "../core/declaration/errors";
import { RESOURCE_CHILD_ID, decodeTriggers, isRuleUserListTriggers } from "../core/declaration/triggers";
import type { DeclaredList } from "../core/declaration/types";
import { ConfigError } from "../errors";
import type { DesiredList } from "../core/observation";

export interface ReadDeclarationsOptions {
  /** Only these stacks (by name); each must exist. @default - every stack of the manifest */
  readonly stacks?: readonly string[];
}

const manifestSchema = z.looseObject({
  stacks: z.record(z.string(), z.looseObject({ name: z.string(), synthesizedStackPath: z.string() })),
});

const stackSchema = z.looseObject({
  resource: z
    .looseObject({
      null_resource: z
        .record(
          z.string(),
          z.looseObject({
            triggers: z.unknown().optional(),
            "//": z.looseObject({ metadata: z.looseObject({ path: z.string().optional() }).optional() }).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

function readJson(file: string, what: string, hint: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new ConfigError(`No ${what} at ${file}. ${hint}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Synthesize again.`);
  }
}

/** The path of the RuleUserList that owns a resource: its `//.metadata.path` without the child id. */
function constructPathOf(metadataPath: string | undefined, stack: string, resourceName: string): string {
  if (metadataPath === undefined || metadataPath === "") return `${stack}/null_resource.${resourceName}`;
  const suffix = `/${RESOURCE_CHILD_ID}`;
  return metadataPath.endsWith(suffix) ? metadataPath.slice(0, -suffix.length) : metadataPath;
}

/**
 * Every declared list of the selected stacks, ordered by stack then construct path. Throws a
 * ConfigError for a missing or unreadable output or an unknown stack, and one DeclarationError
 * listing every invalid declaration (by stack and construct path).
 */
export function readDeclarations(outdir: string, options: ReadDeclarationsOptions = {}): DeclaredList[] {
  const manifestFile = path.join(outdir, "manifest.json");
  const manifestResult = manifestSchema.safeParse(
    readJson(manifestFile, "manifest.json", "Synthesize first (drop --skip-synth), or point --output at the synthesized directory."),
  );
  if (!manifestResult.success) {
    throw new ConfigError(`${manifestFile} is not a cdktf manifest:\n${z.prettifyError(manifestResult.error)}`);
  }
  const manifest = manifestResult.data;
  const available = Object.keys(manifest.stacks).sort(compareCodeUnits);

  const wanted = options.stacks === undefined || options.stacks.length === 0 ? available : [...new Set(options.stacks)];
  const unknown = wanted.filter((name) => !(name in manifest.stacks));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Unknown stack${unknown.length === 1 ? "" : "s"} ${unknown.map((s) => `"${s}"`).join(", ")}. ` +
        (available.length === 0 ? "The app synthesized no stacks." : `Stacks available: ${available.join(", ")}.`),
    );
  }

  const lists: DeclaredList[] = [];
  const failures: DeclarationFailure[] = [];
  for (const name of wanted) {
    const entry = manifest.stacks[name];
    if (entry === undefined) continue;
    const stackFile = path.join(outdir, entry.synthesizedStackPath);
    if (!stackFile.endsWith(".json")) {
      throw new ConfigError(`Stack "${name}" was synthesized as HCL (${entry.synthesizedStackPath}); synthesize JSON (unset SYNTH_HCL_OUTPUT, no hclOutput in the App config).`);
    }
    const parsed = stackSchema.safeParse(readJson(stackFile, `synthesized stack "${name}"`, "Synthesize again."));
    if (!parsed.success) {
      throw new ConfigError(`${stackFile} is not a synthesized Terraform JSON stack:\n${z.prettifyError(parsed.error)}`);
    }
    const resources = parsed.data.resource?.null_resource ?? {};
    for (const [resourceName, resource] of Object.entries(resources)) {
      if (!isRuleUserListTriggers(resource.triggers)) continue;
      const constructPath = constructPathOf(resource["//"]?.metadata?.path, name, resourceName);
      try {
        const declaration = decodeTriggers(resource.triggers, `${constructPath} (stack ${name}, null_resource.${resourceName})`);
        lists.push({ constructPath, stack: name, ...declaration });
      } catch (error) {
        if (!(error instanceof DeclarationError)) throw error;
        failures.push(...error.failures);
      }
    }
  }
  if (failures.length > 0) {
    throw new DeclarationError(failures, `Invalid rule list declarations in ${outdir}`);
  }
  return lists.sort((a, b) => compareCodeUnits(a.stack, b.stack) || compareCodeUnits(a.constructPath, b.constructPath));
}

/** The engine's view of a declared list (src/engine/observation.ts). */
export function toDesiredList(list: DeclaredList): DesiredList {
  return {
    constructPath: list.constructPath,
    stack: list.stack,
    ruleId: list.rule.kind === "id" ? list.rule.ruleId : null,
    ruleName: list.rule.kind === "name" ? list.rule.ruleName : null,
    mode: list.mode,
    allowMassRemoval: list.allowMassRemoval,
    users: list.users.map((u) => ({ userId: u.userId, aliases: [...u.aliases] })),
  };
}
