/**
 * The I/O of `alert-rule-users init`: which of the app's files exist already, writing them (never
 * over an existing file), and reading what this package ships for them (its peer ranges, the
 * example GitHub workflows).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { InitFile, InitVersions } from "../core/init/init-files";
import { UsageError } from "../errors";

/** This package's root (the directory of its package.json): src/io under ts-jest, dist/src/io when built. */
export function packageRoot(): string {
  for (const up of ["../..", "../../.."]) {
    const dir = path.resolve(__dirname, up);
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (pkg.name === "alert-rule-users") return dir;
    } catch {
      // try the next candidate
    }
  }
  throw new Error(`alert-rule-users: cannot find the package's own package.json above ${__dirname}`);
}

interface OwnManifest {
  readonly version?: string;
  readonly engines?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/**
 * The ranges an app gets: this package's peerDependencies, its Node.js versions (`engines.node`)
 * with the `@types/node` it builds against (those of the oldest supported Node), and the
 * TypeScript runner of main.ts.
 */
export function initVersions(): { toolVersion: string; versions: InitVersions } {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as OwnManifest;
  const field = (group: "engines" | "peerDependencies" | "devDependencies", name: string): string => {
    const range = pkg[group]?.[name];
    if (range === undefined) throw new Error(`alert-rule-users: package.json has no ${group}.${name}`);
    return range;
  };
  const peer = (name: string): string => field("peerDependencies", name);
  return {
    toolVersion: pkg.version ?? "0.0.0",
    versions: {
      cdktf: peer("cdktf"),
      constructs: peer("constructs"),
      cdktn: peer("cdktn"),
      // cdktn 0.24 accepts constructs >=10.6.0 <10.8.0 (its own peer range; src/constructs/cdktn.ts)
      constructsForCdktn: ">=10.6.0 <10.8.0",
      providerNull: peer("@cdktf/provider-null"),
      node: field("engines", "node"),
      tsNode: "^10.9.2",
      // the version this package builds with, exactly: ts-node 10 fails on TypeScript 7
      // ("reading 'fileExists'"), which a caret range of a later major would install
      typescript: field("devDependencies", "typescript"),
      typesNode: field("devDependencies", "@types/node"),
    },
  };
}

/** The example workflows (examples/github-actions, shipped in the package), named as they go under .github/workflows. */
export function shippedWorkflows(): InitFile[] {
  const dir = path.join(packageRoot(), "examples", "github-actions");
  return ["plan", "review", "apply", "drift"].map((name) => ({
    path: `alert-rule-users-${name}.yml`,
    content: fs.readFileSync(path.join(dir, `${name}.yml`), "utf8"),
  }));
}

/** Whether `dir` is a directory, or nothing yet (init creates it). */
export function isDirectoryOrAbsent(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return !fs.existsSync(dir) && !isLink(dir);
  }
}

/** The files (relative paths) that exist in `dir` already, as anything: a file, a directory, a link. */
export function existingFiles(dir: string, files: readonly InitFile[]): string[] {
  return files.filter((f) => fs.existsSync(path.join(dir, f.path)) || isLink(path.join(dir, f.path))).map((f) => f.path);
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Writes every file under `dir` (created with its parents), each only if it does not exist (`wx`):
 * a file that appeared since {@link existingFiles} makes it stop there with EEXIST.
 */
export async function writeNewFiles(dir: string, files: readonly InitFile[]): Promise<void> {
  for (const file of files) {
    const target = path.join(dir, file.path);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, file.content, { flag: "wx" });
  }
}

/**
 * Writes a new project's files into `dir`; refuses (a UsageError naming the files, nothing written)
 * when `dir` is a file or already holds any of them: init never overwrites. `shown` is the
 * directory as the user gave it; `example` the command that would work, for the message.
 */
export async function writeInitFiles(dir: string, shown: string, files: readonly InitFile[], example: string): Promise<void> {
  if (!isDirectoryOrAbsent(dir)) {
    throw new UsageError(`init: ${shown} exists and is not a directory: nothing was written. Give a new or empty directory.`);
  }
  const existing = existingFiles(dir, files);
  if (existing.length > 0) {
    throw new UsageError(
      `init: ${shown} already has ${existing.join(", ")}: nothing was written (init never overwrites a file). ` + `Run it for a new or empty directory (${example}), or move those files away.`,
    );
  }
  await writeNewFiles(dir, files);
}
