/**
 * SIGINT / SIGTERM in the middle of an apply (docs/contract.md §9.3), sent to a real CLI process applying
 * against a slow simulator: no new call starts, the calls in flight finish, both reports are
 * written with the rules not done as "interrupted", stderr says what was done and to run apply
 * again, the exit code is 130 / 143; and running apply again converges.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApplyReport } from "../../src/core/report/apply-report";
import { main } from "../../src/cli/main";
import { runCli, writesOf } from "../support/cli";
import { REPORTS, SecretScan, chaosCase, env, listKey, spawnCli, terminal, waitFor, withChaosRun } from "./support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const listenersBefore = process.listenerCount("SIGINT");
const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
const writes = (counts: Record<string, number>): number => total(writesOf(counts));

describe.each([
  { signal: "SIGINT" as const, code: 130, saved: false },
  { signal: "SIGTERM" as const, code: 143, saved: true },
])("$signal during apply (saved plan: $saved)", ({ signal, code, saved }) => {
  it(`stops starting calls, finishes those in flight, writes both reports with "interrupted" rules, exits ${code}; apply again converges`, async () => {
    // given 8 rules to change on a service that takes 250 ms per request
    const chaos = chaosCase(21, 8, ["add", "remove", "mixed", "remove-alias"]);
    await withChaosRun(scan, chaos, {}, async (sim, ws) => {
      if (saved) {
        const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: env(sim.url) });
        scan.add("plan", plan.stdout, plan.stderr);
        expect(plan.code).toBe(0);
      }
      sim.setFaults({ latencyMs: 250 });
      sim.resetCounts();
      const args = saved ? ["apply", "plan.json"] : ["apply", "--auto-approve"];
      const apply = spawnCli([...args, "--parallelism", "2", ...REPORTS], { cwd: ws.dir, env: env(sim.url) });

      // when the signal comes once the first writes have arrived (answers still pending)
      await waitFor("the first writes", () => writes(sim.requestCounts()) >= 2);
      apply.child.kill(signal);
      const arrivedBefore = total(sim.requestCounts());
      const result = await apply.done;
      scan.add(`apply ${signal}`, result.stdout, result.stderr);

      // then no request arrived after the signal, and the process exits with the signal's code
      expect(total(sim.requestCounts())).toBe(arrivedBefore);
      expect([result.code, result.signal]).toEqual([code, null]);
      // and stderr says what happened, what was done and what to do
      expect(result.stderr).toContain(`${signal} received: stopping apply. No new call will start`);
      expect(result.stderr).toMatch(new RegExp(`Apply interrupted by ${signal}: \\d+ rules? applied and verified, \\d+ not done \\(interrupted\\); no call was started after the interrupt`));
      expect(result.stderr).toMatch(saved ? /Run plan again and apply the new plan to finish \(run apply again with a new plan/ : /Run apply again to finish/);
      expect(result.stdout).toMatch(/Apply interrupted: \d+ rules? applied and verified, \d+ interrupted/);

      // and both reports are written: the rules not done are "interrupted", the others as they ended
      const report = JSON.parse(readFileSync(join(ws.dir, "report.json"), "utf8")) as ApplyReport;
      expect([report.status, report.exitCode, report.refusal?.code]).toEqual(["interrupted", code, "INTERRUPTED"]);
      const outcomes = report.rules.map((r) => r.outcome);
      expect(outcomes).toContain("interrupted");
      expect(outcomes.every((o) => ["applied", "interrupted", "unchanged"].includes(o))).toBe(true);
      expect(report.summary?.interrupted).toBe(outcomes.filter((o) => o === "interrupted").length);
      // every write the service received is in the report, as a call of an applied or interrupted rule
      const reported = report.rules.flatMap((r) => r.calls).length;
      expect(reported).toBe(writes(sim.requestCounts()));
      expect(existsSync(join(ws.dir, "report.md"))).toBe(true);
      expect(readFileSync(join(ws.dir, "report.md"), "utf8")).toMatch(/⏸️ interrupted/);

      // and running apply again (planning again for a saved plan) converges every rule
      sim.setFaults({});
      const again = await runCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply again", again.stdout, again.stderr);
      expect(again.code).toBe(0);
      for (const [id, expected] of chaos.expected) expect([id, listKey(sim.rule(id)!.users)]).toEqual([id, expected]);
      const plan = await runCli(["plan", "--detailed-exitcode", "--skip-synth"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("plan after", plan.stdout, plan.stderr);
      expect(plan.code).toBe(0);
    });
  });
});

describe("an interrupt before the first write", () => {
  it("at the confirmation prompt: nothing is sent, both reports say interrupted, exit 130", async () => {
    const chaos = chaosCase(22, 3, ["add"]);
    await withChaosRun(scan, chaos, {}, async (sim, ws) => {
      // given an apply (in this process, on a terminal the test types into) waiting at the prompt
      const tty = terminal(env(sim.url), ws.dir);
      const run = main(["apply", ...REPORTS], tty.io);
      await waitFor("the confirmation prompt", () => tty.stdout().includes("Enter a value:"));
      sim.resetCounts();
      // when SIGINT arrives (delivered to the handlers the apply installed)
      process.emit("SIGINT");
      const code = await run;
      const [stdout, stderr] = [tty.stdout(), tty.stderr()];
      scan.add("interrupted at the prompt", stdout, stderr);
      // then nothing is sent, the exit code is 130 and both reports say so
      expect(code).toBe(130);
      expect(sim.requestCounts()).toEqual({});
      expect(stderr).toMatch(/Apply interrupted by SIGINT: nothing was sent; no call was started after the interrupt\. Run apply again to finish/);
      const report = JSON.parse(readFileSync(join(ws.dir, "report.json"), "utf8")) as ApplyReport;
      expect([report.status, report.exitCode]).toEqual(["interrupted", 130]);
      expect(report.rules.map((r) => r.outcome)).toEqual(["interrupted", "interrupted", "interrupted"]);
      expect(readFileSync(join(ws.dir, "report.md"), "utf8")).toMatch(/Apply interrupted by SIGINT/);
      // and the handlers are gone once apply returned
      expect(process.listenerCount("SIGINT")).toBe(listenersBefore);
    });
  });
});
