/**
 * Reads the desired lists from the synthesized output (cdktf.out): manifest.json, then each
 * selected stack's cdk.tf.json, decoded by the pure decodeStack. Never imports cdktf and never runs
 * the user's code: the JSON is the single source of truth.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { compareStrings } from "../core/engine/canonical";
import { decodeStack } from "../core/declaration/decode-stack";
import type { DesiredList } from "../core/engine/desired";
import { ConfigError, DeclarationError } from "../errors";
import type { DeclarationFailure } from "../errors";
import { suggest } from "../core/engine/suggest";
import { messageOf } from "../shared/text";

/** `"alert-rule"` or `"alert-rule" (did you mean "alert-rules"?)`: a stack name the app does not have. */
function withSuggestion(stack: string, available: readonly string[]): string {
  const near = suggest(stack, available);
  return near === undefined ? `"${stack}"` : `"${stack}" (did you mean "${near}"?)`;
}

export interface ReadDeclarationsOptions {
  /** Only these stacks (by name); each must exist. @default - every stack of the manifest */
  readonly stacks?: readonly string[];
}

const manifestSchema = z.looseObject({
  stacks: z.record(z.string(), z.looseObject({ name: z.string(), synthesizedStackPath: z.string() })),
});

/** The path with its links resolved, or as given when it does not exist (reading it then says so). */
function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

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
    throw new ConfigError(`${file} is not valid JSON (${messageOf(error)}). Synthesize again.`);
  }
}

/**
 * Every declared list of the selected stacks, ordered by stack then construct path. Throws a
 * ConfigError for a missing or unreadable output or an unknown stack, and one DeclarationError
 * listing every invalid declaration (by stack and construct path).
 */
export function readDeclarations(outdir: string, options: ReadDeclarationsOptions = {}): DesiredList[] {
  const manifestFile = path.join(outdir, "manifest.json");
  const manifestResult = manifestSchema.safeParse(
    readJson(manifestFile, "manifest.json", "Synthesize first (drop --skip-synth), or point --output at the synthesized directory."),
  );
  if (!manifestResult.success) {
    throw new ConfigError(`${manifestFile} is not a cdktf manifest:\n${z.prettifyError(manifestResult.error)}`);
  }
  const manifest = manifestResult.data;
  const available = Object.keys(manifest.stacks).sort(compareStrings);

  const wanted = options.stacks === undefined || options.stacks.length === 0 ? available : [...new Set(options.stacks)];
  const unknown = wanted.filter((name) => !(name in manifest.stacks));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Unknown stack${unknown.length === 1 ? "" : "s"} ${unknown.map((s) => withSuggestion(s, available)).join(", ")}. ` +
        (available.length === 0 ? "The app synthesized no stacks." : `Stacks available: ${available.join(", ")}.`),
    );
  }

  const lists: DesiredList[] = [];
  const failures: DeclarationFailure[] = [];
  for (const name of wanted) {
    const entry = manifest.stacks[name];
    if (entry === undefined) continue;
    const stackFile = path.join(outdir, entry.synthesizedStackPath);
    // The output may come from elsewhere (plan --skip-synth on a pull request's synth, docs/ci.md):
    // a stack path is read only inside the output directory, links resolved.
    const inside = (file: string): boolean => {
      const relative = path.relative(realpathOr(outdir), realpathOr(file));
      return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
    };
    if (!inside(stackFile)) {
      throw new ConfigError(`Stack "${name}": its synthesized file (${entry.synthesizedStackPath}) is outside ${outdir}; a cdktf manifest names files inside its output directory. Synthesize again.`);
    }
    if (!stackFile.endsWith(".json")) {
      throw new ConfigError(`Stack "${name}" was synthesized as HCL (${entry.synthesizedStackPath}); synthesize JSON (unset SYNTH_HCL_OUTPUT, no hclOutput in the App config).`);
    }
    try {
      lists.push(...decodeStack(name, readJson(stackFile, `synthesized stack "${name}"`, "Synthesize again."), stackFile));
    } catch (error) {
      if (!(error instanceof DeclarationError)) throw error;
      failures.push(...error.failures);
    }
  }
  if (failures.length > 0) {
    throw new DeclarationError(failures, `Invalid rule list declarations in ${outdir}`);
  }
  return lists.sort((a, b) => compareStrings(a.stack, b.stack) || compareStrings(a.constructPath, b.constructPath));
}
