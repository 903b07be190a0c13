/**
 * Commands in the docs run as written in an app (issue 25): the CLI is a dependency of the app,
 * not on PATH, so a plain `alert-rule-users …` is "command not found" there. Every shell block of
 * README.md and docs/*.md calls it as `npx --no alert-rule-users` (or `npx --no -- alert-rule-users`).
 * And never as a bare `npx alert-rule-users` (issue 32): run outside the app, that asks the public
 * registry for a package of the name and, once one is published, downloads and runs it with
 * ALERTS_API_TOKEN in its environment. `--no` refuses to download.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";
import { filesUnder } from "../support/files";

const FILES = ["README.md", ...readdirSync(join(REPO, "docs")).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];

/** Lines of the shell blocks (```sh, ```bash, ```shell, ```console) of a markdown file. */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  let inShell = false;
  for (const line of markdown.split("\n")) {
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence !== null) {
      inShell = !inShell && ["sh", "bash", "shell", "console"].includes(fence[1] ?? "");
      continue;
    }
    if (inShell) lines.push(line);
  }
  return lines;
}

/** A command position (line start, after a pipe, &&, ;, $( or a `$ ` prompt) that runs the bare name. */
const BARE = /(^|[|;&(]\s*|^\s*\$\s+)alert-rule-users\s/;

it.each(FILES)("%s calls the CLI with npx in its shell blocks", (file) => {
  const bare = shellLines(readFileSync(join(REPO, file), "utf8"))
    .map((line) => line.replace(/#.*$/, ""))
    .filter((line) => BARE.test(line.trimStart()) || BARE.test(line));
  expect(bare).toEqual([]);
});

/** Every file under `dir` (relative to the repository) whose name ends with one of `extensions`. */
const repoFilesUnder = (dir: string, extensions: readonly string[]): string[] => filesUnder(join(REPO, dir), { endingWith: extensions, relativeTo: REPO });

/** `npx` followed by the package name with no option between: the form that may download it. */
const BARE_NPX = /\bnpx\s+alert-rule-users\b/;

it("no doc, hint, message or example calls a bare `npx alert-rule-users` (always `npx --no`)", () => {
  const files = [...FILES, "action.yml", ...repoFilesUnder("src", [".ts"]), ...repoFilesUnder("examples", [".ts", ".sh", ".yml", ".md"])];
  const bare = files.flatMap((file) =>
    readFileSync(join(REPO, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (BARE_NPX.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(files.length).toBeGreaterThan(50);
  expect(bare).toEqual([]);
});
