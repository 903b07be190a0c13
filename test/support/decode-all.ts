/** An app synthesized as `cdktf synth` writes it, every stack's lists decoded: for the construct tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import type { DesiredList } from "../../src/core/engine/desired";

/** Synthesizes the app, then decodes every stack of its manifest (`//` blocks included). */
export function decodeAll(app: { readonly outdir: string; synth(): void }): DesiredList[] {
  app.synth();
  const manifest = JSON.parse(readFileSync(join(app.outdir, "manifest.json"), "utf8")) as { stacks: Record<string, { synthesizedStackPath: string }> };
  return Object.entries(manifest.stacks).flatMap(([name, stack]) =>
    decodeStack(name, JSON.parse(readFileSync(join(app.outdir, stack.synthesizedStackPath), "utf8"))),
  );
}
