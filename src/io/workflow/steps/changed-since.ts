/**
 * `plan --changed-since REF` (docs/contract.md §10.1), the io half: the declarations as they are now and as
 * they were at REF, compared by the pure core (core/changed-declarations.ts).
 *
 * REF's app is synthesized in a temporary `git worktree add --detach` of REF, at the app's place in
 * the repository (the app may live in a subdirectory), with its own output directory in a
 * temporary directory, and never through the working tree (what REF's synth
 * resolves through the working tree is read as the pull request's version at both commits, and a
 * change made there is hidden):
 * - Dependencies: the working tree's `node_modules` (those of the app's directory and of each
 *   directory above it up to the repository's top) are linked in only when nothing the app
 *   resolves through them can differ: the same package.json and lockfiles at REF and now, no
 *   `workspaces`, no install scripts of the project's own, no node_modules entry that links into
 *   the repository (a workspace package) — or the working tree is REF's commit itself. Otherwise
 *   REF gets its own: `npm ci` in the worktree, at REF's package-lock.json (ref-dependencies.ts).
 * - The working tree's path is nowhere in REF's synth: the environment (GITHUB_WORKSPACE, PWD,
 *   PATH, ...) names the worktree instead, and the cwd is the worktree's.
 * - When it cannot be sure (REF's files name the working tree's absolute path, REF has no
 *   package-lock.json to install from, `npm ci` fails), it falls back to reading every declared
 *   rule, and the plan says which fallback and why (`changedSince.fallback`).
 * The worktree and the directory are removed however the run ends: done, failed, aborted (the
 * AbortSignal of an interrupt), or the process exiting. Both synths run at once. Every git call
 * gets an environment built from an allow-list (src/shared/child-env.ts).
 *
 * Not a git checkout, REF unknown, or REF's app failing to synthesize is a ChangedSinceError, raised
 * before anything is read from the service: never a full plan instead. An app that did not exist at
 * REF (the pull request that adds it) declared nothing there: every list now is added, and read.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareDeclarations } from "../../../core/engine/changed-declarations";
import type { DeclarationComparison } from "../../../core/engine/changed-declarations";
import type { DesiredList } from "../../../core/engine/desired";
import { AlertRuleUsersError, ChangedSinceError } from "../../../errors";
import { readDeclarations } from "../../read-synth-output";
import { git, removeWorktree, repositoryTop, resolveCommit, stderrOf } from "../../git/worktree";
import { readAppCommand, runSynth } from "../../synth";
import type { Plan } from "../../../core/engine/plan-schema";
import { sameRuleUnread, withChangedSince } from "../../../core/changed-since/changed-since-plan";
import { withDeclarations } from "../../../core/changed-since/declaration-digest";
import { childEnvironment as withoutSecrets } from "../../../shared/secret-variables";
import { decideRefDependencies, installRefDependencies, linkDependencies, outsideWorkingTree } from "../../ref-dependencies";
import { readDesired } from "./declared";
import type { SynthSettings } from "../session/session";

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
  /** How REF's app found its dependencies, and why; null when REF was not synthesized. */
  readonly refDependencies: { readonly how: "reused" | "installed"; readonly reason: string } | null;
  /** Why every declared rule is read (REF could not be compared safely); null when REF was compared. */
  readonly fallback: string | null;
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
  const { lists, noApp, refDependencies, fallback } = before.value;
  const base = { ref, commit, declared: now.value, noAppAtRef: noApp, refDependencies, fallback };
  if (lists === null) {
    const changed = now.value.map((list) => ({ list, changes: ["unverified" as const] }));
    return { ...base, comparison: { changed, unchanged: [], removed: [] } };
  }
  return { ...base, comparison: compareDeclarations(lists, now.value) };
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
): Promise<RefDeclarations> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "alert-rule-users-changed-since-"));
  const tree = path.join(temp, "worktree");
  const links: string[] = [];
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    for (const link of links) fs.rmSync(link, { force: true });
    removeWorktree(tree, top, settings.env, () => fs.rmSync(temp, { recursive: true, force: true }));
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
      return { lists: [], noApp: `there is no app at ${ref} (${short}): ${missing} does not exist there, so every list declared now is new and is read`, refDependencies: null, fallback: null };
    }
    // REF's synth sees the worktree wherever the working tree's path was: environment and cwd.
    const env = outsideWorkingTree(settings.env, top, path.join(tree));
    const fallback = (reason: string): RefDeclarations => ({ lists: null, noApp: null, refDependencies: null, fallback: reason });
    const decision = await decideRefDependencies({ top, cwd: settings.cwd, tree, commit, ref: short, env: settings.env, ...(signal === undefined ? {} : { signal }) });
    if (decision.kind === "fallback") return fallback(decision.reason);
    if (decision.kind === "reuse") links.push(...linkDependencies(top, settings.cwd, tree));
    else {
      const failed = await installRefDependencies(path.join(tree, decision.lockDir), withoutSecrets(env), signal);
      if (failed !== null) return fallback(`${decision.reason}, and npm ci of ${ref} (${short}) failed (${failed})`);
    }
    const refDependencies = { how: decision.kind === "reuse" ? ("reused" as const) : ("installed" as const), reason: decision.reason };
    const outdir = path.join(temp, "out");
    try {
      const app = settings.app ?? readAppCommand(appDir);
      await runSynth({ app, outdir, cwd: appDir, env, ...(signal === undefined ? {} : { signal }) });
      const stacks = new Set(settings.stacks);
      return { lists: readDeclarations(outdir).filter((list) => stacks.size === 0 || stacks.has(list.stack)), noApp: null, refDependencies, fallback: null };
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

/** What REF declares, or null with `fallback` saying why every rule is read instead. */
interface RefDeclarations {
  readonly lists: DesiredList[] | null;
  readonly noApp: string | null;
  readonly refDependencies: ChangedSinceRead["refDependencies"];
  readonly fallback: string | null;
}

/** A plan made of `read.comparison.changed`, marked with what was compared and what was left unread (src/core/changed-since/changed-since-plan.ts). */
export function markChangedSince(plan: Plan, read: ChangedSinceRead): Plan {
  const unread = new Set<DesiredList>(read.comparison.unchanged);
  return withDeclarations(withChangedSince(plan, read.comparison, read), read.declared, unread);
}

/**
 * The plan of `plan --changed-since REF`: `plan` (getPlan of the session) of the changed
 * declarations; when the read shows that a changed declaration names the same rule as an unchanged
 * one (a rule declared by name now that was declared by ID, or the other way round), that one is
 * read too and the plan made again, so the duplicate is reported exactly as a full plan reports it.
 */
export async function planChangedSince(read: ChangedSinceRead, plan: (desired: readonly DesiredList[]) => Promise<Plan>): Promise<Plan> {
  const first = await plan(read.comparison.changed.map((c) => c.list));
  const also = sameRuleUnread(first, read.comparison);
  if (also.length === 0) return markChangedSince(first, read);
  const extra = new Set(also);
  const changed = read.declared.flatMap((list) => {
    const found = read.comparison.changed.find((c) => c.list === list);
    return found !== undefined ? [found] : extra.has(list) ? [{ list, changes: ["duplicate" as const] }] : [];
  });
  const comparison = { ...read.comparison, changed, unchanged: read.comparison.unchanged.filter((l) => !extra.has(l)) };
  const again = { ...read, comparison };
  return markChangedSince(await plan(changed.map((c) => c.list)), again);
}
