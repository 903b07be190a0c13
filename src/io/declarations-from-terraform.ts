/**
 * `synth --from-terraform-plan FILE`: reads `terraform show -json PLANFILE` and writes the
 * declarations it holds as a synthesized output directory (src/core/declaration/terraform-show.ts),
 * which `plan --skip-synth --output DIR` then reads as data where the service is read.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { declarationsFromTerraformShow } from "../core/declaration/terraform-show";
import { readDeclarations } from "./read-synth-output";
import { ConfigError } from "../errors";
import { messageOf } from "../shared/text";

/** Writes the declarations of FILE to outdir (emptied first) and returns how many lists it holds. */
export function writeDeclarationsFromTerraformShow(file: string, outdir: string): number {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`${file} could not be read as JSON (${messageOf(err)}): give the output of terraform show -json PLANFILE.`);
  }
  const files = declarationsFromTerraformShow(json, file);
  rmSync(outdir, { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) {
    const target = join(outdir, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(content, null, 2)}\n`);
  }
  // Read back as plan --skip-synth will: an invalid declaration fails here, where it was made.
  return readDeclarations(outdir).length;
}
