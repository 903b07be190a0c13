/**
 * `synth --from-terraform-plan FILE`: reads `terraform show -json PLANFILE` and writes the
 * declarations it holds as a synthesized output directory (src/core/declaration/terraform-show.ts),
 * which `plan --skip-synth --output DIR` then reads as data where the service is read.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { declarationsFromTerraformShow } from "../core/declaration/terraform-show";
import { nativeChangesOf, type NativeChange } from "../core/native/terraform-changes";
import type { Evaluation } from "../core/render/evaluation";
import { readDeclarations } from "./read-synth-output";
import { ConfigError } from "../errors";
import { messageOf } from "../shared/text";

/** The JSON of FILE (terraform show -json PLANFILE), or a ConfigError that says what to give. */
function readShowJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`${file} could not be read as JSON (${messageOf(err)}): give the output of terraform show -json PLANFILE.`);
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

/** The most of an evaluation's log that is read (its end). */
const EVALUATION_LOG_READ = 64 * 1024;

/** The last `max` bytes of a file, as text ("" when it does not exist). */
function readEnd(file: string, max: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return "";
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, max);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The evaluation a job without secrets wrote (ci.sh evaluate: DIR/outcome, DIR/evaluation.log), read
 * as data: the outcome must be one of its three words, and only the log's end is read.
 */
export function readEvaluation(dir: string): Evaluation {
  const outcome = readEnd(join(dir, "outcome"), 64).trim();
  if (outcome !== "planned" && outcome !== "needs-data" && outcome !== "failed") {
    throw new ConfigError(`${join(dir, "outcome")} does not hold an evaluation's outcome (planned, needs-data or failed): give the directory the evaluation job uploaded.`);
  }
  return { outcome, log: readEnd(join(dir, "evaluation.log"), EVALUATION_LOG_READ) };
}
