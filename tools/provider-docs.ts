/**
 * `npm run docs:provider`: writes the provider's pages (docs/provider/, the registry's layout) from
 * its table of types (src/provider/provider.ts, each type with its schema), the examples under
 * examples/provider/ and the guides' templates under templates/provider/guides/
 * (src/provider/docs.ts makes them). `--check` writes
 * nothing and exits 1 naming every page that differs from what would be written.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { DocsInput } from "../src/provider/docs";
import { DOCS_ROOT, EXAMPLES_ROOT, GUIDES_ROOT, providerDocs, providerTypes } from "../src/provider/docs";

const ROOT = join(__dirname, "..");

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** What the pages are made of, read from the repository at `root`. */
export function readDocsInput(root: string = ROOT): DocsInput {
  const examplesDir = join(root, EXAMPLES_ROOT);
  const examples = new Map(filesUnder(examplesDir).map((path) => [relative(examplesDir, path).split("\\").join("/"), readFileSync(path, "utf8")] as const));
  const guidesDir = join(root, GUIDES_ROOT);
  const guides = new Map(
    filesUnder(guidesDir)
      .filter((path) => path.endsWith(".md"))
      .map((path) => [relative(guidesDir, path).replace(/\.md$/, ""), readFileSync(path, "utf8")] as const),
  );
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  return { version, types: providerTypes(), examples, guides };
}

/** The pages on disk under docs/provider/, by path from `root`. */
export function pagesOnDisk(root: string = ROOT): Map<string, string> {
  return new Map(filesUnder(join(root, DOCS_ROOT)).map((path) => [relative(root, path).split("\\").join("/"), readFileSync(path, "utf8")] as const));
}

/** The pages that differ between what would be written and what is on disk (written, changed or stale). */
export function differences(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of expected) if (actual.get(path) !== text) out.push(`${path} ${actual.has(path) ? "differs from the schema" : "is missing"}`);
  for (const path of actual.keys()) if (!expected.has(path)) out.push(`${path} is not generated (stale)`);
  return out.sort();
}

function main(argv: readonly string[]): number {
  const expected = providerDocs(readDocsInput());
  const actual = pagesOnDisk();
  const differ = differences(expected, actual);
  if (argv.includes("--check")) {
    if (differ.length === 0) return 0;
    process.stderr.write(`The provider's pages are not what the schema gives:\n${differ.map((d) => `  ${d}`).join("\n")}\nRun npm run docs:provider and commit the pages.\n`);
    return 1;
  }
  for (const path of actual.keys()) if (!expected.has(path)) rmSync(join(ROOT, path));
  for (const [path, text] of expected) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), text);
  }
  process.stdout.write(`${expected.size} pages written under ${DOCS_ROOT}/ (${differ.length} changed).\n`);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
