/**
 * Every command the CLI prints for pasting is quoted for the shell (issue 25, item 12): a name
 * holding `$(...)`, a backquote or a quote is shown single-quoted, so pasting it runs nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { shellQuote } from "../../src/shared/text";
import { checkOutputPath } from "../../src/cli/output-path";
import { importAppCommand } from "../../src/core/import/import-code";

describe("shellQuote", () => {
  it.each([
    ["plain-name_1.ts", "plain-name_1.ts"],
    ["My Alert Rules", "'My Alert Rules'"],
    ["$(id>x)", "'$(id>x)'"],
    ["`id`", "'`id`'"],
    ["it's", "'it'\\''s'"],
    ["", "''"],
  ])("%j is written %s", (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });

  it.each(["$(touch pwned)", "a'b\"c`d`$e", "line\nbreak", "!x *"])("the shell reads %j back unchanged, expanding nothing", (word) => {
    // given / when the quoted word is echoed by a real shell
    const echoed = execFileSync("sh", ["-c", `printf %s ${shellQuote(word)}`], { encoding: "utf8" });
    // then
    expect(echoed).toBe(word);
  });
});

describe("commands printed for pasting", () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "aru-quote-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("--out into a missing directory: the mkdir -p it suggests is quoted", () => {
    // given a directory name with a command substitution in it
    const file = "$(id>x)/plan.json";
    // when / then
    expect(() => checkOutputPath("plan", "out", file, root)).toThrow(`(mkdir -p '${join(root, "$(id>x)")}')`);
  });

  it("import --out: the app command for a file name with a quote is quoted once for the shell", () => {
    expect(importAppCommand("it's.ts")).toBe("npx ts-node --transpile-only 'it'\\''s.ts'");
    expect(importAppCommand("rules.ts")).toBe("npx ts-node --transpile-only rules.ts");
  });
});
