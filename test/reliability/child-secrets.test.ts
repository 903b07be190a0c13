/**
 * No child the CLI starts gets a secret (issue 31 item 3): git (`apply --require-tip`, and `plan
 * --changed-since` with its worktree add/remove/prune) runs with an environment built from an
 * allow-list (src/shared/child-env.ts), the synth app with the user's environment less every secret
 * the tool knows of. NODE_DEBUG=child_process makes Node print the environment of every child it
 * starts to stderr: it prints neither the token, nor the plan key, nor the client secret, nor a CI
 * secret the tool does not know of (which git does not get either).
 */
import { execFileSync } from "node:child_process";
import { runCli, workspace, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { declare, safetyRuleId, simUser, tenant } from "./safety-support";
import { TOKEN, env } from "./support";

const PLAN_KEY = "plan-KEY-9a1e77c0d3b24f55";
const CLIENT_SECRET = "client-SECRET-41d0b8e2c6a9";
/** A secret of the CI the tool does not know of: the synth app may read it (it is the user's own), git never gets it. */
const OTHER_SECRET = "other-SECRET-5f3c2a7d";

const SEED = tenant([{ users: [simUser("u-1")] }]);
const DECLARED = declare([{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-2", aliases: ["u-2@example.com"] }] }]);
const sim = useSimulator({ seed: SEED, token: TOKEN }, { perTest: true });

function git(dir: string, ...args: string[]): string {
  const who = { GIT_AUTHOR_NAME: "Test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "Test", GIT_COMMITTER_EMAIL: "test@example.com" };
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...who } }).trim();
}

let ws: Workspace;
beforeEach(() => {
  ws = workspace(DECLARED);
  git(ws.dir, "init", "-q", "-b", "main");
  git(ws.dir, "add", "-A");
  git(ws.dir, "commit", "-q", "-m", "the declaration");
});
afterEach(() => ws.cleanup());

const debugEnv = (): NodeJS.ProcessEnv => ({
  ...env(sim.url),
  ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY,
  ALERTS_CLIENT_SECRET: CLIENT_SECRET,
  CI_DEPLOY_SECRET: OTHER_SECRET,
  NODE_DEBUG: "child_process",
});

/** The lines of `text` that hold any secret the tool knows of, cut short. */
const leaks = (text: string): string[] =>
  text
    .split("\n")
    .filter((line) => [TOKEN, PLAN_KEY, CLIENT_SECRET].some((secret) => line.includes(secret)))
    .map((line) => line.slice(0, 80));

describe("NODE_DEBUG=child_process prints no secret", () => {
  it("apply --require-tip: git's environment holds none (nor a CI secret the tool does not know of)", async () => {
    // given a saved plan, made without NODE_DEBUG
    const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: { ...env(sim.url), ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY } });
    expect(plan.code).toBe(0);

    // when it is applied with --require-tip and NODE_DEBUG=child_process
    const applied = await runCli(["apply", "plan.json", "--require-tip", "main"], { cwd: ws.dir, env: debugEnv() });

    // then git ran (Node printed its spawn), the apply went through, and stderr holds no secret
    expect(applied.stderr).toContain("CHILD_PROCESS");
    expect(applied.code).toBe(0);
    expect(leaks(applied.stderr)).toEqual([]);
    expect(applied.stderr).not.toContain(OTHER_SECRET);
  });

  it("plan --changed-since: git (rev-parse, worktree add/remove/prune) and both synths print none", async () => {
    // given the working tree declares one more user than main
    const next = declare([{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-3", aliases: ["u-3@example.com"] }] }]);
    ws.write(next);

    // when planned against main with NODE_DEBUG=child_process
    const result = await runCli(["plan", "--changed-since", "main"], { cwd: ws.dir, env: debugEnv() });

    // then the plan ran (git and the apps were started), and stderr holds no secret the tool knows of
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("CHILD_PROCESS");
    expect(result.stdout).toContain(safetyRuleId(1));
    expect(leaks(result.stderr)).toEqual([]);
  });
});
