/**
 * `synth --from-terraform-plan FILE`: reads `terraform show -json PLANFILE` and writes the
 * declarations it holds as a synthesized output directory (src/core/declaration/terraform-show.ts),
 * which `plan --skip-synth --output DIR` then reads as data where the service is read.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { declarationsFromTerraformShow } from "../core/declaration/terraform-show";
import { nativeChangesOf, type NativeChange } from "../core/native/terraform-changes";
import { readDeclarations } from "./read-synth-output";
import { ConfigError } from "../errors";

/** The JSON of FILE (terraform show -json PLANFILE), or a ConfigError that says what to give. */
function readShowJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`${file} could not be read as JSON (${err instanceof Error ? err.message : String(err)}): give the output of terraform show -json PLANFILE.`);
  }
}

/** The alertrules_rule_user_list changes of FILE (terraform show -json PLANFILE): what its apply does to the live lists. */
export function readTerraformPlanChanges(file: string): NativeChange[] {
  return nativeChangesOf(readShowJson(file), file);
}

/** Writes the declarations of FILE to outdir (emptied first) and returns how many lists it holds. */
export function writeDeclarationsFromTerraformShow(file: string, outdir: string): number {
  const files = declarationsFromTerraformShow(readShowJson(file), file);
  rmSync(outdir, { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) {
    const target = join(outdir, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(content, null, 2)}\n`);
  }
  // Read back as plan --skip-synth will: an invalid declaration fails here, where it was made.
  return readDeclarations(outdir).length;
}
