/**
 * Git plumbing for a temporary worktree of another revision (`plan --changed-since REF`,
 * src/io/workflow/steps/changed-since.ts): git run quietly in a place, with an environment built from an
 * allow-list (src/shared/child-env.ts), the repository's top, and a revision resolved to its commit.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { ChangedSinceError } from "../../errors";
import { gitEnvironment } from "../../shared/child-env";
import { messageOf } from "../../shared/text";

const run = promisify(execFile);

/** Where git runs: the directory and the environment of the run. */
export interface GitPlace {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export function git(args: readonly string[], cwd: string, settings: GitPlace, signal?: AbortSignal): Promise<{ stdout: string; stderr: string }> {
  return run("git", [...args], {
    cwd,
    env: gitEnvironment(settings.env),
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
}

export function stderrOf(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === "string" && stderr.trim() !== "" ? stderr : messageOf(error);
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
 * Removes the worktree `tree` of the repository at `top`, runs `removeDirectory` (the worktree's
 * own directory and whatever holds it), then prunes git's registration of it. Synchronous, so that
 * it also runs in a process's `exit` handler; a worktree never added, or already gone, is no error.
 */
export function removeWorktree(tree: string, top: string, env: NodeJS.ProcessEnv, removeDirectory: () => void): void {
  try {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: top, stdio: "ignore", env: gitEnvironment(env) });
  } catch {
    // not added, or already gone: the directory is removed below and the registration pruned
  }
  removeDirectory();
  try {
    execFileSync("git", ["worktree", "prune"], { cwd: top, stdio: "ignore", env: gitEnvironment(env) });
  } catch {
    // nothing to prune
  }
}
