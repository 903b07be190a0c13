/**
 * The client's rate limiter (src/api/http/rate-limiter.ts), on a virtual clock: every wait is a timer
 * of the test's own, so the runs are deterministic and take no time.
 */
import { RateLimiter, type RateLimiterOptions } from "../../src/api/http/rate-limiter";
import { InvalidArgumentError } from "../../src/errors";
import { TokenBucket } from "../../src/simulator/rate-limit";
import { mostInWindow, virtualTime } from "../support/virtual-time";

/** Acquires, and says when the send went (the virtual time then). */
async function sendTime(limiter: RateLimiter, time: ReturnType<typeof virtualTime>): Promise<number> {
  await limiter.acquire();
  return time.now();
}

function limiterOn(time: ReturnType<typeof virtualTime>, options: RateLimiterOptions = {}): RateLimiter {
  return new RateLimiter({ now: time.now, sleep: time.sleep, ...options });
}

/**
 * `workers` loops sending `requests` in all through the limiter to a service that is a token
 * bucket of `serviceRps` (the simulator's own), each answer `latencyMs` after the send.
 */
async function closedLoop(
  time: ReturnType<typeof virtualTime>,
  limiter: RateLimiter,
  options: { serviceRps: number; requests: number; workers?: number; latencyMs?: number; refuseEvery?: number },
): Promise<{ sends: number[]; throttled: number; endMs: number }> {
  const bucket = new TokenBucket(options.serviceRps, time.now);
  let arrived = 0;
  const latencyMs = options.latencyMs ?? 20;
  const sends: number[] = [];
  let remaining = options.requests;
  let throttled = 0;
  const worker = async () => {
    let retrying = false;
    while (retrying || remaining > 0) {
      if (!retrying) remaining -= 1;
      const ticket = await limiter.acquire();
      sends.push(time.now());
      await time.sleep(latencyMs / 2);
      arrived += 1;
      // every Nth request refused whatever the rate (Retry-After: 1), as the simulator's rateLimitEvery
      const decision = options.refuseEvery !== undefined && arrived % options.refuseEvery === 0 ? { ok: false as const, retryAfterMs: 1000 } : bucket.take();
      await time.sleep(latencyMs / 2);
      if (decision.ok) {
        limiter.settle(ticket, { throttled: false });
        retrying = false;
      } else {
        throttled += 1;
        limiter.settle(ticket, { throttled: true });
        await time.sleep(decision.retryAfterMs);
        retrying = true;
      }
    }
  };
  await time.runUntil(Promise.all(Array.from({ length: options.workers ?? 4 }, worker)));
  return { sends, throttled, endMs: time.now() };
}

