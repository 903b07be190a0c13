/**
 * The native provider with real Terraform when things go wrong (issue 29): Ctrl-C during an apply,
 * lost responses and 5xx answers mid-apply, and a service that allows 2 requests a second under
 * Terraform's default parallelism of 10. Each test has its own directory, provider install, state and
 * simulator (a tenant of generated rules, test/terraform/support-tenant.ts). Run by
 * `npm run test:terraform` (needs `terraform` on PATH).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withSimulator } from "../support/simulator";
import { WRITE_OPERATIONS, isWrite } from "../support/write-operations";
import { CLI, listing, runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";
import type { FaultOptions, RunningSimulator } from "../../src/simulator";
import { MINUTES, TERRAFORM, explain, providerTestEnv, terraform } from "./support";
import { scaleRuleId, tenantWithRules } from "./support-tenant";

const TOKEN = "provider-faults-token-8c41e9d0";

/** A request as it arrived at the simulator, stamped with this machine's wall clock (Terraform's log uses it too). */
interface Arrival {
  readonly atEpochMs: number;
  readonly operation: string;
}

interface User {
  readonly userId: string;
  readonly aliases: readonly string[];
}

/** Rule `i`'s users in version `v` of the configuration: two users, the second replaced by each new version. */
function usersOf(i: number, v: number): User[] {
  return [
    { userId: `00u${i}a`, aliases: [`first.${i}@example.com`] },
    { userId: `00u${i}v${v}`, aliases: [`version${v}.${i}@example.com`] },
  ];
}

const expected = (users: readonly User[]): string[] => users.map((u) => `${u.userId}:${[...u.aliases].sort().join(",")}`).sort();

