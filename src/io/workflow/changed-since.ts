/**
 * `plan --changed-since REF` (docs/contract.md §10.1), the io half: the declarations as they are now and as
 * they were at REF, compared by the pure core (core/changed-declarations.ts).
 *
 * REF's app is synthesized in a temporary `git worktree add --detach` of REF, at the app's place in
 * the repository (the app may live in a subdirectory), with the working tree's `node_modules`
 * linked in (those of the app's directory and of each directory above it up to the repository's
 * top), and its own output directory in a temporary directory. The worktree and the directory are
 * removed however the run ends: done, failed, aborted (the AbortSignal of an interrupt), or the
 * process exiting. Both synths run at once.
 *
 * Not a git checkout, REF unknown, or REF's app failing to synthesize is a ChangedSinceError, raised
 * before anything is read from the service: never a full plan instead. An app that did not exist at
 * REF (the pull request that adds it) declared nothing there: every list now is added, and read.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareDeclarations } from "../../core/changed-declarations";
import type { DeclarationComparison } from "../../core/changed-declarations";
import type { DesiredList } from "../../core/desired";
import { AlertRuleUsersError, ChangedSinceError } from "../../errors";
import { readDeclarations } from "../read-synth-output";
import { git, linkDependencies, repositoryTop, resolveCommit, stderrOf } from "../git/worktree";
import { readAppCommand, runSynth } from "../synth";
import type { Plan } from "../../core/plan-schema";
import { withChangedSince } from "../../core/changed-since-plan";
import { readDesired } from "./declared";
import type { SynthSettings } from "./session";

/** The revision compared with, and what changed since. */
export interface ChangedSinceRead {
  readonly ref: string;
  /** The commit REF resolved to. */
  readonly commit: string;
  readonly comparison: DeclarationComparison;
  /** Every declaration now (the changed ones are in `comparison.changed`). */
  readonly declared: readonly DesiredList[];
  /** Why REF declares nothing, when the app did not exist there (every list now is added). */
  readonly noAppAtRef: string | null;
}

/**
 * Resolves REF, synthesizes the app now and at REF, and compares the declarations. `settings` are
 * those of a full plan: `--app`, `--stack` and `--output` apply to now's synth (`--skip-synth`
 * reads now's output as it is); REF's app is always synthesized, with `--app` when given, else the
 * `app` of REF's cdktf.json, and only the same stacks are compared.
 */
export async function readChangedSince(ref: string, settings: SynthSettings, signal?: AbortSignal): Promise<ChangedSinceRead> {
  const top = await repositoryTop(settings);
  const commit = await resolveCommit(ref, top, settings);
  const [now, before] = await Promise.allSettled([readDesired(settings), readAtCommit(ref, commit, top, settings, signal)]);
  if (now.status === "rejected") throw now.reason;
  if (before.status === "rejected") throw before.reason;
  const { lists, noApp } = before.value;
  return { ref, commit, comparison: compareDeclarations(lists, now.value), declared: now.value, noAppAtRef: noApp };
}

/**
 * The declarations of the app as it is at `commit`: a temporary worktree, synthesized and read.
 * When the app did not exist at REF (its directory, or its cdktf.json when no --app is given, is
 * not there: the pull request that adds the app), REF declares nothing, and `noApp` says why.
 */
async function readAtCommit(
  ref: string,
  commit: string,
  top: string,
  settings: SynthSettings,
  signal?: AbortSignal,
): Promise<{ lists: DesiredList[]; noApp: string | null }> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "alert-rule-users-changed-since-"));
  const tree = path.join(temp, "worktree");
  const links: string[] = [];
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    for (const link of links) fs.rmSync(link, { force: true });
    try {
      execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: top, stdio: "ignore" });
    } catch {
      // not added, or already gone: the directory is removed below and the registration pruned
    }
    fs.rmSync(temp, { recursive: true, force: true });
    try {
      execFileSync("git", ["worktree", "prune"], { cwd: top, stdio: "ignore" });
    } catch {
      // nothing to prune
    }
  };
  process.once("exit", cleanup); // a second interrupt exits at once: the worktree still goes
  const short = commit.slice(0, 12);
  try {
    try {
      await git(["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", tree, commit], top, settings, signal);
    } catch (error) {
      throw new ChangedSinceError("ref-worktree", `--changed-since: could not check out ${ref} (${short}) in a temporary worktree: ${stderrOf(error)}`, { cause: error });
    }
    const relative = path.relative(fs.realpathSync(top), fs.realpathSync(settings.cwd));
    const appDir = path.join(tree, relative);
    if (!fs.existsSync(appDir) || (settings.app === undefined && !fs.existsSync(path.join(appDir, "cdktf.json")))) {
      const missing = fs.existsSync(appDir) ? path.join(relative, "cdktf.json") : relative || ".";
      return { lists: [], noApp: `there is no app at ${ref} (${short}): ${missing} does not exist there, so every list declared now is new and is read` };
    }
    links.push(...linkDependencies(top, settings.cwd, tree));
    const outdir = path.join(temp, "out");
    try {
      const app = settings.app ?? readAppCommand(appDir);
      await runSynth({ app, outdir, cwd: appDir, env: settings.env, ...(signal === undefined ? {} : { signal }) });
      const stacks = new Set(settings.stacks);
      return { lists: readDeclarations(outdir).filter((list) => stacks.size === 0 || stacks.has(list.stack)), noApp: null };
    } catch (error) {
      if (error instanceof AlertRuleUsersError) throw refSynthFailed(ref, short, error.message, error);
      throw error;
    }
  } finally {
    cleanup();
    process.removeListener("exit", cleanup);
  }
}

function refSynthFailed(ref: string, short: string, detail: string, cause?: unknown): ChangedSinceError {
  return new ChangedSinceError(
    "ref-synth-failed",
    `--changed-since: the app as it is at ${ref} (${short}) does not synthesize, so what changed since cannot be told:\n${detail}`,
    cause === undefined ? undefined : { cause },
  );
}

/** A plan made of `read.comparison.changed`, marked with what was compared and what was left unread (src/core/changed-since-plan.ts). */
export function markChangedSince(plan: Plan, read: ChangedSinceRead): Plan {
  return withChangedSince(plan, read.comparison, read);
}
