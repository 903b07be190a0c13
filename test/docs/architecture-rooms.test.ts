/**
 * docs/architecture.md names rooms that exist, and states the doors' allowed imports as the lint
 * rule enforces them (DOORS in eslint-rules/door-imports.mjs): a room moved or a door widened
 * without the page redrawn fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";

const PAGE = readFileSync(join(REPO, "docs", "architecture.md"), "utf8");

/** A path of the repository as the page writes it (`src/io/`, `src/core/engine/operations.ts`, `src/io/execute`): a file, a `.ts` file or a folder. */
function exists(path: string): boolean {
  const bare = path.replace(/\/$/, "");
  return existsSync(join(REPO, bare)) || existsSync(join(REPO, `${bare}.ts`));
}

/** Every `src/…` path the page writes in backticks or in its drawing of the floors. */
function namedSrcPaths(): string[] {
  const quoted = [...PAGE.matchAll(/`(src\/[A-Za-z0-9_./-]*)`/g)].map((m) => m[1]!);
  const floors = [...PAGE.matchAll(/^ (?:floor \d+| {7}) {2}(src\/\S+)/gm)].map((m) => m[1]!);
  return [...new Set([...quoted, ...floors])].sort();
}

/** The files the composition table names, each in src/io/workflow/ (`runs/plan-run.ts`, `steps/plan.ts`). */
function workflowFiles(): string[] {
  const section = PAGE.slice(PAGE.indexOf("## One composition point"), PAGE.indexOf("The CLI (`src/cli/`)"));
  const firstCells = [...section.matchAll(/^\| ([^|]+) \|/gm)].map((m) => m[1]!);
  return firstCells.flatMap((cell) => [...cell.matchAll(/`([a-z0-9/-]+\.ts)`/g)].map((m) => `src/io/workflow/${m[1]!}`));
}

/** A door's allowed imports, as `exact` and `prefix*` names, sorted. */
type Doors = Record<string, string[]>;

/** The rule's DOORS, read from its source. */
function ruleDoors(): Doors {
  const source = readFileSync(join(REPO, "eslint-rules", "door-imports.mjs"), "utf8");
  const block = source.slice(source.indexOf("const DOORS = {"), source.indexOf("};", source.indexOf("const DOORS = {")));
  const names = (list: string) => [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const doors: Doors = {};
  for (const m of block.matchAll(/"([^"]+)":\s*\{\s*exact:\s*\[([^\]]*)\],\s*prefixes:\s*\[([^\]]*)\]\s*\}/g)) {
    doors[m[1]!] = [...names(m[2]!), ...names(m[3]!).map((p) => `${p}*`)].sort();
  }
  return doors;
}

/** The page's table of doors (under "The doors compose nothing"). */
function pageDoors(): Doors {
  const doors: Doors = {};
  for (const m of PAGE.matchAll(/^ {2}\| `(src\/[^`]+)` \| ([^|]+) \|$/gm)) {
    doors[m[1]!] = [...m[2]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!).sort();
  }
  return doors;
}

describe("docs/architecture.md", () => {
  it("names only rooms and files that exist", () => {
    const named = [...namedSrcPaths(), ...workflowFiles()];
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((path) => !exists(path))).toEqual([]);
  });

  it("states each door's allowed imports as the lint rule enforces them", () => {
    const rule = ruleDoors();
    expect(Object.keys(rule).sort()).toEqual(["src/cli/", "src/provider/", "src/provider/protocol/"]);
    expect(pageDoors()).toEqual(rule);
  });

  it("names the rooms of src/core and src/io/workflow that stand in the tree", () => {
    const named = namedSrcPaths();
    for (const room of ["engine", "declaration", "native", "live", "changed-since", "report", "doctor", "import", "init", "render"]) {
      expect(named).toContain(`src/core/${room}/`);
    }
    expect(workflowFiles().map((path) => path.split("/")[3])).toEqual(expect.arrayContaining(["runs", "steps", "session", "provider"]));
  });

  it("keeps io/workflow's index to the calls the doors make, at most 40 names", () => {
    const index = readFileSync(join(REPO, "src", "io", "workflow", "index.ts"), "utf8");
    const names = [...index.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(",").map((n) => n.trim()).filter(Boolean));
    expect(index).not.toMatch(/^export \*/m);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(40);
  });
});
