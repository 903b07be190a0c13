/**
 * Chaos converge: 50 rules with mixed changes, applied through the real CLI while the service
 * fails 20% of requests before applying them, loses 10% of the responses of applied writes,
 * rate limits the run (a token bucket of 25 requests a second: 429 with Retry-After beyond it),
 * and adds latency. The apply, with the CLI's rate limiter on as always, still converges every
 * list and verifies it, and planning again finds nothing to do.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli, writesOf } from "../support/cli";
import { REPORTS, SecretScan, chaosCase, env, listKey, withChaosRun } from "./support";

const scan = new SecretScan();

/** The lines of the apply report and plan that name a failure or an error, for a readable assertion. */
const failuresIn = (stdout: string): string[] => stdout.split("\n").filter((line) => /✗|failed:|^\s*! .*failed/.test(line));

afterAll(() => {
  scan.expectNoLeaks();
});

describe("apply under injected faults", () => {
  it.each([[11], [29], [47]])("converges 50 rules and verifies them, and a second plan is empty (fault seed %d)", async (faultSeed) => {
    // given a tenant of 50 editable rules and a declaration that changes most of them
    const chaos = chaosCase(faultSeed);
    await withChaosRun(scan, chaos, {}, async (sim, ws) => {
      // and a service that fails, loses responses, rate limits and is slow
      sim.setFaults({ failRate: 0.2, lostResponseRate: 0.1, rateLimitRps: 25, latencyMs: 3, seed: faultSeed });

      // when the declaration is applied
      const applied = await runCli(["apply", "--auto-approve", ...REPORTS], { cwd: ws.dir, env: env(sim.url), timeoutMs: 150_000 });
      scan.add(`apply (seed ${faultSeed})`, applied.stdout, applied.stderr);

      // then it exits 0, having met the faults it was given
      expect({ code: applied.code, failures: failuresIn(applied.stdout) }).toEqual({ code: 0, failures: [] });
      const counts = sim.requestCounts();
      expect(Object.keys(writesOf(counts)).length).toBeGreaterThanOrEqual(3);
      // and the rate limit was met: some requests were refused, the limiter slowed the run down
      expect(sim.requestLog().filter((e) => e.status === 429).length).toBeGreaterThan(0);

      expect(existsSync(join(ws.dir, "report.json")) && existsSync(join(ws.dir, "report.md"))).toBe(true);

      // and every list on the service equals the declaration
      for (const [ruleId, expected] of chaos.expected) {
        expect([ruleId, listKey(sim.rule(ruleId)!.users)]).toEqual([ruleId, expected]);
      }

      // and, once the service behaves, a second plan shows no changes
      sim.setFaults({});
      const again = await runCli(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: env(sim.url) });
      scan.add(`plan again (seed ${faultSeed})`, again.stdout, again.stderr);
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: "" });
      expect(again.stdout).toMatch(/No changes|0 rules to update/);
    });
  }, 180_000);
});
