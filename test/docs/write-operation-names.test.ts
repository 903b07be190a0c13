/**
 * Which operations are writes is said once: the wire's table and request schemas
 * (src/api/rules/schemas.ts, with the client's method for each beside them in src/api/rules/), the
 * operation table (src/core/engine/operations.ts) and the simulator that serves them (src/simulator/).
 * Elsewhere in src/ a write operation is never spelt as a string (code asks the table: its
 * phase, its calls, WRITE_OPERATION_LIST), and nowhere (src/, bench/, tools/, test/) is a list of
 * writes written out as alternatives of a pattern, the hand-kept list that silently misses a new
 * operation (test/support/write-operations.ts: isWrite, namesWrite). A test or a bench scenario may
 * name one operation as data: the request it expects, the fault it injects.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { WRITE_OPERATION_LIST } from "../../src/core/engine/operations";
import { REPO } from "../support/cli";

/** Where a write operation's name may stand as a string of its own. */
const OWNERS = ["src/api/rules/", "src/core/engine/operations.ts", "src/simulator/"];

/**
 * bench/ files that name operations on purpose, each for its reason: the vendor's per-user script
 * (written from docs/interface.md with none of our code, the baseline the tool is measured
 * against) and its rows, and the call bound (a record over WriteOperation computed from a plan's
 * changes, not from the table's calls, so that it checks the planner).
 */
const BENCH_OWNERS = ["bench/lib/per-user-script.ts", "bench/lib/tenant.ts", "bench/lib/bound.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every string, template piece and regular expression of a file, as written (quotes and slashes included), with its line. */
function literals(file: string): { text: string; line: number }[] {
  const code = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      out.push({ text: node.getText(source), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const NAME = WRITE_OPERATION_LIST.join("|");
/** A string that is a write operation's name and nothing else. */
const BARE_NAME = new RegExp(`^["'\`](${NAME})["'\`]$`);
/** Two write operations as alternatives of a pattern: `add-users|remove-users`. */
const LISTED = new RegExp(`\\b(${NAME})\\s*\\|\\s*\\(?\\s*(${NAME})\\b`);

const rel = (file: string): string => relative(REPO, file).split("\\").join("/");
const FILES = ["src", "bench", "tools", "test"].flatMap((dir) => sourceFiles(join(REPO, dir))).map((file) => ({ file, path: rel(file) }));

describe("write operations are named where they are declared", () => {
  it("finds the table's four writes and the files it reads", () => {
    expect(WRITE_OPERATION_LIST.length).toBeGreaterThanOrEqual(4);
    expect(FILES.filter((f) => f.path.startsWith("src/")).length).toBeGreaterThan(200);
  });

  it("src/ and bench/ spell a write operation as a string only in the wire, the operation table and the simulator", () => {
    const found = FILES.filter(({ path }) => (path.startsWith("src/") || path.startsWith("bench/") || path.startsWith("tools/")) && !OWNERS.some((o) => path.startsWith(o)) && !BENCH_OWNERS.includes(path)).flatMap(({ file, path }) =>
      literals(file)
        .filter((l) => BARE_NAME.test(l.text))
        .map((l) => `${path}:${l.line} ${l.text}`),
    );
    expect(found).toEqual([]);
  });

  it("no file lists the writes by hand as alternatives of a pattern", () => {
    const found = FILES.filter(({ path }) => !path.startsWith("src/simulator/")).flatMap(({ file, path }) =>
      literals(file)
        .filter((l) => LISTED.test(l.text))
        .map((l) => `${path}:${l.line} ${l.text}`),
    );
    expect(found).toEqual([]);
  });

  it("would find what it looks for: a bare name, and two names as alternatives", () => {
    expect(BARE_NAME.test(`"${WRITE_OPERATION_LIST[0]!}"`)).toBe(true);
    expect(BARE_NAME.test(`"${WRITE_OPERATION_LIST[0]!} failed"`)).toBe(false);
    expect(LISTED.test(`/^(${WRITE_OPERATION_LIST[0]!}|${WRITE_OPERATION_LIST[1]!})$/`)).toBe(true);
    expect(LISTED.test(`/calls \\(file: ${WRITE_OPERATION_LIST[0]!}; derived: ${WRITE_OPERATION_LIST[1]!}\\)/`)).toBe(false);
  });
});
