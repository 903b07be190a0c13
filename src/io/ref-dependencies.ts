/**
 * How the app at REF finds what it resolves outside its tracked files, for `plan --changed-since
 * REF` (changed-since.ts): REF's code is never resolved through the working tree, which would read
 * the pull request's version at both commits and hide a change made there.
 *
 * - `reuse`: the working tree's node_modules are linked into REF's worktree. Only when nothing REF
 *   resolves through them can differ from what REF would install: the same package.json and
 *   lockfiles (and .npmrc, workspace files) at REF and now in the app's directory and every one
 *   above it up to the repository's top, no `workspaces` and no install scripts of the project's
 *   own, and no node_modules entry that links into the repository (a workspace package, or a
 *   `file:` directory dependency, would be read as the working tree's version); or the working
 *   tree is REF's commit itself (nothing tracked differs).
 * - `install`: otherwise, `npm ci` in REF's worktree at the nearest directory holding REF's
 *   package-lock.json (or npm-shrinkwrap.json): REF's own dependencies.
 * - `fallback`: when it cannot be sure: REF's tracked files name the working tree's absolute path
 *   (what the app reads there is the pull request's version), REF has no npm lockfile to install
 *   from, or `npm ci` fails. Every declared rule is then read, and the plan says why.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { gitEnvironment } from "../shared/child-env";
import { messageOf } from "../shared/text";

const run = promisify(execFile);

/** The files that decide what `npm ci` installs, compared at REF and now in each directory from the app's up to the top. */
const DEPENDENCY_FILES = ["package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", ".yarnrc.yml"] as const;
const LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json"] as const;
/** The project's own scripts that npm runs at install: they may read any tracked file. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"] as const;
/** How long `npm ci` of REF may take. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** How many reasons a message names before "and N more". */
const REASONS_SHOWN = 3;

export type RefDependencies =
  | { readonly kind: "reuse"; readonly reason: string }
  /** `lockDir`: where REF's lockfile is, relative to the worktree's top. */
  | { readonly kind: "install"; readonly lockDir: string; readonly reason: string }
  | { readonly kind: "fallback"; readonly reason: string };

export interface RefDependenciesInput {
  /** The repository's top (the working tree). */
  readonly top: string;
  /** The app's directory in the working tree. */
  readonly cwd: string;
  /** The top of REF's worktree. */
  readonly tree: string;
  readonly commit: string;
  /** REF as it is named in messages. */
  readonly ref: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** Decides how REF's app gets its dependencies (see the file's comment). */
export async function decideRefDependencies(input: RefDependenciesInput): Promise<RefDependencies> {
  const root = fs.realpathSync(input.top);
  // The working tree is REF: whatever REF's app reads through it (links, absolute paths) is REF's.
  if (await isWorkingTreeRef(input)) return { kind: "reuse", reason: `the working tree is ${input.ref}'s commit, so its node_modules are REF's` };
  const naming = await filesNaming(input, [...new Set([root, path.resolve(input.top)])]);
  if (naming !== null) {
    return {
      kind: "fallback",
      reason: `${input.ref}'s ${naming.file} names the working tree's path (${naming.path}): what REF's app reads there would be the pull request's version`,
    };
  }
  const levels = appLevels(root, fs.realpathSync(input.cwd));
  const reasons = levels.flatMap((rel) => levelReasons(root, rel, input.tree));
  if (reasons.length === 0) {
    return { kind: "reuse", reason: "package.json and the lockfiles are the same at REF and now, and no node_modules entry links into the repository" };
  }
  const shown = reasons.slice(0, REASONS_SHOWN).join("; ") + (reasons.length > REASONS_SHOWN ? `; and ${reasons.length - REASONS_SHOWN} more` : "");
  const lockDir = levels.find((rel) => LOCKFILES.some((f) => fs.existsSync(path.join(input.tree, rel, f))));
  if (lockDir === undefined) {
    return { kind: "fallback", reason: `what REF's app resolves may differ from the working tree's (${shown}), and ${input.ref} has no package-lock.json to install its own dependencies from` };
  }
  return { kind: "install", lockDir, reason: `${shown}: ${input.ref}'s own dependencies were installed (npm ci${lockDir === "" ? "" : ` in ${lockDir}`})` };
}

/** The app's directory and each above it up to the top, relative to the top ("" for the top). */
function appLevels(root: string, cwd: string): string[] {
  const levels: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    levels.push(path.relative(root, dir));
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return levels;
}

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** Why the dependencies of one directory may resolve differently at REF than through the working tree's node_modules. */
function levelReasons(root: string, rel: string, tree: string): string[] {
  const reasons: string[] = [];
  for (const name of DEPENDENCY_FILES) {
    const now = readOrNull(path.join(root, rel, name));
    const then = readOrNull(path.join(tree, rel, name));
    if (now === null && then === null) continue;
    if (now === null || then === null || !now.equals(then)) reasons.push(`${path.posix.join(rel.split(path.sep).join("/"), name)} differs between REF and now`);
  }
  for (const [which, dir] of [["now", root], ["REF", tree]] as const) {
    const manifest = readOrNull(path.join(dir, rel, "package.json"));
    if (manifest === null) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest.toString("utf8"));
    } catch {
      continue; // a broken package.json: npm ci (or the synth) reports it
    }
    const json = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
    if (json["workspaces"] !== undefined) reasons.push(`${path.posix.join(rel, "package.json")} declares workspaces (${which})`);
    const scripts = typeof json["scripts"] === "object" && json["scripts"] !== null ? (json["scripts"] as Record<string, unknown>) : {};
    const install = INSTALL_SCRIPTS.filter((s) => scripts[s] !== undefined);
    if (install.length > 0) reasons.push(`${path.posix.join(rel, "package.json")} runs ${install.join(", ")} scripts at install (${which})`);
  }
  reasons.push(...repositoryLinks(root, rel));
  return [...new Set(reasons)];
}

