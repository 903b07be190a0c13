/**
 * The periodic-429 scenario's pieces at tiny sizes (no timing assertions: those belong to
 * `npm run bench`): the simulator host passes the extra faults through, the engine converges under
 * them, and the rate held is counted from the request log.
 */
import { runEngine, type EngineRun } from "../../bench/lib/engine-run";
import { heldRate } from "../../bench/scenarios/periodic-429";
import { generateTenant } from "../../bench/lib/tenant";

describe("periodic-429 scenario at tiny sizes", () => {
  it("every 7th request 429, 20 % 503s and 10 % lost answers reach the engine's run, which converges", async () => {
    const tenant = generateTenant({ rules: 4, usersPerRule: 5, change: { kind: "mixed", fraction: 0.2 }, seed: 41 });
    const run = await runEngine(tenant, { parallelism: 2, latencyMs: 1, faults: { rateLimitEvery: 7, retryAfterSeconds: 1, failRate: 0.2, lostResponseRate: 0.1, seed: 41 } });
    expect(run.converged).toBe(true);
    expect(run.rateLimited).toBe(Math.floor(run.requestLog.length / 7));
    expect(run.requestLog.some((e) => e.status === 503)).toBe(true);
  });

  it("the rate held: accepted requests a minute over the run and in its slowest whole 30 s window; the limiter's end rate a minute", () => {
    // given a run of 60 s: 2 accepted requests a second for 30 s, then 1 a second, and a 429 every 10 s
    const requestLog = [
      ...Array.from({ length: 60 }, (_, i) => ({ atMs: i * 500, status: 200 })),
      ...Array.from({ length: 30 }, (_, i) => ({ atMs: 30_000 + i * 1000, status: 200 })),
      ...Array.from({ length: 6 }, (_, i) => ({ atMs: i * 10_000 + 1, status: 429 })),
    ].sort((a, b) => a.atMs - b.atMs);
    const run = { requestLog, wallMs: 60_000, limiter: { rps: 1.5, cuts: 1, throttles: 6 } } as unknown as EngineRun;
    // then 90 accepted in the minute; the slowest whole window inside the log (it ends at 59 s) is [29 s, 59 s): 31 requests, 62 a minute
    expect(heldRate(run)).toEqual({ acceptedPerMin: 90, requestsPerMin: 96, lowestWindowPerMin: 62, limiterEndPerMin: 90 });
  });
});