/** One Terraform working directory: the provider installed into its implied mirror, the simulator's connection in the environment. */
class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), "alertrules-faults-"));
  readonly env: NodeJS.ProcessEnv;

  constructor(readonly sim: RunningSimulator) {
    // A CLI configuration without provider_installation: Terraform then uses the implied local mirror.
    writeFileSync(join(this.dir, "terraform.rc"), "disable_checkpoint = true\n");
    this.env = providerTestEnv(this.dir, sim, TOKEN);
  }

  async install(): Promise<void> {
    const installed = await runCommand(process.execPath, [CLI, "provider", "install", this.dir], { cwd: this.dir, env: this.env, timeoutMs: 2 * MINUTES });
    if (installed.code !== 0) throw new Error(explain("alert-rule-users provider install", installed));
  }

  /** main.tf: the provider block (with `providerBody`) and one resource per rule index, at configuration version `v`. */
  configure(rules: readonly number[], v: number, providerBody = ""): void {
    const resources = rules.map(
      (i) =>
        `resource "alertrules_rule_user_list" "r${i}" {\n  rule_id = ${JSON.stringify(scaleRuleId(i))}\n  users = {\n` +
        usersOf(i, v)
          .map((u) => `    ${JSON.stringify(u.userId)} = { aliases = ${JSON.stringify(u.aliases)} }`)
          .join("\n") +
        `\n  }\n}\n`,
    );
    writeFileSync(
      join(this.dir, "main.tf"),
      `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {\n${providerBody}}\n\n${resources.join("\n")}`,
    );
  }

  async tf(args: string[], codes: readonly number[] = [0], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    const result = await terraform([...args, "-no-color"], this.dir, { ...this.env, ...extraEnv });
    if (!codes.includes(result.code ?? -1)) throw new Error(explain(`terraform ${args.join(" ")}`, result));
    return result;
  }

  /** Rule ID → the users Terraform's state records for it (`userId:alias,alias`, sorted). */
  async stateUsers(): Promise<Map<string, string[]>> {
    const show = await this.tf(["show", "-json"]);
    const doc = JSON.parse(show.stdout) as { values?: { root_module?: { resources?: Array<{ type: string; values: { id: string; users: Record<string, { aliases: string[] }> } }> } } };
    const resources = (doc.values?.root_module?.resources ?? []).filter((r) => r.type === "alertrules_rule_user_list");
    return new Map(resources.map((r) => [r.values.id, Object.entries(r.values.users).map(([id, u]) => `${id}:${[...u.aliases].sort().join(",")}`).sort()]));
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs `body` in a fresh workspace against a fresh simulator of `rules` generated rules, whatever happens. */
async function inWorkspace(rules: number, body: (ws: Workspace, arrivals: Arrival[]) => Promise<void>, faults: FaultOptions = {}): Promise<void> {
  const arrivals: Arrival[] = [];
  await withSimulator({ token: TOKEN, seed: tenantWithRules(rules), faults, onRequest: (operation) => arrivals.push({ atEpochMs: Date.now(), operation }) }, async (sim) => {
    const ws = new Workspace(sim);
    try {
      await ws.install();
      await body(ws, arrivals);
    } finally {
      ws.cleanup();
    }
  });
}

/** The state records exactly what is live for every rule it holds; returns the state's users by rule ID. */
async function expectStateIsLive(ws: Workspace): Promise<Map<string, string[]>> {
  const state = await ws.stateUsers();
  for (const [ruleId, users] of state) expect({ ruleId, users }).toEqual({ ruleId, users: listing(ws.sim, ruleId) });
  return state;
}

/** Every rule of `rules` holds version `v` of its list. */
function expectConverged(ws: Workspace, rules: readonly number[], v: number): void {
  for (const i of rules) expect({ rule: i, users: listing(ws.sim, scaleRuleId(i)) }).toEqual({ rule: i, users: expected(usersOf(i, v)) });
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe("the alertrules provider when Terraform is interrupted", () => {
  const RULES = range(8);

  it("Ctrl-C during apply: no write starts after the stop, the state records what is live, and the next apply converges", async () => {
    await inWorkspace(RULES.length, async (ws, arrivals) => {
      // given 8 lists to change, one resource at a time, each call held 250 ms by the service
      ws.configure(RULES, 1);
      await ws.tf(["init"]);
      ws.sim.setFaults({ latencyMs: 250 });
      const logFile = join(ws.dir, "terraform.log");

      // when Ctrl-C reaches Terraform's process group (as a terminal sends it) while the first write is in flight
      const child = spawn(TERRAFORM, ["apply", "-auto-approve", "-parallelism=1", "-no-color"], {
        cwd: ws.dir,
        env: { ...ws.env, TF_LOG: "debug", TF_LOG_PATH: logFile },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      let interruptedAt: number | null = null;
      const deadline = Date.now() + 5 * MINUTES;
      try {
        while (interruptedAt === null && Date.now() < deadline && child.exitCode === null) {
          if (arrivals.some((a) => isWrite(a.operation))) {
            interruptedAt = Date.now();
            process.kill(-child.pid!, "SIGINT");
          } else await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        if (interruptedAt === null && child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
      }
      const code = await exited;
      if (interruptedAt === null) throw new Error(`no write reached the service before terraform ended:\n${output.slice(-4000)}`);

      // then terraform says it was interrupted and fails
      expect(output).toMatch(/Interrupt received/);
      expect(code).not.toBe(0);
      // the provider heard Terraform's stop (its log line, stamped by Terraform when it read it)
      const stopLine = readFileSync(logFile, "utf8")
        .split("\n")
        .find((line) => line.includes("stop requested: no new call starts"));
      if (stopLine === undefined) throw new Error("Terraform's log has no line of the provider's stop");
      const stoppedAt = Date.parse(stopLine.slice(0, stopLine.indexOf(" ")));
      expect(Number.isNaN(stoppedAt)).toBe(false);
      // no write started after it (calls in flight finish; the read of the state reached may follow)
      const writes = arrivals.filter((a) => isWrite(a.operation));
      expect(writes.filter((w) => w.atEpochMs > stoppedAt)).toEqual([]);
      // only the rule whose apply was in flight was written; the others never were
      const written = RULES.filter((i) => listing(ws.sim, scaleRuleId(i)).length > 0);
      expect(written.length).toBeLessThanOrEqual(1);
      // the state records, for every rule it holds, what is live
      await expectStateIsLive(ws);

      // and the next apply converges everything, after which nothing is left to plan
      ws.sim.setFaults({});
      await ws.tf(["apply", "-auto-approve"]);
      expectConverged(ws, RULES, 1);
      await expectStateIsLive(ws);
      await ws.tf(["plan", "-detailed-exitcode"], [0]);
    });
  }, 10 * MINUTES);
});

describe("the alertrules provider when the service fails mid-apply", () => {
  const RULES = range(6);
  /** The rule whose additions the service always answers 500 (HTML, as a broken gateway does). */
  const BROKEN = 2;

  it("retries lost responses and 5xx answers to convergence; a rule that keeps failing records what is live, and the next apply finishes", async () => {
    await inWorkspace(RULES.length, async (ws) => {
      // given 6 lists in state
      ws.configure(RULES, 1);
      await ws.tf(["init"]);
      await ws.tf(["apply", "-auto-approve"]);
      expectConverged(ws, RULES, 1);

      // when every list changes (a user replaced: one add-users, one remove-users each) while the
      // service loses the answer of about half the writes it applies, fails a quarter before
      // applying, and always fails the additions of one rule
      ws.configure(RULES, 2);
      ws.sim.resetCounts();
      ws.sim.setFaults({
        seed: 29,
        lostResponseRate: 0.5,
        failRate: 0.25,
        operations: [...WRITE_OPERATIONS],
        misbehave: [{ operation: "add-users", ruleId: scaleRuleId(BROKEN), kind: "html-error" }],
      });
      const applied = await ws.tf(["apply", "-auto-approve"], [1]);

      // then both faults happened: writes answered 502 after they were applied, and 503 before
      const statuses = ws.sim.requestLog().filter((e) => isWrite(e.operation)).map((e) => e.status);
      expect(statuses).toContain(502);
      expect(statuses).toContain(503);
      // the provider's retries converged every rule but the broken one, which is named
      expect(applied.stderr).toMatch(/did not converge/);
      expect(applied.stderr).toContain(scaleRuleId(BROKEN));
      expectConverged(
        ws,
        RULES.filter((i) => i !== BROKEN),
        2,
      );
      expect(listing(ws.sim, scaleRuleId(BROKEN))).toEqual(expected(usersOf(BROKEN, 1)));
      // the state records, for every rule, what is live (the broken rule: its list as it was)
      const state = await expectStateIsLive(ws);
      expect(state.size).toBe(RULES.length);

      // and once the service recovers, the next apply finishes and nothing is left to plan
      ws.sim.setFaults({});
      await ws.tf(["apply", "-auto-approve"]);
      expectConverged(ws, RULES, 2);
      await expectStateIsLive(ws);
      await ws.tf(["plan", "-detailed-exitcode"], [0]);
    });
  }, 10 * MINUTES);
});

describe("the alertrules provider against a service that allows 2 requests a second", () => {
  const RULES = range(10);
  /**
   * How many 429s one provider process may meet: its limiter knows nothing of the service at start,
   * so it learns the limit from the first refusals (a burst past the service's bucket of 2) and then
   * spaces its requests under it. `terraform apply` starts two provider processes (the plan's and the
   * apply's walk), each learning anew; `terraform plan` one.
   */
  const FEW_429S_PER_PROCESS = 5;

  it("applies and refreshes 10 resources at -parallelism=10 with few 429s; the refresh sends one query-users per resource and no search", async () => {
    await inWorkspace(
      RULES.length,
      async (ws) => {
        // given 10 lists, the provider with no max_rps, terraform's default parallelism
        ws.configure(RULES, 1);
        await ws.tf(["init"]);

        // when they are applied
        ws.sim.resetCounts();
        await ws.tf(["apply", "-auto-approve", "-parallelism=10"]);

        // then every list converged, with few requests answered 429
        expectConverged(ws, RULES, 1);
        const applyLimited = ws.sim.requestLog().filter((e) => e.status === 429).length;
        expect(applyLimited).toBeLessThanOrEqual(2 * FEW_429S_PER_PROCESS);

        // and a refresh (a plan) reads each list once, searches nothing, and finds nothing to do
        ws.sim.resetCounts();
        await ws.tf(["plan", "-detailed-exitcode", "-parallelism=10"], [0]);
        const log = ws.sim.requestLog();
        const answered = log.filter((e) => e.status !== 429);
        expect(answered.filter((e) => e.operation === "query-users").length).toBe(RULES.length);
        expect(new Set(answered.filter((e) => e.operation === "query-users").map((e) => e.ruleId)).size).toBe(RULES.length);
        expect(ws.sim.requestCounts()["query-rule-metadata"] ?? 0).toBe(0);
        expect(log.filter((e) => e.status === 429).length).toBeLessThanOrEqual(FEW_429S_PER_PROCESS);
        await expectStateIsLive(ws);
      },
      { rateLimitRps: 2 },
    );
  }, 10 * MINUTES);
});