describe("RateLimiter", () => {
  it("gates nothing until the service answers 429 (no --max-rps)", async () => {
    // given a limiter that has seen only successes
    const time = virtualTime();
    const limiter = limiterOn(time);

    // when 100 requests are sent one after another
    const sends = await time.runUntil(
      (async () => {
        const at: number[] = [];
        for (let i = 0; i < 100; i += 1) {
          const ticket = await limiter.acquire();
          at.push(time.now());
          limiter.settle(ticket, { throttled: false });
        }
        return at;
      })(),
    );

    // then none of them waited
    expect(sends.every((t) => t === 0)).toBe(true);
    expect(limiter.state()).toMatchObject({ throttled: false, rps: undefined, cuts: 0 });
  });

  it("never sends more than --max-rps in any second, however many ask at once", async () => {
    // given --max-rps 5 and 12 requests asking at the same moment
    const time = virtualTime();
    const limiter = limiterOn(time, { maxRps: 5 });

    // when they all acquire
    const sends = await time.runUntil(Promise.all(Array.from({ length: 12 }, () => sendTime(limiter, time))));

    // then they go out 200 ms apart: never 6 within a second
    expect([...sends].sort((a, b) => a - b)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200]);
    expect(mostInWindow(sends)).toBe(5);
  });

  it("keeps under --max-rps against a service that would allow more, and meets no 429", async () => {
    const time = virtualTime();
    const limiter = limiterOn(time, { maxRps: 3 });
    const run = await closedLoop(time, limiter, { serviceRps: 10, requests: 60 });
    expect(mostInWindow(run.sends)).toBeLessThanOrEqual(3);
    expect(run.throttled).toBe(0);
    // 60 sends 1/3 s apart: the last one at 59/3 s
    expect(Math.max(...run.sends)).toBeCloseTo((59 * 1000) / 3, 0);
  });

  it("on the first 429 slows to what the service admitted in the second before", async () => {
    // given two answered requests, then a 429
    const time = virtualTime();
    const limiter = limiterOn(time);
    const first = await limiter.acquire();
    limiter.settle(first, { throttled: false });
    const second = await limiter.acquire();
    limiter.settle(second, { throttled: false });
    const third = await limiter.acquire();

    // when the service answers 429 to the third
    limiter.settle(third, { throttled: true });

    // then the limiter sends just under 2 a second from now on (beta 0.98 of 2)
    expect(limiter.state()).toMatchObject({ throttled: true, rps: 1.96, cuts: 1, throttles: 1 });
    // (the first 1/1.96 s later; then a little sooner each time, as the rate grows back)
    const next = await time.runUntil(Promise.all([sendTime(limiter, time), sendTime(limiter, time), sendTime(limiter, time)]));
    expect(next[0]).toBeCloseTo(1000 / 1.96, 6);
    expect(next[1] - next[0]).toBeGreaterThan(450);
    expect(next[1] - next[0]).toBeLessThan(1000 / 1.96);
  });

  it("does not cut again for a 429 of a request sent before the last cut", async () => {
    // given three answered requests (the slow start then lets four fly), and three in flight
    const time = virtualTime();
    const limiter = limiterOn(time);
    for (let i = 0; i < 3; i += 1) limiter.settle(await limiter.acquire(), { throttled: false });
    const inFlight = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);

    // when all three come back 429
    for (const ticket of inFlight) limiter.settle(ticket, { throttled: true });

    // then the rate was cut once (to 0.98 of the 3 admitted in the second before), not three times
    expect(limiter.state()).toMatchObject({ rps: 0.98 * 3, cuts: 1, throttles: 3 });
  });

  it("leaves Retry-After to the request it was sent for: other sends keep the limiter's pace", async () => {
    // given --max-rps 10 and a 429 that asks for 1.5 s
    const time = virtualTime();
    const limiter = limiterOn(time, { maxRps: 10, adaptive: false });
    limiter.settle(await limiter.acquire(), { throttled: true });
    // when another request is sent
    const next = await time.runUntil(sendTime(limiter, time));
    // then it goes at the next slot of 10 a second
    expect(next).toBe(100);
  });

  it("cuts its rate after 429s and settles just under a service's limit (2 a second, burst 2)", async () => {
    // given a service that admits 2 requests a second and four workers with 200 requests
    const time = virtualTime();
    const limiter = limiterOn(time);

    // when they run through the limiter
    const run = await closedLoop(time, limiter, { serviceRps: 2, requests: 200 });

    // then the rate was cut, few requests were refused (most while it learned the limit, in the
    // first seconds), and the run took about 200 / 2 s
    const state = limiter.state();
    expect(state.cuts).toBeGreaterThanOrEqual(2);
    expect(state.rps).toBeGreaterThan(1.6);
    expect(state.rps).toBeLessThan(2.3);
    expect(run.throttled / run.sends.length).toBeLessThanOrEqual(0.04);
    expect(run.endMs).toBeLessThan(1.1 * (200 / 2) * 1000);
  });

  it("without the limiter's cuts (429s honoured, nothing learned) the same run is refused far more", async () => {
    // the control of the test above: Retry-After alone, no adaptive rate
    const time = virtualTime();
    const limiter = limiterOn(time, { adaptive: false });
    const run = await closedLoop(time, limiter, { serviceRps: 2, requests: 200 });
    expect(limiter.state().cuts).toBe(0);
    expect(run.throttled / run.sends.length).toBeGreaterThan(0.2);
  });

  it("grows back after a cut while the service keeps answering", async () => {
    const time = virtualTime();
    const limiter = limiterOn(time);
    // a first 429 after 10 admitted requests: 10 a second
    for (let i = 0; i < 10; i += 1) limiter.settle(await limiter.acquire(), { throttled: false });
    limiter.settle(await limiter.acquire(), { throttled: true });
    const cutTo = limiter.state().rps ?? 0;
    // when 30 s of successes follow
    await time.runUntil(
      (async () => {
        while (time.now() < 30_000) limiter.settle(await limiter.acquire(), { throttled: false });
      })(),
    );
    // then the rate is above the cut
    expect(cutTo).toBe(9.8);
    expect(limiter.state().rps).toBeGreaterThan(cutTo * 1.5);
  });

  it("stays under --max-rps even while growing, and can cut below it", async () => {
    const time = virtualTime();
    const limiter = limiterOn(time, { maxRps: 4 });
    limiter.settle(await limiter.acquire(), { throttled: false });
    limiter.settle(await time.runUntil(limiter.acquire()), { throttled: true });
    expect(limiter.state().rps).toBe(0.98);
    const sends = await time.runUntil(
      (async () => {
        const at: number[] = [];
        while (time.now() < 120_000) {
          const ticket = await limiter.acquire();
          at.push(time.now());
          limiter.settle(ticket, { throttled: false });
        }
        return at;
      })(),
    );
    expect(limiter.state().rps).toBe(4);
    expect(mostInWindow(sends)).toBeLessThanOrEqual(4);
  });
});

