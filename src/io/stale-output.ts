/**
 * `--skip-synth` reads a synthesized output as it is: when the app's sources changed after it was
 * written, what it declares may not be the app any more. This finds that case, to warn: a report
 * or plan made from a stale cdktf.out without a word would be trusted as the app's.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Source files of an app, by extension (cdktf's languages, and the JSON the app reads). */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json|py|go|java|cs)$/;
/** Directories that hold no source of the app. */
const SKIPPED = new Set(["node_modules", ".git", ".terraform", "dist"]);
const MAX_DEPTH = 4;
const MAX_FILES = 5_000;

/** The newest source file under `dir` (not in node_modules, hidden directories or `outdir`), bounded in depth and count. */
function newestSource(dir: string, outdir: string): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null;
  let seen = 0;
  const walk = (at: string, depth: number): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of names) {
      if (seen >= MAX_FILES) return;
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED.has(entry.name) && !entry.name.startsWith(".") && path.resolve(full) !== outdir) walk(full, depth + 1);
      } else if (entry.isFile() && SOURCE.test(entry.name) && entry.name !== "package-lock.json") {
        seen += 1;
        const mtimeMs = fs.statSync(full).mtimeMs;
        if (newest === null || mtimeMs > newest.mtimeMs) newest = { file: full, mtimeMs };
      }
    }
  };
  walk(dir, 0);
  return newest;
}

/**
 * A warning when the synthesized output in `outdir` (its manifest.json) is older than a source
 * file of the app in `cwd`; null when it is not, or when either is missing (reading the output
 * then fails with its own message).
 */
export function staleSynthOutput(cwd: string, outdir: string): string | null {
  const manifest = path.join(outdir, "manifest.json");
  let written: number;
  try {
    written = fs.statSync(manifest).mtimeMs;
  } catch {
    return null;
  }
  const newest = newestSource(cwd, path.resolve(outdir));
  if (newest === null || newest.mtimeMs <= written) return null;
  const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
  return (
    `Warning: --skip-synth reads ${path.relative(cwd, outdir) || outdir}, synthesized at ${iso(written)}, before ` +
    `${path.relative(cwd, newest.file)} last changed (${iso(newest.mtimeMs)}): it may not declare what the app declares now. ` +
    "Drop --skip-synth to synthesize again."
  );
}
