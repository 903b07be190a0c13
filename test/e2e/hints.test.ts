/**
 * The commands the CLI tells a user to run next run as printed in an app (issue 32, wrong turn 1):
 * there the CLI is a dependency, not on PATH, so a hint says `npx --no alert-rule-users …`
 * (`--no`: never download a package of that name).
 */
import { spawn } from "node:child_process";
import { CLI, connectionEnv, runCli, workspace, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";

const BANNER_TIMEOUT_MS = 60_000;
const sim = useSimulator({}, { perTest: true });
let ws: Workspace;
afterEach(() => ws?.cleanup());

it("plan --out says how to apply the saved plan with npx --no; in a CI job, where the workflows apply it, only where it saved it", async () => {
  ws = workspace([{ name: "rules", lists: [{ id: "legal", props: { ruleId: RULES.legal, mode: "additive", users: [{ userId: "4242", aliases: ["counsel@example.com"] }] } }] }]);
  const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: { ...connectionEnv(sim), CI: "", GITHUB_ACTIONS: "" } });
  expect(plan.code).toBe(0);
  expect(plan.stderr).toContain("Saved the plan to plan.json. Apply exactly this plan with: npx --no alert-rule-users apply plan.json\n");
  const inCi = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: { ...connectionEnv(sim), CI: "", GITHUB_ACTIONS: "true" } });
  expect(inCi.code).toBe(0);
  expect(inCi.stderr).toContain("Saved the plan to plan.json.\n");
  expect(inCi.stderr).not.toContain("npx");
});

it("the simulator with --token-ttl prints a token command that runs in an app", async () => {
  const child = spawn(process.execPath, [CLI, "simulator", "--port", "0", "--token-ttl", "60"], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error(`no banner within ${BANNER_TIMEOUT_MS} ms: ${text}`)), BANNER_TIMEOUT_MS);
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("Press Ctrl+C")) {
          clearTimeout(timer);
          resolve(text);
        }
      });
      child.on("error", reject);
    });
    expect(banner).toMatch(/export ALERTS_API_TOKEN_COMMAND="npx --no alert-rule-users simulator token --url http:\/\/127\.0\.0\.1:\d+"/);
  } finally {
    child.kill("SIGTERM");
  }
}, 2 * BANNER_TIMEOUT_MS);
