/**
 * The token command on the command line (docs/contract.md §10.2): `--token-command CMD` and
 * `ALERTS_API_TOKEN_COMMAND` on the commands that talk to the service; a failing command stops
 * the run before any request (so before any write); the token given two ways is an error naming
 * both; the simulator mints tokens with `simulator token --url URL`, and its tokens never show in
 * any output, plan or report.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, REPO, listing, runCli, workspace, writesOf, type StackDecl, type Workspace } from "../support/cli";
import { RULES } from "../support/sample";

const sim = useSimulator({ tokenTtlSeconds: 300 }, { perTest: true });
let ws: Workspace;
let secrets: string;

const STACKS: StackDecl[] = [
  { name: "rules", lists: [{ id: "finance", props: { ruleId: RULES.finance, mode: "additive", users: [{ userId: "5151", aliases: ["token.command@example.com"] }] } }] },
];

/** `simulator token` as a token command, each token also kept (outside the workspace) so the test can look for it. */
function mintCommand(): string {
  return `"${process.execPath}" "${CLI}" simulator token --url ${sim.url} | tee -a '${join(secrets, "minted.jsonl")}'`;
}

function minted(): string[] {
  const file = join(secrets, "minted.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { token: string }).token);
}

function connection(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId, ...extra };
}

/** Every file of the workspace, read as text. */
function workspaceFiles(dir: string): string {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const path = join(d, name);
      return name === "node_modules" ? [] : statSync(path).isDirectory() ? walk(path) : [readFileSync(path, "latin1")];
    });
  return walk(dir).join("\n");
}

beforeEach(() => {
  ws = workspace(STACKS);
  secrets = mkdtempSync(join(tmpdir(), "aru-minted-"));
  sim.resetCounts();
});

afterEach(() => {
  ws.cleanup();
  rmSync(secrets, { recursive: true, force: true });
});

