/**
 * One rate for the run (design §13.2): the provider processes of one Terraform command share a send
 * clock per tenant (src/io/terraform-run.ts `sendClock`, a file): `max_rps` bounds them together,
 * and a limit one of them learns from the service's 429s paces the others at once, with what it
 * learned about 429s that do not follow the rate (issue 39: a run learns a 429 limit once).
 * Limiters on a virtual clock: each wait is a timer of the test's own.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RateLimiter } from "../../src/api/http/rate-limiter";
import { configureRun } from "../../src/provider/configure";
import { providerModel } from "../../src/provider/provider-model";
import { FileSendClock, RUN_SCOPE_VARIABLE, TerraformRun } from "../../src/io/terraform-run";
import { useSimulator } from "../support/simulator";
import { mostInWindow, virtualTime } from "../support/virtual-time";

const sim = useSimulator();
const block = providerModel.decode({ url: null, tenant_id: null, token: null, token_command: null, max_rps: null, request_timeout: null, run_timeout: null });

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "send-clock-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Two provider processes' limiters (max_rps 2), each sending 12 requests as fast as it may. */
async function twoProcesses(shared: boolean): Promise<number[]> {
  const time = virtualTime(1_000_000);
  const clock = (name: string) => new FileSendClock(join(dir, shared ? "tenant" : name), time.now);
  const limiters = [new RateLimiter({ maxRps: 2, clock: clock("a"), sleep: time.sleep }), new RateLimiter({ maxRps: 2, clock: clock("b"), sleep: time.sleep })];
  const sends: number[] = [];
  const work = Promise.all(
    limiters.map(async (limiter) => {
      for (let i = 0; i < 12; i++) {
        const ticket = await limiter.acquire();
        sends.push(time.now());
        limiter.settle(ticket, { throttled: false });
      }
    }),
  );
  await time.runUntil(work);
  return sends;
}

describe("the send clock of a Terraform command", () => {
  it("bounds two processes under max_rps 2 together: never more than 2 sends in a second (each on its own: 4)", async () => {
    expect(mostInWindow(await twoProcesses(true))).toBe(2);
    expect(mostInWindow(await twoProcesses(false))).toBe(4);
  });

  it("hands a limit one process learned to the other at once, with what it knows of 429s that do not follow the rate", async () => {
    const time = virtualTime(1_000_000);
    const file = join(dir, "tenant");
    const learner = new RateLimiter({ clock: new FileSendClock(file, time.now), sleep: time.sleep });
    const other = new RateLimiter({ clock: new FileSendClock(file, time.now), sleep: time.sleep });
    // the learner finds a limit of about 5 a second: sends at its pace, refused every 7th
    const sends = async () => {
      for (let i = 1; i <= 120; i++) {
        const ticket = await learner.acquire();
        learner.settle(ticket, { throttled: i % 7 === 0 });
        await time.sleep(190);
      }
    };
    await time.runUntil(sends());
    const learned = new FileSendClock(file, time.now).peek().learned;
    expect(learned?.limit).toBeGreaterThan(0);
    // the other, with no 429 of its own, takes the limit up at its next send
    expect(other.state().throttled).toBe(false);
    await time.runUntil(other.acquire());
    expect(other.state().throttled).toBe(true);
    expect(other.measuredLimit()).toBeCloseTo(learned!.limit, 6);
    // at the rate the learner sends at (its 429s found periodic: back where its cuts began), not below it
    expect(learned?.rps).toBeDefined();
    expect(other.state().rps!).toBeGreaterThanOrEqual(learned!.rps! - 1e-9);
    // and the same periodic 429s, every 7th of its own 300 sends, leave its rate where it began
    // (before, a process that took up a limit cut on every one: 4.6 → 0.5 requests/s over the run)
    const paced = async () => {
      for (let i = 1; i <= 300; i++) {
        const ticket = await other.acquire();
        other.settle(ticket, { throttled: i % 7 === 0 });
      }
    };
    await time.runUntil(paced());
    expect(other.state().rps!).toBeGreaterThan(0.9 * 0.99 * learned!.limit);
  });
});

describe("a look at the send clock", () => {
  it("reads the file once while it is unchanged, and sees every change another process makes", () => {
    // given two processes' clocks on one file, and a look at it before anything was written
    const file = join(dir, "tenant");
    const mine = new FileSendClock(file, () => 1_000);
    const theirs = new FileSendClock(file, () => 1_000);
    expect(mine.peek()).toEqual({ nextAt: -Infinity, sends: 0 });
    // when the other process writes, twice in a row (the same size each time)
    theirs.update((state) => ({ state: { ...state, nextAt: 1_500, sends: 1 }, result: undefined }));
    const first = mine.peek();
    theirs.update((state) => ({ state: { ...state, nextAt: 1_600, sends: 2 }, result: undefined }));
    // then each look sees what is there now, and an unchanged file gives the same reading
    expect(first).toEqual({ nextAt: 1_500, sends: 1 });
    expect(mine.peek()).toEqual({ nextAt: 1_600, sends: 2 });
    expect(mine.peek()).toBe(mine.peek());
  });
});

describe("a Terraform command's provider processes", () => {
  it("start at the service's limit another process of the same command learned, and only that command's", async () => {
    const env = { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, [RUN_SCOPE_VARIABLE]: `shared-rate-${randomUUID()}` };
    const first = await configureRun(block, env, process.cwd(), new AbortController().signal, () => undefined);
    expect(first.run!.session.rateLimiter.state().throttled).toBe(false);
    // what the first process's limiter writes once it has measured the limit
    TerraformRun.current(env)
      .sendClock(sim.tenantId)
      .update((state) => ({ state: { ...state, learned: { limit: 4.2, episodeRps: 4.5, episodeFraction: 0.14 } }, result: undefined }));
    const lines: string[] = [];
    const second = await configureRun(block, env, process.cwd(), new AbortController().signal, (line) => lines.push(line));
    expect(second.run!.session.rateLimiter.state().rps).toBeCloseTo(0.99 * 4.2, 3);
    expect(lines.join("\n")).toMatch(/measured earlier in this Terraform command: 4\.20 requests\/s/);
    // another command (another scope) starts from scratch
    const other = await configureRun(block, { ...env, [RUN_SCOPE_VARIABLE]: `other-${randomUUID()}` }, process.cwd(), new AbortController().signal, () => undefined);
    expect(other.run!.session.rateLimiter.state().throttled).toBe(false);
  });
});
