/**
 * `apply --require-tip REF` (issue 25): two applies of different declarations at once (two merges
 * in a row, a re-run of an old job) must not let the older one write its older lists after the
 * newer. An apply with --require-tip writes only when the checked-out commit is REF's tip,
 * checked when it starts and again right before its first write.
 */
import { execFileSync } from "node:child_process";
import type { RunningSimulator } from "../../src/simulator";
import { listing, runCli, workspace, writesOf, type Workspace } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { declare, safetyRuleId, simUser, tenant } from "./safety-support";
import { SecretScan, TOKEN, env, spawnCli, waitFor } from "./support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const RULE = safetyRuleId(1);
const SEED = tenant([{ users: [simUser("u-1")] }]);
const DECLARED = declare([{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-2", aliases: ["u-2@example.com"] }] }]);

function git(dir: string, ...args: string[]): string {
  const who = { GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "test@example.com" };
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...who } }).trim();
}

/** Another commit on main (as a merge after this job's commit would make), the checkout left where it is. */
function mergeAnother(ws: Workspace): string {
  const next = git(ws.dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "a newer merge");
  git(ws.dir, "update-ref", "refs/heads/main", next);
  return next;
}

/** The app in a git checkout of main's tip (detached, as CI checks out), with a saved plan adding u-2. */
async function withCheckout(body: (sim: RunningSimulator, ws: Workspace) => Promise<void>, seed = SEED, declared = DECLARED): Promise<void> {
  await withSimulator({ seed, token: TOKEN }, async (sim) => {
    const ws = workspace(declared);
    scan.dir(ws.dir);
    try {
      git(ws.dir, "init", "-q", "-b", "main");
      git(ws.dir, "add", "-A");
      git(ws.dir, "commit", "-q", "-m", "the declaration");
      git(ws.dir, "checkout", "-q", "--detach");
      const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("plan", plan.stdout, plan.stderr);
      expect(plan.code).toBe(0);
      sim.resetCounts();
      await body(sim, ws);
    } finally {
      ws.cleanup();
    }
  });
}

describe("apply --require-tip REF", () => {
  it("applies when the checked-out commit is REF's tip", async () => {
    await withCheckout(async (sim, ws) => {
      const apply = await runCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply", apply.stdout, apply.stderr);
      expect([apply.code, apply.stderr]).toEqual([0, ""]);
      expect(listing(sim, RULE)).toContain("u-2:u-2@example.com");
    });
  });

  it("refuses before any request when REF moved on (a newer merge), naming both commits", async () => {
    await withCheckout(async (sim, ws) => {
      const head = git(ws.dir, "rev-parse", "HEAD");
      const tip = mergeAnother(ws);
      const apply = await runCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply", apply.stdout, apply.stderr);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(`the checked-out commit ${head.slice(0, 12)} is not the tip of main (${tip.slice(0, 12)})`);
      expect(apply.stderr).toContain("main has moved on since this run's commit");
      expect(sim.requestCounts()).toEqual({});
    });
  });

  it("says the checkout is ahead of REF (not that REF moved on) when HEAD has commits REF lacks (issue 32)", async () => {
    await withCheckout(async (sim, ws) => {
      // given a local commit on top of main's tip, checked out; main stays where it was
      const ahead = git(ws.dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "a local commit");
      git(ws.dir, "checkout", "-q", "--detach", ahead);
      const apply = await runCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply", apply.stdout, apply.stderr);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain("this checkout is ahead of main (not its tip)");
      expect(apply.stderr).not.toContain("has moved on");
      expect(sim.requestCounts()).toEqual({});
    });
  });

  it("says the checkout and REF have diverged when neither contains the other", async () => {
    await withCheckout(async (sim, ws) => {
      const local = git(ws.dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "a local commit");
      mergeAnother(ws);
      git(ws.dir, "checkout", "-q", "--detach", local);
      const apply = await runCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply", apply.stdout, apply.stderr);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain("this checkout and main have diverged");
      expect(sim.requestCounts()).toEqual({});
    });
  });

  it("checks again right before the first write: REF moving while apply reads the lists stops it, nothing written", async () => {
    await withCheckout(async (sim, ws) => {
      // given a slow service, and a newer merge while apply's stale check reads the list
      sim.setFaults({ latencyMs: 500 });
      const apply = spawnCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
      await waitFor("the stale check's read", () => (sim.requestCounts()["query-users"] ?? 0) >= 1);
      mergeAnother(ws);
      const result = await apply.done;
      scan.add("apply", result.stdout, result.stderr);
      // then nothing is written
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/is not the tip of main/);
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(listing(sim, RULE)).toEqual(["u-1:u-1@example.com"]);
    });
  });

  it("checks before every write, not only the first: REF moving after the first write stops the writes left (issue 31 item 6)", async () => {
    // given a rule whose plan has three writes (add u-3, remove an alias of u-1, remove u-2), sent one after the other
    const seed = tenant([{ users: [simUser("u-1", "u-1@example.com", "u-1@old.example.com"), simUser("u-2")] }]);
    const declared = declare([{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-3", aliases: ["u-3@example.com"] }] }]);
    await withCheckout(
      async (sim, ws) => {
        // and a slow service, and a newer merge as soon as the first write arrives
        sim.setFaults({ latencyMs: 500 });
        const apply = spawnCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: env(sim.url) });
        await waitFor("the first write", () => Object.keys(writesOf(sim.requestCounts())).length > 0);
        mergeAnother(ws);
        const result = await apply.done;
        scan.add("apply", result.stdout, result.stderr);
        // then the first write is the only one sent, and apply fails naming the moved ref
        expect(result.code).toBe(1);
        expect(Object.values(writesOf(sim.requestCounts())).reduce((a, b) => a + b, 0)).toBe(1);
        expect(`${result.stdout}${result.stderr}`).toMatch(/is not the tip of main/);
        expect(`${result.stdout}${result.stderr}`).toMatch(/not sent/);
      },
      seed,
      declared,
    );
  });
});
