/**
 * No comment or document cites a file that does not exist (issue 28): every path of the form
 * `src/…/x.ts` or `docs/x.md` in the comments of src/**\/*.ts, in docs/*.md and in README.md names
 * a file of this repository (or an output the repository ignores by name in .gitignore, such as
 * a quick benchmark's chart), and every relative link of those documents resolves. Fenced blocks
 * of the documents show commands and their output, where a made-up file may stand: they are not
 * citations. A file that moves takes its citations with it.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { REPO } from "../support/cli";

/** A repository path cited in text: under src/ (a source or asset file) or docs/ (a document). */
const CITED = /(?<![\w./-])((?:src\/[\w./-]*?\.(?:ts|js|css|json|md))|(?:docs\/[\w./-]*?\.(?:md|svg|json)))(?![\w/-])/g;

/** A markdown link or image target: `](target)`. */
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The comments of a TypeScript file (block and line comments; a `//` inside a string reads as one too, which only adds text to scan). */
function comments(source: string): string {
  return (source.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join("\n");
}

function cited(text: string): string[] {
  return [...text.matchAll(CITED)].map((m) => (m[1] ?? "").replace(/\.$/, ""));
}

/** A markdown document without its fenced blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, "");
}

/** Outputs .gitignore names one by one (a generated file a document may name). */
const IGNORED = new Set(
  readFileSync(join(REPO, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim().replace(/^\//, "")),
);

const exists = (path: string): boolean => IGNORED.has(path) || existsSync(join(REPO, path));

const DOCUMENTS = ["README.md", ...readdirSync(join(REPO, "docs")).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];
const SOURCES = sourceFiles("src");

describe("every cited file exists", () => {
  it.each(SOURCES)("the comments of %s cite only files that exist", (file) => {
    const missing = cited(comments(readFileSync(join(REPO, file), "utf8"))).filter((path) => !exists(path));
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)("%s cites only files that exist", (file) => {
    const missing = cited(prose(readFileSync(join(REPO, file), "utf8"))).filter((path) => !exists(path));
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS)("every relative link of %s resolves", (file) => {
    const text = prose(readFileSync(join(REPO, file), "utf8"));
    const broken = [...text.matchAll(LINK)]
      .map((m) => m[1] ?? "")
      .filter((target) => !/^(?:[a-z][a-z+.-]*:|#)/i.test(target))
      .map((target) => decodeURI(target.split("#")[0] ?? ""))
      .filter((target) => target !== "" && !existsSync(join(REPO, dirname(file), target)))
      .map((target) => relative(REPO, join(REPO, dirname(file), target)));
    expect(broken).toEqual([]);
  });
});