describe("RateLimiter", () => {
  it("starts slowly: one request in flight, one more for each admitted answer, until the first 429", async () => {
    // given a limiter that has seen no 429, and six requests asking at once
    const time = virtualTime();
    const limiter = limiterOn(time);
    const tickets: number[] = [];
    const asks = Array.from({ length: 6 }, () => limiter.acquire().then((t) => tickets.push(t)));
    const settleAll = () => new Promise<void>((resolve) => setImmediate(resolve));
    await settleAll();

    // then one goes out; each admitted answer lets one more go as well as the one it frees
    expect(tickets).toEqual([1]);
    limiter.settle(1, { throttled: false });
    await settleAll();
    expect(tickets).toEqual([1, 2, 3]);
    limiter.settle(2, { throttled: false });
    await settleAll();
    expect(tickets).toEqual([1, 2, 3, 4, 5]);

    // and after the first 429 the cap is gone: the rate alone spaces the sends
    limiter.settle(3, { throttled: true });
    await time.runUntil(Promise.all(asks));
    expect(tickets).toEqual([1, 2, 3, 4, 5, 6]);
    expect(limiter.state().throttled).toBe(true);
  });

  it("gives a ticket back when its request is not sent, so the slow start does not wait for it", async () => {
    const time = virtualTime();
    const limiter = limiterOn(time);
    const ticket = await limiter.acquire();
    const next = limiter.acquire();
    limiter.cancel(ticket);
    expect(await time.runUntil(next)).toBe(2);
  });

  it("starts all workers at once when --max-rps spaces the sends anyway, and without the slow start", async () => {
    const time = virtualTime();
    expect(await time.runUntil(Promise.all([1, 2, 3].map(() => limiterOn(time, { slowStart: false }).acquire())))).toEqual([1, 1, 1]);
    const capped = limiterOn(time, { maxRps: 100 });
    expect(await time.runUntil(Promise.all([capped.acquire(), capped.acquire(), capped.acquire()]))).toEqual([1, 2, 3]);
  });

  it("meets fewer 429s in the first second with the slow start than with four workers let loose", async () => {
    // given a service of 2 a second (burst 2) and four workers, with and without the slow start
    const firstSecond = async (options: RateLimiterOptions): Promise<number> => {
      const time = virtualTime();
      const limiter = limiterOn(time, options);
      const bucket = new TokenBucket(2, time.now);
      let refused = 0;
      const worker = async () => {
        while (time.now() < 1000) {
          const ticket = await limiter.acquire();
          await time.sleep(10);
          const ok = bucket.take().ok;
          await time.sleep(10);
          if (!ok && time.now() <= 1000) refused += 1;
          limiter.settle(ticket, { throttled: !ok });
        }
      };
      await time.runUntil(Promise.all(Array.from({ length: 4 }, worker)));
      return refused;
    };
    // then the slow start overruns the burst by fewer requests
    const slow = await firstSecond({});
    const loose = await firstSecond({ slowStart: false });
    expect(slow).toBeLessThan(loose);
    expect(slow).toBeGreaterThanOrEqual(1);
  });

  it("measures the service's rate between two 429s: after a minute at 5 a second it sends within 3 % under it", async () => {
    // given a service of 5 a second whose bucket holds 5, and four workers
    const time = virtualTime();
    const limiter = limiterOn(time);

    // when they run 300 requests through the limiter
    const run = await closedLoop(time, limiter, { serviceRps: 5, requests: 300 });

    // then the rate is the service's within a few per cent, and few requests were refused
    expect(limiter.state().rps).toBeGreaterThan(5 * 0.97);
    expect(limiter.state().rps).toBeLessThan(5 * 1.05);
    expect(run.throttled / run.sends.length).toBeLessThanOrEqual(0.03);
  });

  it("refuses invalid settings, naming each", () => {
    expect(() => new RateLimiter({ maxRps: 0 })).toThrow(InvalidArgumentError);
    expect(() => new RateLimiter({ maxRps: Number.NaN, beta: 1.5 })).toThrow(/maxRps must be a number above 0.*beta must be a number above 0 and at most 1/);
  });

  describe("pairs: the read that guards remove-all-users and the call, back to back", () => {
    it("waits before the pair, never between its two sends, and keeps every second within --max-rps", async () => {
      // given --max-rps 2, one request sent, then a pair, then four more sends from other workers
      const time = virtualTime();
      const limiter = limiterOn(time, { maxRps: 2 });
      const run = async (): Promise<number[]> => {
        const sends = [await sendTime(limiter, time)];
        const pair = await limiter.acquirePair();
        sends.push(time.now());
        // (the read is answered at once) the second goes out with no wait
        expect(limiter.begin(pair[1])).toBe(true);
        sends.push(time.now());
        const later = await Promise.all(Array.from({ length: 4 }, () => sendTime(limiter, time)));
        return [...sends, ...later];
      };
      const sends = await time.runUntil(run());
      // then the pair waited two intervals after the send before it, and the next send two after the pair
      expect(sends).toEqual([0, 1000, 1000, 2000, 2500, 3000, 3500]);
      expect(mostInWindow(sends)).toBe(2);
    });

    it("pairs at --max-rps 1 and below too, keeping two intervals free on either side (a guard read is never followed by a wait)", async () => {
      // given --max-rps 1, one request sent, then a pair, then two more sends
      const time = virtualTime();
      const limiter = limiterOn(time, { maxRps: 1 });
      const run = async (): Promise<number[]> => {
        const sends = [await sendTime(limiter, time)];
        const pair = await limiter.acquirePair();
        sends.push(time.now());
        expect(limiter.begin(pair[1])).toBe(true);
        sends.push(time.now());
        sends.push(await sendTime(limiter, time), await sendTime(limiter, time));
        return sends;
      };
      // then the pair goes back to back, two intervals after the send before it and before the next
      expect(await time.runUntil(run())).toEqual([0, 2000, 2000, 4000, 5000]);
    });

    it("keeps pairing after the service refused a pair's second send: the caller reads again on a new pair", async () => {
      const time = virtualTime();
      const limiter = limiterOn(time, { maxRps: 4 });
      const [first, second] = await time.runUntil(limiter.acquirePair());
      limiter.settle(first, { throttled: false });
      expect(limiter.begin(second)).toBe(true);
      limiter.settle(second, { throttled: true });
      const again = await time.runUntil(limiter.acquirePair());
      expect(again).toHaveLength(2);
      expect(limiter.begin(again[1])).toBe(true);
    });

    it("lets the second send go only if no other send was let out while the first was answered", async () => {
      // given a pair whose first request takes longer than two intervals, while another worker sends
      const time = virtualTime();
      const limiter = limiterOn(time, { maxRps: 2 });
      const [first, second] = await time.runUntil(limiter.acquirePair());
      await time.runUntil(limiter.acquire());
      limiter.settle(first, { throttled: false });
      // then the second is refused (it would crowd the other send): it is cancelled and taken again
      expect(limiter.begin(second)).toBe(false);
    });
  });
});

