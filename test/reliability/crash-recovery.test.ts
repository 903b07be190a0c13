/**
 * Crashes: the CLI killed (SIGKILL) in the middle of an apply, and the simulator process killed
 * and restarted in the middle of a run. Running apply again converges and verifies; no write the
 * service acknowledged is lost from its data file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuleListClient } from "../../src/api";
import { runCli, workspace, writesOf } from "../support/cli";
import { REPORTS, SecretScan, TENANT, TOKEN, chaosCase, env, kill, listKey, spawnCli, startSimulatorProcess, waitFor, withChaosRun, writesLogged, type SimulatorProcess } from "./support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const writesSent = (counts: Record<string, number>): number => Object.values(writesOf(counts)).reduce((a, b) => a + b, 0);

describe("the CLI killed in the middle of an apply", () => {
  it("running apply again converges and verifies every rule", async () => {
    // given 20 rules to change and a slow service
    const chaos = chaosCase(3, 20, ["add", "remove", "mixed", "rebuild", "remove-alias"]);
    await withChaosRun(scan, chaos, { faults: { latencyMs: 40 } }, async (sim, ws) => {
      // when the apply is killed after its first writes
      const first = spawnCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(sim.url) });
      await waitFor("the first writes", () => writesSent(sim.requestCounts()) >= 5);
      await kill(first);
      const killed = await first.done;
      scan.add("killed apply", killed.stdout, killed.stderr);
      expect(killed.signal).toBe("SIGKILL");
      const unfinished = [...chaos.expected].filter(([id, expected]) => listKey(sim.rule(id)!.users).join() !== expected.join());
      expect(unfinished.length).toBeGreaterThan(0);

      // then running apply again converges every rule, and verifies it
      sim.setFaults({});
      const again = await runCli(["apply", "--auto-approve", ...REPORTS], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply again", again.stdout, again.stderr);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/Apply complete: \d+ rules? applied and verified, 0 failed/);
      for (const [id, expected] of chaos.expected) expect([id, listKey(sim.rule(id)!.users)]).toEqual([id, expected]);
      const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("plan after", plan.stdout, plan.stderr);
      expect(plan.code).toBe(0);
    });
  });
});

interface DataFile {
  rules: Array<{ metadata: { observerRuleId: string }; users: Array<{ userIdFromAuthority: string | null; userAliasList: string[] }> }>;
}

/** Every user ID in the simulator's data file, as `ruleId/userId`. */
function usersInDataFile(file: string): Set<string> {
  const data = JSON.parse(readFileSync(file, "utf8")) as DataFile;
  return new Set(data.rules.flatMap((r) => r.users.map((u) => `${r.metadata.observerRuleId}/${u.userIdFromAuthority ?? "-"}`)));
}

describe("the simulator killed and restarted in the middle of a run", () => {
  let dir: string;
  let server: SimulatorProcess | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-crash-"));
    scan.dir(dir);
  });

  afterEach(async () => {
    if (server !== undefined) {
      await kill(server.process);
      scan.add("simulator", server.process.stdout(), server.process.stderr());
    }
    server = undefined;
    scan.collectFiles();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loses no write it acknowledged: every 2xx before the kill is in the data file after the restart", async () => {
    // given a simulator process persisting to a data file
    const chaos = chaosCase(8, 4, ["none"]);
    const seedFile = join(dir, "seed.json");
    const dataFile = join(dir, "state.json");
    writeFileSync(seedFile, JSON.stringify(chaos.seed));
    server = await startSimulatorProcess({ cwd: dir, dataFile, seedFile });
    const url = server.url;
    const rules = [...chaos.expected.keys()];

    // and three clients adding users concurrently, each add recorded once acknowledged
    const acknowledged = new Set<string>();
    const failed = new Set<string>();
    let stop = false;
    const writer = async (k: number): Promise<void> => {
      const client = new RuleListClient({ baseUrl: url, token: TOKEN, tenantId: TENANT });
      for (let n = 0; n < 40 && !stop; n++) {
        const ruleId = rules[n % rules.length]!;
        const userId = `w${k}-${n}`;
        try {
          await client.addUsers(ruleId, [{ userIdFromAuthority: userId, userAliasList: [`${userId}@example.com`] }]);
          acknowledged.add(`${ruleId}/${userId}`);
        } catch {
          failed.add(`${ruleId}/${userId}`);
        }
      }
    };
    const writers = Promise.all([1, 2, 3].map(writer));

    // when the simulator is killed after some acknowledged writes
    await waitFor("acknowledged writes", () => acknowledged.size >= 15);
    await kill(server.process);
    scan.add("simulator before the kill", server.process.stdout(), server.process.stderr());
    const ackedBeforeKill = [...acknowledged];

    // then every write acknowledged before the kill is in the data file
    const onDisk = usersInDataFile(dataFile);
    expect(ackedBeforeKill.filter((w) => !onDisk.has(w))).toEqual([]);

    // and after a restart on the same port (state loaded from the data file) the writers go on
    server = await startSimulatorProcess({ cwd: dir, dataFile, port: server.port });
    await writers;
    stop = true;
    expect(acknowledged.size).toBeGreaterThan(ackedBeforeKill.length);

    // and every acknowledged write, before and after the restart, is on disk and served
    const finalDisk = usersInDataFile(dataFile);
    expect([...acknowledged].filter((w) => !finalDisk.has(w))).toEqual([]);
    const reader = new RuleListClient({ baseUrl: server.url, token: TOKEN, tenantId: TENANT });
    const served = new Set<string>();
    for (const ruleId of rules) {
      for (const u of (await reader.queryUsers(ruleId)).users) served.add(`${ruleId}/${u.userIdFromAuthority ?? "-"}`);
    }
    expect([...acknowledged].filter((w) => !served.has(w))).toEqual([]);
  });

  it("an apply across the crash and restart converges when run again", async () => {
    // given a slow simulator process and a declaration changing 12 rules
    const chaos = chaosCase(9, 12, ["add", "remove", "mixed", "rebuild"]);
    const seedFile = join(dir, "seed.json");
    const dataFile = join(dir, "state.json");
    writeFileSync(seedFile, JSON.stringify(chaos.seed));
    server = await startSimulatorProcess({ cwd: dir, dataFile, seedFile, latencyMs: 30 });
    const ws = workspace(chaos.stacks);
    scan.dir(ws.dir);
    try {
      const apply = spawnCli(["apply", "--auto-approve", "--parallelism", "2"], { cwd: ws.dir, env: env(server.url) });
      // when the simulator is killed once the apply has started writing, and restarted
      const running = server;
      await waitFor("the apply to start writing", () => writesLogged(running) >= 3);
      await kill(server.process);
      scan.add("simulator before the kill", server.process.stdout(), server.process.stderr());
      server = await startSimulatorProcess({ cwd: dir, dataFile, port: server.port, latencyMs: 30 });
      const first = await apply.done;
      scan.add("apply across the crash", first.stdout, first.stderr);
      expect([0, 1]).toContain(first.code);

      // then apply again exits 0 and every list is as declared, on disk too
      const again = await runCli(["apply", "--auto-approve", ...REPORTS], { cwd: ws.dir, env: env(server.url) });
      scan.add("apply again", again.stdout, again.stderr);
      expect(again.code).toBe(0);
      const data = JSON.parse(readFileSync(dataFile, "utf8")) as DataFile;
      for (const rule of data.rules) {
        const id = rule.metadata.observerRuleId;
        expect([id, listKey(rule.users)]).toEqual([id, chaos.expected.get(id)]);
      }
    } finally {
      ws.cleanup();
    }
  });
});
