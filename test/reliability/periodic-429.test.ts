/**
 * The limiter against the simulator's 429 on every 7th request (rateLimitEvery: 7, Retry-After: 1),
 * alone and with 20 % of requests failing 503 and 10 % of write answers lost (issue 41): 429s that
 * do not follow the rate do not cut it away; every request completes, and the rate at the end is
 * no lower than where the first cut put it. (Times: bench/, not here.)
 */
import { RateLimiter } from "../../src/api/http/rate-limiter";
import { RuleListClient } from "../../src/api";
import type { FaultOptions } from "../../src/simulator";
import { withSimulator } from "../support/simulator";
import { safetyRuleId, simUser, tenant } from "./safety-support";
import { TENANT, TOKEN } from "./support";

const seed = tenant([{ users: [simUser("x-1")] }, { users: [simUser("x-2")] }]);

async function run(faults: FaultOptions): Promise<{ first: number; last: number; throttles: number }> {
  return withSimulator({ seed, token: TOKEN, faults }, async (sim) => {
    const limiter = new RateLimiter();
    let first: number | undefined;
    const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT, rateLimiter: limiter, retry: { maxAttempts: 10 } });
    let left = 120;
    const worker = async () => {
      while (left > 0) {
        left -= 1;
        await client.queryUsers(safetyRuleId(1 + (left % 2)));
        first ??= limiter.state().rps;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return { first: first ?? 0, last: limiter.state().rps ?? 0, throttles: limiter.state().throttles };
  });
}

describe("the limiter under 429s on every 7th request", () => {
  it("alone: 120 reads complete, and the rate ends no lower than where the first cut put it", async () => {
    const { first, last, throttles } = await run({ rateLimitEvery: 7, retryAfterSeconds: 1 });
    expect(throttles).toBeGreaterThan(10);
    expect(last).toBeGreaterThanOrEqual(first * 0.95);
  });

  it("with 20 % 503s and 10 % lost answers: 120 reads complete, and the rate ends no lower than where the first cut put it", async () => {
    const { first, last, throttles } = await run({ rateLimitEvery: 7, retryAfterSeconds: 1, failRate: 0.2, lostResponseRate: 0.1, seed: 41 });
    expect(throttles).toBeGreaterThan(10);
    expect(last).toBeGreaterThanOrEqual(first * 0.95);
  });
});