describe("RateLimiter under 429s that do not follow the rate (every 7th request, Retry-After: 1)", () => {
  it("with no other limit: the rate is not cut away; it goes back to where the cuts began and keeps growing", async () => {
    // given a service that refuses every 7th request and has no rate limit
    const time = virtualTime();
    const limiter = limiterOn(time);
    // when 300 requests run through the limiter
    await closedLoop(time, limiter, { serviceRps: 1_000, requests: 300, refuseEvery: 7 });
    // then many 429s were met, and the rate stays where the first cut put it (about 6 a second) or above
    expect(limiter.state().throttles).toBeGreaterThan(40);
    expect(limiter.state().rps ?? 0).toBeGreaterThanOrEqual(5);
  });

  it("under a limit of 5 a second: the rate holds near the limit, and 200 requests finish within 1.5 times the fault-free run", async () => {
    // given the fault-free run: a service of 5 a second
    const clean = virtualTime();
    const cleanRun = await closedLoop(clean, limiterOn(clean), { serviceRps: 5, requests: 200 });
    // when the same service also refuses every 7th request
    const time = virtualTime();
    const limiter = limiterOn(time);
    const run = await closedLoop(time, limiter, { serviceRps: 5, requests: 200, refuseEvery: 7 });
    // then the rate stays at what the service accepts, and the run is not much longer
    expect(limiter.state().rps ?? 0).toBeGreaterThan(5 * 0.8);
    expect(run.endMs).toBeLessThan(1.5 * cleanRun.endMs);
  });
});