describe("simulator token", () => {
  it("prints a fresh token as {token, expiresAt}, which the simulator then accepts", async () => {
    // when
    const result = await runCli(["simulator", "token", "--url", sim.url], { cwd: ws.dir });
    // then
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { token: string; expiresAt: string };
    expect(Object.keys(printed).sort()).toEqual(["expiresAt", "token"]);
    expect(Date.parse(printed.expiresAt)).toBeGreaterThan(Date.now() + 250_000);
    expect(sim.requestCounts()["oauth-token"]).toBe(1);
  });

  it("is refused a wrong client secret, and says which variable holds it", async () => {
    const result = await runCli(["simulator", "token", "--url", sim.url], { cwd: ws.dir, env: { ALERTS_CLIENT_SECRET: "not-the-simulator-token" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/answered 401 .*set ALERTS_CLIENT_SECRET to the simulator's --token/);
    expect(result.stdout).toBe("");
  });
});

describe("a token command", () => {
  it("serves plan, apply of the saved plan, and a triage command; no token it printed is in any output, plan or report", async () => {
    // given ALERTS_API_TOKEN_COMMAND for plan, --token-command for apply and alerts search
    const env = connection({ ALERTS_API_TOKEN_COMMAND: mintCommand() });
    // when
    const plan = await runCli(["plan", "--out", "plan.json", "--format", "json"], { cwd: ws.dir, env });
    const apply = await runCli(["apply", "plan.json", "--token-command", mintCommand(), "--report-json", "report.json", "--report-markdown", "report.md"], {
      cwd: ws.dir,
      env: connection(),
    });
    const search = await runCli(["alerts", "search", "--format", "json", "--token-command", mintCommand()], { cwd: ws.dir, env: connection() });
    // then each converged with a token the command minted (one run each: the tokens live 300 s)
    expect([plan.code, apply.code, search.code]).toEqual([0, 0, 0]);
    expect(listing(sim, RULES.finance)).toContain("5151:token.command@example.com");
    expect(minted()).toHaveLength(3);
    expect(sim.requestLog().filter((r) => r.operation !== "oauth-token").every((r) => r.status === 200 && r.tokenSerial !== undefined)).toBe(true);
    // and no token shows anywhere
    const everything = [plan.stdout, plan.stderr, apply.stdout, apply.stderr, search.stdout, search.stderr, workspaceFiles(ws.dir)].join("\n");
    expect(everything).toContain("token.command@example.com");
    for (const token of minted()) expect(everything).not.toContain(token);
  });

  it.each([
    ["a non-zero exit", "echo 'no such client' >&2; exit 7", /exited with status 7.*Its stderr:\n {2}no such client/s],
    ["a timeout", "sleep 30", /did not finish within 0\.5 s and was stopped/],
    ["empty output", "printf ''", /printed nothing/],
    ["invalid JSON", "echo '{\"token\": '", /is not valid JSON/],
  ])("that fails (%s) stops apply before any request, with a clear error", async (_what, command, says) => {
    // given a saved plan (made with a token command that works)
    const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: connection({ ALERTS_API_TOKEN_COMMAND: mintCommand() }) });
    expect(plan.code).toBe(0);
    sim.resetCounts();
    // when apply runs with a command that fails
    const apply = await runCli(["apply", "plan.json", "--report-json", "report.json"], {
      cwd: ws.dir,
      env: connection({ ALERTS_API_TOKEN_COMMAND: command, ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS: "0.5" }),
    });
    // then it failed, said why, and sent nothing at all
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/Error: the token command '.*' \(ALERTS_API_TOKEN_COMMAND\)/);
    expect(apply.stderr).toMatch(says);
    expect(sim.requestCounts()).toEqual({});
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.finance)).not.toContain("5151:token.command@example.com");
    // and the report says so too
    expect(JSON.parse(readFileSync(join(ws.dir, "report.json"), "utf8")).refusal).toMatchObject({ code: "CREDENTIALS", message: expect.stringMatching(/the token command/) });
  });

  it.each([
    ["ALERTS_API_TOKEN and ALERTS_API_TOKEN_COMMAND", [], { ALERTS_API_TOKEN: "static-token-1234", ALERTS_API_TOKEN_COMMAND: "echo x" }, /ALERTS_API_TOKEN and ALERTS_API_TOKEN_COMMAND/],
    ["ALERTS_API_TOKEN and --token-command", ["--token-command", "echo x"], { ALERTS_API_TOKEN: "static-token-1234" }, /ALERTS_API_TOKEN and --token-command/],
    ["--token-file and --token-command", ["--token-file", "token.txt", "--token-command", "echo x"], {}, /--token-file .*token\.txt and --token-command/],
  ])("given with another token source (%s) is an error naming both, before any request", async (_what, args, extra, names) => {
    writeFileSync(join(ws.dir, "token.txt"), "file-token-5678\n", { mode: 0o600 });
    const result = await runCli(["rules", "list", "--format", "json", ...args], { cwd: ws.dir, env: connection(extra) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(names);
    expect(result.stderr).toMatch(/Give exactly one/);
    expect(result.stderr).not.toMatch(/static-token-1234|file-token-5678/);
    expect(sim.requestCounts()).toEqual({});
  });

  it("can be the README's OAuth client-credentials script (curl and jq) against the simulator's endpoint", async () => {
    // given the script, with the client ID and secret where the README puts them
    const env = connection({
      ALERTS_API_TOKEN_COMMAND: join(REPO, "examples", "token-command", "oauth-client-credentials.sh"),
      ALERTS_TOKEN_URL: `${sim.url}/v1/oauth`,
      ALERTS_CLIENT_ID: "ci-client",
      ALERTS_CLIENT_SECRET: sim.token,
    });
    // when
    const listed = await runCli(["rules", "list", "--format", "json"], { cwd: ws.dir, env });
    // then the token it got served the command, and the secret is nowhere in the output
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { rules: unknown[] }).rules.length).toBeGreaterThan(0);
    expect(sim.mintedTokens()).toBe(1);
    expect(listed.stdout + listed.stderr).not.toContain(sim.token);
    // and a wrong secret is a clear error with curl's complaint, before any request
    sim.resetCounts();
    const refused = await runCli(["rules", "list"], { cwd: ws.dir, env: { ...env, ALERTS_CLIENT_SECRET: "wrong-secret-4321" } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the token command '.*oauth-client-credentials\.sh' \(ALERTS_API_TOKEN_COMMAND\) exited with status 22.*401/s);
    expect(refused.stderr).not.toContain("wrong-secret-4321");
    expect(Object.keys(sim.requestCounts())).toEqual(["oauth-token"]);
  });

  it("is in the help of the commands that talk to the service", async () => {
    for (const command of [["plan"], ["apply"], ["import"], ["rules", "list"], ["who"], ["alerts", "search"], ["cases", "create"]]) {
      const result = await runCli([...command, "--help"], { cwd: ws.dir });
      expect(`${command.join(" ")}: ${result.stdout}`).toMatch(/--token-command/);
    }
  });
});
