/**
 * The rate limiter in the client, over HTTP against the simulator's `rateLimitRps` token bucket:
 * what arrived is read from the simulator's own request log; when the client sent is recorded as
 * the limiter lets each request go (arrival times at the simulator carry the machine's load: on a
 * busy machine requests sent 125 ms apart can arrive together).
 */
import { RateLimiter, RuleListClient } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { SAMPLE, ruleIdOf } from "../simulator/helpers";

/** Records when `limiter` lets each request go (performance.now, as the limiter's own clock). */
function recordSends(limiter: RateLimiter): number[] {
  const sentAt: number[] = [];
  const acquire = limiter.acquire.bind(limiter);
  limiter.acquire = async () => {
    const ticket = await acquire();
    sentAt.push(performance.now());
    return ticket;
  };
  return sentAt;
}

/** Requests in any window of one second, the most found. */
function mostInOneSecond(atMs: readonly number[], toleranceMs: number): number {
  const sorted = [...atMs].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= 1000 - toleranceMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Runs `count` query-users calls, `parallelism` at a time, through one client. */
async function readMany(client: RuleListClient, ruleId: string, count: number, parallelism = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await client.queryUsers(ruleId);
    }
  };
  await Promise.all(Array.from({ length: parallelism }, worker));
}

describe("the client's rate limiter against a rate-limited simulator", () => {
  const sim = useSimulator({}, { perTest: true });

  it("with --max-rps N never sends more than N in a second, and the service never refuses", async () => {
    // given a service that admits 8 a second and a client capped at 8
    sim.setFaults({ rateLimitRps: 8 });
    const limiter = new RateLimiter({ maxRps: 8 });
    const sentAt = recordSends(limiter);
    const client = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, rateLimiter: limiter });

    // when 24 reads go out, 4 at a time
    await readMany(client, ruleIdOf(sim, SAMPLE.byName), 24);

    // then no second of sends holds more than 8 (a few ms of scheduling noise between the limiter's
    // decision and the record: 9 sends must span at least 950 ms), and nothing was refused
    const log = sim.requestLog();
    expect(log).toHaveLength(24);
    expect(sentAt).toHaveLength(24);
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    expect(mostInOneSecond(sentAt, 50)).toBeLessThanOrEqual(8);
    expect(limiter.state()).toMatchObject({ throttled: false, rps: 8, throttles: 0 });
  });

  it("without a flag, slows to the service's limit after its first 429s and finishes every read", async () => {
    // given a service that admits 10 a second (burst 10) and a client that does not know it
    sim.setFaults({ rateLimitRps: 10 });
    const limiter = new RateLimiter();
    // the rate the limiter set on each 429 (read as the 429 is reported, right after the limiter
    // saw it: at the end of the run the rate has grown back for as long as the run took, which on
    // a loaded machine is long)
    const rateAfter429: number[] = [];
    const client = new RuleListClient({
      baseUrl: sim.url,
      token: sim.token,
      tenantId: sim.tenantId,
      rateLimiter: limiter,
      onRequest: (event) => {
        if (event.status === 429) rateAfter429.push(limiter.state().rps ?? Infinity);
      },
    });

    // when 40 reads go out, 4 at a time
    await readMany(client, ruleIdOf(sim, SAMPLE.byName), 40);

    // then every read was served in the end, the limiter slowed down, and few were refused
    const log = sim.requestLog();
    const refused = log.filter((e) => e.status === 429).length;
    expect(log.filter((e) => e.status === 200)).toHaveLength(40);
    expect(limiter.state().throttled).toBe(true);
    // (about the service's 10 a second: the limiter measures the rate the service admitted from its
    // own send times, which a loaded machine spreads; 1.5 times the limit leaves room for that)
    expect(rateAfter429.at(-1)).toBeLessThan(15);
    expect(refused).toBeLessThanOrEqual(6);
    // counted apart: calls stay 40, attempts are calls plus the refused ones
    expect(client.counter.snapshot()).toMatchObject({ calls: 40, attempts: 40 + refused });
  });

  it("waits the Retry-After-Ms of a 429, not the rounded-up Retry-After seconds", async () => {
    // given a service of 4 a second whose burst is spent
    sim.setFaults({ rateLimitRps: 4 });
    const waits: number[] = [];
    const client = new RuleListClient({
      baseUrl: sim.url,
      token: sim.token,
      tenantId: sim.tenantId,
      onRequest: (event) => {
        if (event.outcome === "retry") waits.push(event.retryInMs ?? -1);
      },
    });
    const ruleId = ruleIdOf(sim, SAMPLE.byName);
    await readMany(client, ruleId, 4);
    waits.length = 0;

    // when one more read is made
    await client.queryUsers(ruleId);

    // then it was refused once and retried after at most a quarter of a second (Retry-After: 1)
    expect(sim.requestLog().slice(-2).map((e) => e.status)).toEqual([429, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(250);
  });
});
