/**
 * The simulator's rate limit (src/simulator/README.md, "Faults", `rateLimitRps`): a token bucket
 * of R requests a second, burst R, shared by every client; beyond it 429 with a truthful wait.
 */
import { TokenBucket, retryAfterHeaders } from "../../src/simulator/rate-limit";
import { simulatorOptionsFromArgs } from "../../src/cli/commands/simulator";
import { useSimulator } from "../support/simulator";
import { SAMPLE, call, ruleIdOf } from "./helpers";

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe("TokenBucket", () => {
  it("lets a burst of R through, then refuses with the time until the next token", () => {
    // given a bucket of 2 requests a second
    const clock = manualClock();
    const bucket = new TokenBucket(2, clock.now);

    // when three requests arrive at once
    const decisions = [bucket.take(), bucket.take(), bucket.take()];

    // then two pass and the third must wait half a second (one token at 2 a second)
    expect(decisions.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(decisions[2]).toEqual({ ok: false, retryAfterMs: 500 });
  });

  it("is truthful: after the announced wait a token is there, not before", () => {
    const clock = manualClock();
    const bucket = new TokenBucket(4, clock.now);
    for (let i = 0; i < 4; i++) expect(bucket.take().ok).toBe(true);
    clock.advance(100); // 0.4 of a token
    const refused = bucket.take();
    expect(refused).toEqual({ ok: false, retryAfterMs: 150 });

    clock.advance(149);
    expect(bucket.take().ok).toBe(false);
    clock.advance(1);
    expect(bucket.take()).toEqual({ ok: true });
  });

  it("refills at R a second and never holds more than R", () => {
    const clock = manualClock();
    const bucket = new TokenBucket(3, clock.now);
    clock.advance(60_000); // idle for a minute
    const passed = [0, 1, 2, 3, 4].map(() => bucket.take().ok).filter(Boolean).length;
    expect(passed).toBe(3);
  });

  it("holds at least one token below 1 request a second", () => {
    const clock = manualClock();
    const bucket = new TokenBucket(0.5, clock.now);
    expect(bucket.take()).toEqual({ ok: true });
    expect(bucket.take()).toEqual({ ok: false, retryAfterMs: 2000 });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("refuses a rate of %p", (rps) => {
    expect(() => new TokenBucket(rps)).toThrow("rateLimitRps");
  });

  it("writes Retry-After in whole seconds rounded up, and Retry-After-Ms", () => {
    expect(retryAfterHeaders(20)).toEqual({ "Retry-After": "1", "Retry-After-Ms": "20" });
    expect(retryAfterHeaders(1500)).toEqual({ "Retry-After": "2", "Retry-After-Ms": "1500" });
  });
});

describe("rateLimitRps over HTTP", () => {
  const sim = useSimulator({}, { perTest: true });
  const query = () => call(sim, "query-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName) });

  it("shares one bucket between all clients and answers 429 with Retry-After and Retry-After-Ms", async () => {
    // given a limit of 2 requests a second
    sim.setFaults({ rateLimitRps: 2 });

    // when five requests arrive together (separate connections: separate clients)
    const answers = await Promise.all([query(), query(), query(), query(), query()]);

    // then two are served and three refused with a wait of at most half a second
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.json.code).toBe("RATE_LIMITED");
      expect(refused.headers.get("retry-after")).toBe("1");
      const ms = Number(refused.headers.get("retry-after-ms"));
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThanOrEqual(500);
    }
    // and the request log has every request, with its status
    expect(sim.requestLog().map((e) => e.status).sort()).toEqual(statuses);
    expect(sim.requestLog().every((e) => e.operation === "query-users" && e.atMs >= 0)).toBe(true);
  });

  it("serves a request sent after the announced Retry-After-Ms", async () => {
    sim.setFaults({ rateLimitRps: 2 });
    await Promise.all([query(), query()]);
    const refused = await query();
    expect(refused.status).toBe(429);

    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get("retry-after-ms"))));
    expect((await query()).status).toBe(200);
  });

  it("starts with a full bucket again on setFaults", async () => {
    sim.setFaults({ rateLimitRps: 1 });
    expect((await query()).status).toBe(200);
    expect((await query()).status).toBe(429);
    sim.setFaults({ rateLimitRps: 1 });
    expect((await query()).status).toBe(200);
  });

  it("refuses a rate that is not a positive number, naming the field", () => {
    expect(() => sim.setFaults({ rateLimitRps: 0 })).toThrow("rateLimitRps");
  });
});

describe("simulator --rate-limit-rps", () => {
  it("takes a positive number of requests a second", () => {
    const parsed = simulatorOptionsFromArgs(["--rate-limit-rps", "2.5"]);
    expect(parsed).toEqual({ help: false, options: { faults: { rateLimitRps: 2.5 } } });
  });

  it.each(["0", "-2", "fast", ""])("refuses %p, naming the flag", (value) => {
    expect(() => simulatorOptionsFromArgs(["--rate-limit-rps", value])).toThrow("--rate-limit-rps");
  });
});
