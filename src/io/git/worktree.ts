/**
 * Git plumbing for a temporary worktree of another revision (`plan --changed-since REF`,
 * src/io/workflow/changed-since.ts): git run quietly in a place, the repository's top, a revision
 * resolved to its commit, and the working tree's `node_modules` linked into the worktree.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { ChangedSinceError } from "../../errors";

const run = promisify(execFile);

/** Where git runs: the directory and the environment of the run. */
export interface GitPlace {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export function git(args: readonly string[], cwd: string, settings: GitPlace, signal?: AbortSignal): Promise<{ stdout: string; stderr: string }> {
  return run("git", [...args], {
    cwd,
    env: { ...settings.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
}

export function stderrOf(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === "string" && stderr.trim() !== "" ? stderr : error instanceof Error ? error.message : String(error);
  return text.trim().split("\n").slice(-5).join("\n");
}

export async function repositoryTop(settings: GitPlace): Promise<string> {
  try {
    return (await git(["rev-parse", "--show-toplevel"], settings.cwd, settings)).stdout.trim();
  } catch (error) {
    const missing = (error as { code?: unknown }).code === "ENOENT";
    throw new ChangedSinceError(
      "not-a-git-checkout",
      missing
        ? `--changed-since needs git, and git was not found on PATH. Install git, or drop --changed-since for a full plan.`
        : `--changed-since: ${settings.cwd} is not in a git checkout (${stderrOf(error)}). Run plan in the repository of the app (in CI: check it out with actions/checkout), or drop --changed-since for a full plan.`,
      { cause: error },
    );
  }
}

export async function resolveCommit(ref: string, top: string, settings: GitPlace): Promise<string> {
  const unknown = async (detail: string, cause?: unknown): Promise<never> => {
    const shallow = await git(["rev-parse", "--is-shallow-repository"], top, settings).then(
      (r) => r.stdout.trim() === "true",
      () => false,
    );
    throw new ChangedSinceError(
      "unknown-ref",
      `--changed-since: "${ref}" is not a commit of the repository at ${top} (${detail}).` +
        (shallow ? " This checkout is shallow: fetch the history (actions/checkout with fetch-depth: 0, or git fetch --unshallow)." : " Fetch it first (e.g. git fetch origin main), or name a branch, tag or commit that exists here."),
      cause === undefined ? undefined : { cause },
    );
  };
  if (ref.trim() === "" || ref.startsWith("-")) return unknown("a revision cannot be empty or start with '-'");
  try {
    return (await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], top, settings)).stdout.trim();
  } catch (error) {
    return unknown(`git rev-parse --verify ${ref}^{commit} found no commit`, error);
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
