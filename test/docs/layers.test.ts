/**
 * docs/architecture.md: "every import runs down, none runs back up, and there are no circles".
 * In every folder of src/, each file and each subfolder is a room; a room imports another when
 * one of its files imports (or re-exports, type-only imports included) a file of the other. The
 * rooms of a folder import each other in no circle, so they stand in floors with every import
 * running down. Run `npx jest test/docs/layers.test.ts` to see the circles, if any, named file
 * to file.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { REPO } from "../support/cli";

const SRC = join(REPO, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The file a relative module specifier names, or null when it is a package or names no file of src. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = join(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every `import … from "x"`, `export … from "x"` and `import("x")` of a file, comments left out. */
function imports(file: string): string[] {
  const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/[^\n]*/gm, "");
  const specifiers = [...code.matchAll(/^\s*(?:import|export)\b[^;"'`]*?\bfrom\s+["']([^"']+)["']/gm), ...code.matchAll(/^\s*import\s+["']([^"']+)["']/gm), ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => m[1] ?? "",
  );
  return specifiers.flatMap((s) => resolve(file, s) ?? []);
}

const FILES = sourceFiles(SRC);
const EDGES = FILES.flatMap((from) => imports(from).map((to) => ({ from, to })));
const FOLDERS = [SRC, ...new Set(FILES.map((f) => dirname(f)).flatMap((d) => ancestors(d)))].filter((d, i, all) => all.indexOf(d) === i);

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d.startsWith(SRC); d = dirname(d)) out.push(d);
  return out;
}

/** The room of `file` inside `folder`: its first path segment there, or null when it is outside. */
function roomOf(folder: string, file: string): string | null {
  const rel = relative(folder, file);
  if (rel.startsWith("..")) return null;
  return rel.split(sep)[0] ?? null;
}

/** The circles among the rooms of one folder, each as the file-to-file imports that close it. */
function circles(folder: string): string[] {
  const arrows = new Map<string, Map<string, string>>();
  for (const { from, to } of EDGES) {
    const a = roomOf(folder, from);
    const b = roomOf(folder, to);
    if (a === null || b === null || a === b) continue;
    const out = arrows.get(a) ?? new Map<string, string>();
    if (!out.has(b)) out.set(b, `${relative(REPO, from)} -> ${relative(REPO, to)}`);
    arrows.set(a, out);
  }
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (room: string): void => {
    state.set(room, "open");
    path.push(room);
    for (const [next, why] of arrows.get(room) ?? []) {
      if (state.get(next) === "open") {
        const loop = path.slice(path.indexOf(next));
        found.push([...loop.map((r, i) => arrows.get(r)?.get(loop[i + 1] ?? next) ?? ""), why].filter((w, i, all) => all.indexOf(w) === i).join("; "));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(room, "done");
  };
  for (const room of arrows.keys()) if (!state.has(room)) visit(room);
  return found;
}

it("reads the imports of every source file", () => {
  expect(FILES.length).toBeGreaterThan(100);
  expect(EDGES.length).toBeGreaterThan(FILES.length);
});

it.each(FOLDERS.map((f) => relative(REPO, f)))("the rooms of %s import each other in no circle", (folder) => {
  expect(circles(join(REPO, folder))).toEqual([]);
});
