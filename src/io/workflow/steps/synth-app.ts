/**
 * `synth` for the Terraform path: runs the app into its output directory (as plan does) and reads
 * back what Terraform will run: each stack's directory and the lists it declares. No connection,
 * no token: nothing here talks to the service.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { compareStrings } from "../../../core/engine/canonical";
import { readDesired } from "./declared";
import type { SynthSettings } from "../session/session";

/** One synthesized stack: where Terraform runs it, and how many RuleUserLists it holds. */
export interface SynthesizedStack {
  readonly name: string;
  /** The directory of its cdk.tf.json (absolute). */
  readonly dir: string;
  readonly lists: number;
}

const manifestSchema = z.looseObject({
  stacks: z.record(z.string(), z.looseObject({ synthesizedStackPath: z.string() })),
});

/**
 * Synthesizes the app and validates every declaration (the same checks as plan: a duplicate rule,
 * an invalid mode or a policy violation fails here, before Terraform). Returns the selected
 * stacks by name.
 */
export async function synthesizeApp(settings: SynthSettings): Promise<SynthesizedStack[]> {
  const lists = await readDesired(settings);
  // readDesired has read and checked the manifest already: it is there and well formed.
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(settings.outdir, "manifest.json"), "utf8")));
  const names = settings.stacks.length > 0 ? [...new Set(settings.stacks)] : Object.keys(manifest.stacks);
  return names
    .sort(compareStrings)
    .map((name) => ({
      name,
      dir: path.dirname(path.join(settings.outdir, manifest.stacks[name]!.synthesizedStackPath)),
      lists: lists.filter((l) => l.stack === name).length,
    }));
}