describe("RateLimiter started from a limit measured earlier (startFrom: a later provider process of one Terraform command)", () => {
  it("learns the limit once: a limiter started from it measures the same limit, and is refused far less than one that learns it from scratch", async () => {
    const first = virtualTime();
    const learning = limiterOn(first);
    const fromScratch = await closedLoop(first, learning, { serviceRps: 5, requests: 150 });
    const limit = learning.measuredLimit();
    expect(limit).toBeDefined();
    expect(limit!).toBeGreaterThan(4);
    expect(limit!).toBeLessThan(6);

    const second = virtualTime();
    const started = limiterOn(second);
    started.startFrom(limit!);
    // at once: no slow start, the measured rate in force
    expect(started.state().throttled).toBe(true);
    expect(started.state().rps).toBeCloseTo(0.99 * limit!, 5);
    const seeded = await closedLoop(second, started, { serviceRps: 5, requests: 150 });
    expect(seeded.throttled).toBeLessThan(fromScratch.throttled);
    expect(seeded.throttled).toBeLessThanOrEqual(2);
  });

  it("ignores a limit once it has cut on a 429 of its own, and a limit that is not a rate", () => {
    const time = virtualTime();
    const limiter = limiterOn(time);
    limiter.startFrom(Number.NaN);
    limiter.startFrom(-1);
    expect(limiter.state().throttled).toBe(false);
    limiter.startFrom(3);
    limiter.startFrom(50);
    expect(limiter.state().rps).toBeCloseTo(0.99 * 3, 5);
  });
});