/** node_modules entries (scoped ones included) of the working tree's `rel` that are links into the repository. */
function repositoryLinks(root: string, rel: string): string[] {
  const modules = path.join(root, rel, "node_modules");
  const entries = (dir: string): string[] => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  };
  const names = entries(modules).flatMap((name) => (name.startsWith("@") ? entries(path.join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
  const found: string[] = [];
  for (const name of names) {
    const entry = path.join(modules, name);
    let target: string;
    try {
      if (!fs.lstatSync(entry).isSymbolicLink()) continue;
      target = fs.realpathSync(entry);
    } catch {
      continue;
    }
    const inside = path.relative(root, target);
    if (inside.startsWith("..") || path.isAbsolute(inside)) continue;
    found.push(`${path.posix.join(rel, "node_modules", name)} links into the repository (${inside.split(path.sep).join("/")})`);
  }
  return found;
}

/** A tracked file of REF that contains one of `paths`, or null (git grep; binary files skipped). */
async function filesNaming(input: RefDependenciesInput, paths: readonly string[]): Promise<{ file: string; path: string } | null> {
  for (const wanted of paths) {
    if (wanted === path.parse(wanted).root) continue;
    try {
      const { stdout } = await run("git", ["grep", "-l", "-I", "-F", "-e", wanted, input.commit, "--"], {
        cwd: input.top,
        env: gitEnvironment(input.env),
        maxBuffer: 16 * 1024 * 1024,
        encoding: "utf8",
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      const first = stdout.split("\n")[0] ?? "";
      if (first !== "") return { file: first.slice(input.commit.length + 1), path: wanted };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 1) throw error; // 1: no match
    }
  }
  return null;
}

/** HEAD is REF's commit and no tracked file differs from it. */
async function isWorkingTreeRef(input: RefDependenciesInput): Promise<boolean> {
  const opts = { cwd: input.top, env: gitEnvironment(input.env), encoding: "utf8" as const };
  try {
    const head = (await run("git", ["rev-parse", "--verify", "HEAD^{commit}"], opts)).stdout.trim();
    if (head !== input.commit) return false;
    return (await run("git", ["status", "--porcelain", "--untracked-files=no"], opts)).stdout.trim() === "";
  } catch {
    return false;
  }
}

/**
 * Links the working tree's `node_modules` into the worktree: those of the app's directory and of
 * each directory above it, up to the repository's top, that the worktree does not have. Returns
 * the links made.
 */
export function linkDependencies(top: string, cwd: string, tree: string): string[] {
  const links: string[] = [];
  const root = fs.realpathSync(top);
  for (let dir = fs.realpathSync(cwd); ; dir = path.dirname(dir)) {
    const modules = path.join(dir, "node_modules");
    const target = path.join(tree, path.relative(root, dir), "node_modules");
    if (fs.existsSync(modules) && fs.existsSync(path.dirname(target)) && !fs.existsSync(target)) {
      fs.symlinkSync(modules, target, "junction");
      links.push(target);
    }
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return links;
}

/**
 * `npm ci` in `dir` (REF's worktree, where its lockfile is), with `env` (secrets already withheld)
 * less the variables npm set for the command that ran this one. Null when it succeeded, else the
 * end of its output.
 */
export async function installRefDependencies(dir: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string | null> {
  const clean = Object.fromEntries(
    Object.entries(env).filter(([name]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(name)),
  );
  try {
    await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: dir,
      env: { ...clean, npm_config_update_notifier: "false" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      timeout: INSTALL_TIMEOUT_MS,
      shell: process.platform === "win32",
      ...(signal === undefined ? {} : { signal }),
    });
    return null;
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const stderr = (error as { stderr?: unknown }).stderr;
    const text = typeof stderr === "string" && stderr.trim() !== "" ? stderr : messageOf(error);
    return text.trim().split("\n").slice(-5).join(" / ");
  }
}

/**
 * `env` with the working tree's path (as given and as resolved) replaced by the worktree's in
 * every value: GITHUB_WORKSPACE, PWD, INIT_CWD, PATH entries (npx adds the working tree's
 * node_modules/.bin) then lead REF's synth to REF's files, never to the working tree's.
 */
export function outsideWorkingTree(env: NodeJS.ProcessEnv, top: string, tree: string): NodeJS.ProcessEnv {
  const paths = [...new Set([fs.realpathSync(top), path.resolve(top)])].sort((a, b) => b.length - a.length);
  const replace = (value: string): string => paths.reduce((v, p) => v.split(p).join(tree), value);
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === undefined ? value : replace(value)]));
}
