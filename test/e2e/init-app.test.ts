/**
 * The app `init` writes, run as written (issue 32): its RuleUserListPolicy refuses a typo of an
 * alias domain at plan time; `init --cdktn` writes a CDK Terrain app that type-checks and plans;
 * `init` never prints its own instruction with a redacted token. The app's node_modules links this
 * checkout's packages (the installed path is test/package).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, connectionEnv, runCli, runCommand } from "../support/cli";
import { useSimulator } from "../support/simulator";

const SYNTH_TIMEOUT_MS = 180_000;
const sim = useSimulator({}, { perTest: true });
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "aru-init-app-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** `init DIR ...flags`, then node_modules as `npm install` would leave it: this checkout as alert-rule-users, its dependencies beside it. */
async function initApp(name: string, ...flags: string[]): Promise<string> {
  const written = await runCli(["init", name, ...flags], { cwd: root });
  expect(written.stderr).toBe("");
  expect(written.code).toBe(0);
  const dir = join(root, name);
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@cdktf"), { recursive: true });
  mkdirSync(join(modules, "@types"), { recursive: true });
  mkdirSync(join(modules, ".bin"));
  symlinkSync(REPO, join(modules, "alert-rule-users"));
  for (const dep of ["cdktf", "cdktn", "constructs", "ts-node", "typescript", "@cdktf/provider-null", "@types/node"]) {
    symlinkSync(join(REPO, "node_modules", dep), join(modules, dep));
  }
  for (const bin of ["ts-node", "tsc"]) symlinkSync(join(REPO, "node_modules", ".bin", bin), join(modules, ".bin", bin));
  return dir;
}

function editMain(dir: string, from: string, to: string): void {
  const file = join(dir, "main.ts");
  const text = readFileSync(file, "utf8");
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe("the app init writes", () => {
  it("plans as written, and its policy refuses a typo of an alias domain at plan time, naming the user and the policy", async () => {
    // given the app as init wrote it
    const dir = await initApp("rules");
    const env = connectionEnv(sim);
    const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env, timeoutMs: SYNTH_TIMEOUT_MS });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("erin.walker@example.com");

    // when an alias gets a typo of its domain, or loses its top-level domain
    for (const typo of ["alice.nguyen@exmaple.com", "alice.nguyen@example"]) {
      editMain(dir, `"alice.nguyen@example.com"`, JSON.stringify(typo));
      const refused = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env, timeoutMs: SYNTH_TIMEOUT_MS });
      // then the plan is an error naming the policy, the check and the user, not an alias swap
      expect(refused.code).toBe(1);
      expect(refused.stdout + refused.stderr).toMatch(/alert-rules\/guardrails.*allowedAliasDomains \[example\.com, eng\.example\.com\]: 908712345678901234 \(alice\.nguyen@exmaple\.com|alert-rules\/guardrails.*allowedAliasDomains \[example\.com, eng\.example\.com\]: 908712345678901234 \(alice\.nguyen@example\)/s);
      if (typo.endsWith("exmaple.com")) expect(refused.stdout + refused.stderr).toContain("exmaple.com looks like example.com");
      editMain(dir, JSON.stringify(typo), `"alice.nguyen@example.com"`);
    }
    expect(sim.requestCounts()["add-users"]).toBeUndefined();
  }, 4 * SYNTH_TIMEOUT_MS);

  it("--cdktn: a CDK Terrain app that type-checks with its pinned TypeScript and plans, applies and plans again with no changes", async () => {
    const dir = await initApp("terrain", "--cdktn");
    const tsc = await runCommand(join(dir, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", dir], { cwd: dir, timeoutMs: SYNTH_TIMEOUT_MS });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const env = connectionEnv(sim);
    const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env, timeoutMs: SYNTH_TIMEOUT_MS });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("erin.walker@example.com");
    const apply = await runCli(["apply", "--auto-approve"], { cwd: dir, env, timeoutMs: SYNTH_TIMEOUT_MS });
    expect(apply.code).toBe(0);
    const again = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env, timeoutMs: SYNTH_TIMEOUT_MS });
    expect(again.code).toBe(0);
  }, 4 * SYNTH_TIMEOUT_MS);
});

describe("init's own instructions", () => {
  it("never show [REDACTED] when the simulator's token is exported already: the line leaves it out and says so", async () => {
    const env = { ALERTS_API_TOKEN: "local-simulator-token" };
    const run = await runCli(["init", "rules"], { cwd: root, env });
    const help = await runCli(["init", "--help"], { cwd: root, env });
    for (const out of [run.stdout, help.stdout]) {
      expect(out).not.toContain("[REDACTED]");
      expect(out).toContain("export ALERTS_API_URL=http://127.0.0.1:8080 ALERTS_TENANT_ID=f82ba8d5-219c-48f6-9978-242511e30d41   # ALERTS_API_TOKEN is set to the simulator's token already");
    }
    // and without it exported, the line gives the token to export
    const fresh = await runCli(["init", "other"], { cwd: root });
    expect(fresh.stdout).toContain("ALERTS_API_TOKEN=local-simulator-token");
  });
});
