/**
 * Commands in the docs run as written in an app (issue 25): the CLI is a dependency of the app,
 * not on PATH, so a plain `alert-rule-users …` is "command not found" there. Every shell block of
 * README.md and docs/*.md calls it as `npx alert-rule-users` (or `npx --no -- alert-rule-users`).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";

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
