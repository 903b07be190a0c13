/**
 * `apply --require-tip REF` (the "undiverged" requirement of pull-request automation tools): an
 * apply writes only when the commit checked out in the working directory is REF's tip, so an
 * older job (a re-run, or the first of two merges in a row) cannot write its older declaration
 * after a newer one. Checked when apply starts and again right before its first write
 * (src/io/execute.ts, `beforeFirstWrite`). REF is resolved as the checkout knows it: fetch it
 * right before apply (`git fetch origin main`) for the check to see a newer commit.
 */
import { execFileSync } from "node:child_process";
import { TipMismatchError } from "../../errors";
import { gitEnvironment } from "../../shared/child-env";
import { messageOf } from "../../shared/text";

/** The commit `revision` names in the git checkout at `cwd`, or the reason it names none. */
function revParse(revision: string, cwd: string): { ok: true; commit: string } | { ok: false; reason: string } {
  try {
    const out = execFileSync("git", ["rev-parse", "--verify", "--end-of-options", `${revision}^{commit}`], {
      cwd,
      // an allow-list (src/shared/child-env.ts): git gets no secret, NODE_DEBUG=child_process prints none
      env: gitEnvironment(),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    return { ok: true, commit: out.trim() };
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const text = typeof stderr === "string" ? stderr.trim().split("\n")[0] ?? "" : "";
    return { ok: false, reason: text !== "" ? text : messageOf(error) };
  }
}

/** Throws a TipMismatchError unless the checkout at `cwd` has REF's tip checked out. */
export function checkTip(ref: string, cwd: string): void {
  const head = revParse("HEAD", cwd);
  if (!head.ok) {
    throw new TipMismatchError(`nothing was applied: --require-tip needs a git checkout, and ${cwd} is not one (${head.reason}).`);
  }
  const tip = revParse(ref, cwd);
  if (!tip.ok) {
    throw new TipMismatchError(
      `nothing was applied: --require-tip ${ref}: no such revision in this checkout (${tip.reason}). Fetch it first (git fetch origin main), or check the name.`,
    );
  }
  if (head.commit === tip.commit) return;
  throw new TipMismatchError(mismatchMessage(ref, head.commit, tip.commit, cwd));
}

/** Whether commit `a` is an ancestor of commit `b` (git merge-base --is-ancestor); false when git cannot tell. */
function isAncestor(a: string, b: string, cwd: string): boolean {
  try {
    execFileSync("git", ["merge-base", "--is-ancestor", a, b], { cwd, stdio: "ignore", timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why HEAD is not REF's tip, as it is: REF moved on past this commit (an older run), this
 * checkout is ahead of REF (commits not merged yet), or the two have diverged: each calls for a
 * different fix, and a checkout ahead of REF told "REF has moved on" would pull instead of merging.
 */
function mismatchMessage(ref: string, head: string, tip: string, cwd: string): string {
  const at = `the checked-out commit ${head.slice(0, 12)} is not the tip of ${ref} (${tip.slice(0, 12)})`;
  if (isAncestor(tip, head, cwd)) {
    return (
      `nothing was applied: this checkout is ahead of ${ref} (not its tip): ${at}; it has commits ${ref} does not have. ` +
      `Merge them into ${ref} and apply from ${ref}'s tip, or leave out --require-tip for an apply from this checkout.`
    );
  }
  if (!isAncestor(head, tip, cwd)) {
    return (
      `nothing was applied: this checkout and ${ref} have diverged: ${at}, and neither contains the other. ` +
      `Apply from ${ref}'s tip (check out ${ref}, or let its run apply).`
    );
  }
  return (
    `nothing was applied: ${at}: ` +
    `${ref} has moved on since this run's commit, so its declaration may be older than what is applied next. ` +
    `Let the run of ${ref}'s tip apply (or check out ${ref} and apply from there).`
  );
}
