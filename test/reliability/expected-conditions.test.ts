/**
 * Conditions a user meets, each said plainly (never "Internal error (a bug…)"): --out into a
 * directory that does not exist, a simulator port already in use, a service that redirects, a
 * token file others can read, and the temp files a killed simulator leaves beside its --data.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, workspace, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { startHostileService, type HostileService } from "./hostile-service";
import { SecretScan, TOKEN, chaosCase, env, kill, startSimulatorProcess } from "./support";

const scan = new SecretScan();
const chaos = chaosCase(41, 2, ["add"]);
const sim = useSimulator({ seed: chaos.seed, token: TOKEN });
let ws: Workspace;

beforeAll(() => {
  ws = workspace(chaos.stacks);
  scan.dir(ws.dir);
});
afterAll(() => {
  scan.collectFiles();
  ws.cleanup();
  scan.expectNoLeaks();
});

const NOT_A_BUG = /Internal error/;

describe("--out into a directory that does not exist", () => {
  it.each([
    ["plan --out", ["plan", "--out", "no/such/dir/plan.json"], "plan.json"],
    ["import --out", ["import", "--all", "--out", "no/such/dir/main.ts"], "main.ts"],
  ])("%s: exit 1 naming the directory and how to create it", async (_name, args, file) => {
    const result = await runCli(args, { cwd: ws.dir, env: env(sim.url) });
    scan.add(_name, result.stdout, result.stderr);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(NOT_A_BUG);
    expect(result.stderr).toMatch(new RegExp(`--out no/such/dir/${file.replace(".", "\\.")}: the directory .*no/such/dir does not exist; create it first \\(mkdir -p .*no/such/dir\\)`));
  });

  it("apply --report-json: refused before anything is sent, since the report could not be written", async () => {
    sim.resetCounts();
    const result = await runCli(["apply", "--auto-approve", "--report-json", "no/such/dir/report.json"], { cwd: ws.dir, env: env(sim.url) });
    scan.add("apply report", result.stdout, result.stderr);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(NOT_A_BUG);
    expect(result.stderr).toMatch(/--report-json no\/such\/dir\/report\.json: the directory .*no\/such\/dir does not exist; create it first/);
    expect(sim.requestLog()).toEqual([]);
  });

  it("simulator --data: the directory and how to create it", async () => {
    const result = await runCli(["simulator", "--data", "no/such/dir/state.json"], { cwd: ws.dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(NOT_A_BUG);
    expect(result.stderr).toMatch(/cannot write .*no\/such\/dir\/state\.json: the directory .*no\/such\/dir does not exist; create it first \(mkdir -p/);
  });
});

describe("simulator --port already in use", () => {
  let blocker: Server;
  let port: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it("exit 1 naming the port and the ways out", async () => {
    const result = await runCli(["simulator", "--port", String(port)], { cwd: ws.dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(NOT_A_BUG);
    expect(result.stderr).toMatch(new RegExp(`port ${port} is already in use`));
    expect(result.stderr).toMatch(/pass another --port, or --port 0 for any free port/);
  });
});

describe("a service that redirects", () => {
  let hostile: HostileService;
  afterEach(() => hostile.stop());

  it.each([301, 302, 307])("%i: the error says where it points and that redirects are not followed", async (status) => {
    // given
    hostile = await startHostileService((_request, res) => {
      res.writeHead(status, { location: "https://alerts.new.example.com/v1/alerts/rules/query-rule-metadata", "content-type": "text/html" });
      res.end("<html><body>Moved</body></html>");
    });
    // when
    const result = await runCli(["plan"], { cwd: ws.dir, env: env(hostile.url) });
    scan.add(`redirect ${status}`, result.stdout, result.stderr);
    // then one request, and a message that says what to do
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`query-rule-metadata failed: ${status}`));
    expect(result.stderr).toMatch(/redirects to https:\/\/alerts\.new\.example\.com\/v1\/alerts\/rules\/query-rule-metadata; redirects are not followed/);
    expect(result.stderr).toMatch(/point ALERTS_API_URL \(or --base-url\) at the new address/);
    expect(hostile.requests).toHaveLength(1);
  });
});

describe("a token file others can read", () => {
  // Outside the scanned workspace: these files hold the token on purpose.
  let secretDir: string;
  beforeAll(() => {
    secretDir = mkdtempSync(join(tmpdir(), "aru-token-"));
  });
  afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

  it.each([
    [0o644, /can be read by every user of this machine \(mode 0644\); restrict it to its owner: chmod 600/],
    [0o640, /can be read by its group \(mode 0640\); restrict it to its owner: chmod 600/],
    [0o600, null],
  ] as const)("mode %o: %s", async (mode, warning) => {
    // given
    const file = join(secretDir, `token-${mode.toString(8)}`);
    writeFileSync(file, `${TOKEN}\n`);
    chmodSync(file, mode);
    // when
    const { ALERTS_API_TOKEN: _unused, ...rest } = env(sim.url);
    void _unused;
    const result = await runCli(["plan", "--token-file", file], { cwd: ws.dir, env: rest });
    scan.add(`token file ${mode.toString(8)}`, result.stdout, result.stderr);
    // then the plan runs, with a warning when the file is exposed
    expect(result.code).toBe(0);
    if (warning === null) expect(result.stderr).not.toMatch(/Warning: --token-file/);
    else expect(result.stderr).toMatch(new RegExp(`Warning: --token-file .*token-${mode.toString(8)} ${warning.source}`));
  });
});

describe("temp files a killed simulator left beside --data", () => {
  it("are removed at start, except those of a process that still runs", async () => {
    // given a data dir with a temp file of a dead writer and one of this (running) process
    const dir = mkdtempSync(join(tmpdir(), "aru-temp-"));
    scan.dir(dir);
    const stale = ".state.json.99999999.0123456789ab.tmp";
    const live = `.state.json.${process.pid}.ba9876543210.tmp`;
    writeFileSync(join(dir, stale), "{ half a file");
    writeFileSync(join(dir, live), "{ being written");
    // when a simulator starts on that data file
    const simulator = await startSimulatorProcess({ cwd: dir, dataFile: join(dir, "state.json") });
    await kill(simulator.process);
    scan.add("simulator", simulator.process.stderr());
    // then the stale one is gone and said so; the live one and the data file are there
    try {
      expect(existsSync(join(dir, stale))).toBe(false);
      expect(existsSync(join(dir, live))).toBe(true);
      expect(readdirSync(dir)).toContain("state.json");
      expect(simulator.process.stderr()).toMatch(new RegExp(`Removed 1 temp file left beside .*state\\.json by a simulator that was killed: ${stale.replace(/\./g, "\\.")}`));
    } finally {
      scan.collectFiles();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
