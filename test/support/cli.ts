/**
 * End-to-end helpers: a cdktf app written as plain JS into a temp dir (it loads the built
 * construct, so synth behaves as for a user), and a runner that spawns the built CLI.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isWrite } from "./write-operations";

export const REPO = resolve(__dirname, "..", "..");
export const CLI = join(REPO, "dist", "src", "cli", "main.js");

export interface ListDecl {
  id: string;
  props: Record<string, unknown>;
}
export interface StackDecl {
  name: string;
  lists: ListDecl[];
  /** RuleUserListPolicy constructs on the stack (they check every list of it). */
  policies?: ListDecl[];
}

export interface Workspace {
  dir: string;
  /** Rewrites the app's declarations (the next plan synthesizes them). */
  write(stacks: StackDecl[]): void;
  cleanup(): void;
}

/** A temp project with cdktf.json whose app is `node app.js`. */
export function workspace(stacks: StackDecl[]): Workspace {
  const dir = mkdtempSync(join(tmpdir(), "aru-e2e-"));
  writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  const write = (s: StackDecl[]) => {
    const source = `
const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [REPO] }))});
const { RuleUserList, RuleUserListPolicy } = require(${JSON.stringify(join(REPO, "dist", "src", "index.js"))});
const STACKS = ${JSON.stringify(s)};
const app = new App();
for (const stack of STACKS) {
  const scope = new TerraformStack(app, stack.name);
  for (const list of stack.lists) new RuleUserList(scope, list.id, list.props);
  for (const policy of stack.policies ?? []) new RuleUserListPolicy(scope, policy.id, policy.props);
}
app.synth();
`;
    writeFileSync(join(dir, "app.js"), source);
  };
  write(stacks);
  return { dir, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * How long a spawned CLI (or any command run here) may take before it is killed, unless the test
 * gives its own: generous, because on a loaded 2-core machine a plan that synthesizes an app takes
 * many times its idle 2-5 s. A test asserts what the command did, never how fast.
 */
export const PROCESS_TIMEOUT_MS = 180_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function connectionEnv(sim: { url: string; token: string; tenantId: string }): NodeJS.ProcessEnv {
  return { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId };
}

/** Spawns the built CLI; stdin is closed (a non-interactive run) unless input is given. */
export function runCli(
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return runCommand(process.execPath, [CLI, ...args], opts);
}

export function runCommand(
  file: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; shell?: boolean },
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const { ALERTS_API_URL: _u, ALERTS_API_TOKEN: _t, ALERTS_TENANT_ID: _i, ...base } = process.env;
    void _u;
    void _t;
    void _i;
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: { ...base, NO_COLOR: "1", ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
      shell: opts.shell ?? false,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? PROCESS_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.on("error", () => undefined); // EPIPE: the child exited without reading its input
    child.stdin.end(opts.input ?? "");
  });
}

/** Write operations the simulator received, by name. */
export function writesOf(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([op, n]) => isWrite(op) && n > 0));
}

/** A rule's list on the simulator as sorted `userId:alias,alias` strings ("-" for no ID). */
export function listing(sim: { rule(id: string): { users: Array<{ userIdFromAuthority: string | null; userAliasList: string[] }> } | undefined }, ruleId: string): string[] {
  const rule = sim.rule(ruleId);
  if (rule === undefined) throw new Error(`the simulator has no rule ${ruleId}`);
  return rule.users.map((u) => `${u.userIdFromAuthority ?? "-"}:${[...u.userAliasList].sort().join(",")}`).sort();
}
