/**
 * The app run for synth is the user's code, and in a pull-request job it is the pull request's
 * code (issue 25 items 1 and 2). It runs without the connection secrets and the plan key in its
 * environment: an app that echoes its whole environment (to stdout, to stderr, into a file of its
 * own, and then fails so that its output is shown in the error) shows neither, in any sink of
 * plan, apply (both reports), who and import. NODE_DEBUG=child_process, which makes Node print the
 * environment of every child it starts, prints neither either.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHILD_WITHHELD_VARIABLES } from "../../src/shared/secret-variables";
import { synthEnvironment } from "../../src/io/synth";
import { runCli, workspace, type CliResult, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { REPORTS, SecretScan, TOKEN, chaosCase, env } from "./support";

/** A plan key no output could contain by chance. */
const PLAN_KEY = "plan-KEY-3b9d0c71e5a24f68";

const chaos = chaosCase(25, 2, ["add"]);
const sim = useSimulator({ seed: chaos.seed, token: TOKEN });
const scan = new SecretScan();
let ws: Workspace;

/** Prepends to the workspace's app code that echoes its environment everywhere it can, and fails when ECHO_AND_FAIL=1. */
function echoingApp(dir: string): void {
  const app = join(dir, "app.js");
  const echo = `
const seen = JSON.stringify(process.env);
process.stdout.write("app env: " + seen + "\\n");
process.stderr.write("app env: " + seen + "\\n");
require("node:fs").writeFileSync(require("node:path").join(${JSON.stringify(dir)}, "seen-env-" + Date.now() + ".json"), seen);
if (process.env.ECHO_AND_FAIL === "1") { console.error("failing on purpose, with " + seen); process.exit(1); }
`;
  writeFileSync(app, echo + readFileSync(app, "utf8"));
}

beforeAll(() => {
  ws = workspace(chaos.stacks);
  echoingApp(ws.dir);
  scan.dir(ws.dir);
});

afterAll(() => {
  scan.collectFiles();
  ws.cleanup();
});

const secretEnv = (extra: NodeJS.ProcessEnv = {}) => ({ ...env(sim.url), ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY, ...extra });

async function run(what: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const result = await runCli(args, { cwd: ws.dir, env: secretEnv(extra) });
  scan.add(`${what} stdout`, result.stdout);
  scan.add(`${what} stderr`, result.stderr);
  return result;
}

describe("an app that echoes its environment", () => {
  it.each([
    ["plan", ["plan", "--format", "json", "--out", "plan.json"]],
    ["apply", ["apply", "--auto-approve", ...REPORTS]],
    ["who", ["who", "someone@example.com", "--format", "json"]],
  ])("%s, app succeeding then failing: no sink holds the token or the plan key", async (what, args) => {
    // when the app synthesizes (echoing), then fails (echoing into the error)
    const ok = await run(`${what} (app ok)`, args);
    const failed = await run(`${what} (app fails)`, args, { ECHO_AND_FAIL: "1" });
    // then the app ran both times and its output reached the error ...
    expect(ok.code).not.toBeNull();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/failing on purpose/);
    expect(failed.stderr).toMatch(/ALERTS_API_URL/); // the app did see the rest of the environment
    // ... and neither secret is anywhere (the outputs of this command, then every file)
    expect([ok, failed].flatMap((r) => [r.stdout, r.stderr]).filter((t) => t.includes(PLAN_KEY) || t.includes(TOKEN)).map((t) => t.slice(0, 60))).toEqual([]);
    expect(scan.leaks(TOKEN).found).toEqual([]);
    expect(scan.leaks(PLAN_KEY).found).toEqual([]);
  });

  it("import (which runs no app) with the same environment: no sink holds either", async () => {
    const result = await run("import", ["import", "--all", "--out", "imported.ts"]);
    expect(result.code).toBe(0);
    expect(scan.leaks(TOKEN).found).toEqual([]);
    expect(scan.leaks(PLAN_KEY).found).toEqual([]);
  });

  it("NODE_DEBUG=child_process (Node prints the child's environment) shows neither", async () => {
    // when
    const result = await run("plan with NODE_DEBUG=child_process", ["plan", "--format", "json"], { NODE_DEBUG: "child_process" });
    // then the run went ahead and Node did print the child's environment
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/CHILD_PROCESS \d+: spawn/);
    expect(result.stderr).toMatch(/CDKTF_OUTDIR/);
    expect(scan.leaks(TOKEN).found).toEqual([]);
    expect(scan.leaks(PLAN_KEY).found).toEqual([]);
  });

  it("every file and output was scanned", () => {
    const { scanned } = scan.leaks(TOKEN);
    expect(scanned).toBeGreaterThan(10);
  });
});

describe("the synth environment", () => {
  it("withholds every connection secret, the plan key and the token command, in any case of the name", () => {
    // given
    const parent: NodeJS.ProcessEnv = {
      PATH: "/usr/bin",
      ALERTS_API_URL: "http://127.0.0.1:1",
      ALERTS_API_TOKEN: "t",
      alerts_api_token: "t-lower",
      ALERTS_API_TOKEN_COMMAND: "vault read -field=token secret/alerts",
      ALERTS_CLIENT_SECRET: "s",
      ALERT_RULE_USERS_PLAN_KEY: "k",
      KEEP_ME: "yes",
    };
    // when
    const child = synthEnvironment({ app: "true", outdir: "out", cwd: "/tmp", env: parent }, "/tmp/out");
    // then
    for (const name of Object.keys(child)) expect(CHILD_WITHHELD_VARIABLES.map((v) => v.toUpperCase())).not.toContain(name.toUpperCase());
    expect(child).toMatchObject({ ALERTS_API_URL: "http://127.0.0.1:1", KEEP_ME: "yes", CDKTF_OUTDIR: "/tmp/out" });
    expect(CHILD_WITHHELD_VARIABLES).toEqual(expect.arrayContaining(["ALERTS_API_TOKEN", "ALERTS_API_TOKEN_COMMAND", "ALERTS_CLIENT_SECRET", "ALERT_RULE_USERS_PLAN_KEY"]));
    // and the parent's environment is left as it was
    expect(parent["ALERTS_API_TOKEN"]).toBe("t");
  });
});
