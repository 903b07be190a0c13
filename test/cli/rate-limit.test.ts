/**
 * `--max-rps N` on plan, apply and the triage commands, and what a person at a terminal sees
 * while the service rate limits the run (docs/contract.md §9.2).
 */
import { main } from "../../src/cli/main";
import type { Io } from "../../src/cli/io";
import { maxRpsFlag } from "../../src/cli/run-flags";
import { progress, rateNote } from "../../src/cli/progress";
import { retryNotice } from "../../src/cli/retry-notice";
import { RateLimiter } from "../../src/api/http/rate-limiter";
import { DEFAULT_RETRY_POLICY } from "../../src/api/http/retry";
import { UsageError } from "../../src/errors";
import { useSimulator } from "../support/simulator";
import { captureStream } from "../support/capture-stream";


describe("--max-rps", () => {
  it.each([
    ["2", 2],
    ["0.5", 0.5],
    [".25", 0.25],
    [" 10 ", 10],
  ])("takes %p as %p requests a second", (value, expected) => {
    expect(maxRpsFlag("plan", value)).toBe(expected);
  });

  it("is no cap when not given", () => {
    expect(maxRpsFlag("plan", undefined)).toBeUndefined();
  });

  it.each(["0", "-1", "fast", "", "2rps", "1e3", "100001"])("refuses %p, naming the flag and what it takes", (value) => {
    expect(() => maxRpsFlag("plan", value)).toThrow(UsageError);
    expect(() => maxRpsFlag("plan", value)).toThrow(/plan: --max-rps takes a number of requests a second above 0 .*e\.g\. 2 or 0\.5; got/);
  });
});

describe("the progress line and retries under a rate limit", () => {
  it("says when the service throttles the run, and at what rate it sends", () => {
    expect(rateNote(undefined)).toBeUndefined();
    expect(rateNote({ throttled: false, rps: undefined, maxRps: undefined, cuts: 0, throttles: 0 })).toBeUndefined();
    expect(rateNote({ throttled: false, rps: 5, maxRps: 5, cuts: 0, throttles: 0 })).toBe("at most 5.0 requests/s");
    expect(rateNote({ throttled: true, rps: 1.9, maxRps: undefined, cuts: 1, throttles: 3 })).toBe("throttled by the service: 1.9 requests/s");
    expect(rateNote({ throttled: true, rps: 0.5, maxRps: undefined, cuts: 4, throttles: 9 })).toBe("throttled by the service: 0.50 requests/s");
  });

  it("appends the note to the progress line on a TTY", () => {
    // given
    const tty = captureStream(true);
    const line = progress(tty.stream, "Reading rule lists", () => "throttled by the service: 1.9 requests/s");
    // when
    line.update(3, 40);
    line.done();
    // then
    expect(tty.text()).toBe("\r\x1b[2KReading rule lists: 3/40 (throttled by the service: 1.9 requests/s)\r\x1b[2K");
  });

  it("says after a 429 at what rate the run sends from then on", () => {
    // given a limiter that was just cut to 1.9 a second
    const limiter = new RateLimiter({ now: () => 0, beta: 0.95 });
    limiter.settle(0, { throttled: false });
    limiter.settle(0, { throttled: false });
    limiter.settle(1, { throttled: true });
    const tty = captureStream(true);
    // when
    const hook = retryNotice(tty.stream, "http://127.0.0.1:1", DEFAULT_RETRY_POLICY, limiter);
    hook?.({ operation: "query-users", attempt: 1, outcome: "retry", durationMs: 1, status: 429, retryInMs: 450 });
    // then
    expect(tty.text()).toBe(
      "\r\x1b[2Kquery-users: the service asked to slow down (429); retrying in 0.5 s (attempt 2 of at most 21); sending at most 1.9 requests/s from now on\n",
    );
  });
});

describe("rules list against a rate-limited simulator", () => {
  const sim = useSimulator({}, { perTest: true });

  async function rulesList(args: string[], isTTY: boolean, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout = captureStream(false);
    const stderr = captureStream(isTTY);
    const io: Io = {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin: process.stdin,
      env: { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, ...env },
      cwd: process.cwd(),
    };
    const code = await main(["rules", "list", "--format", "json", ...args], io);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  }

  it("with --max-rps 3 never sends 4 in a second, and meets no 429 from a service of 3", async () => {
    // given a service that admits 3 requests a second
    sim.setFaults({ rateLimitRps: 3 });
    // and the time each request is let go by the run's limiter, recorded as it goes (arrival times
    // at the simulator carry the machine's load: on a busy machine sends 333 ms apart arrive together)
    const sentAt: number[] = [];
    const acquire = Object.getOwnPropertyDescriptor(RateLimiter.prototype, "acquire")!.value as (this: RateLimiter) => Promise<number>;
    const recording = jest.spyOn(RateLimiter.prototype, "acquire").mockImplementation(async function (this: RateLimiter) {
      const ticket = await acquire.call(this);
      sentAt.push(performance.now());
      return ticket;
    });
    // when
    const run = await rulesList(["--max-rps", "3"], false).finally(() => recording.mockRestore());
    // then every rule is listed, nothing was refused, and no second of sends (less 100 ms of
    // scheduling noise between the limiter's decision and the record) holds 4
    expect(run.code).toBe(0);
    const log = sim.requestLog();
    expect(log.length).toBeGreaterThan(4);
    expect(sentAt).toHaveLength(log.length);
    expect(log.filter((e) => e.status !== 200)).toEqual([]);
    const at = [...sentAt].sort((a, b) => a - b);
    for (let i = 3; i < at.length; i += 1) expect(at[i]! - at[i - 3]!).toBeGreaterThan(900);
  });

  it("on a TTY, says the service is throttling the run and at what rate, and finishes", async () => {
    // given a service that admits 2 requests a second, and no flag
    sim.setFaults({ rateLimitRps: 2 });
    // when
    const run = await rulesList([], true);
    // then
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).rules.length).toBeGreaterThan(5);
    expect(run.stderr).toMatch(/the service asked to slow down \(429\); retrying in 0\.\d s .*; sending at most \d\.\d requests\/s from now on\n/);
    expect(run.stderr).toMatch(/Reading rule lists: \d+\/\d+ \(throttled by the service: \d\.\d requests\/s\)/);
    expect(run.stderr).not.toContain(sim.token);
  });

  it("refuses --max-rps 0 before sending anything", async () => {
    const run = await rulesList(["--max-rps", "0"], false);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--max-rps takes a number of requests a second above 0");
    expect(sim.requestLog()).toEqual([]);
  });

  it("reads ALERT_RULE_USERS_MAX_RPS when --max-rps is not given, as the provider does: no 429 from a service of 3", async () => {
    // given a service that admits 3 requests a second, and the pace in the environment only
    sim.setFaults({ rateLimitRps: 3 });
    // when
    const run = await rulesList([], false, { ALERT_RULE_USERS_MAX_RPS: "3" });
    // then every rule is listed and the service never had to refuse a request
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).rules.length).toBeGreaterThan(5);
    const log = sim.requestLog();
    expect(log.length).toBeGreaterThan(4);
    expect(log.filter((e) => e.status !== 200)).toEqual([]);
  });

  it("refuses ALERT_RULE_USERS_MAX_RPS=0 before sending anything, naming the variable", async () => {
    const run = await rulesList([], false, { ALERT_RULE_USERS_MAX_RPS: "0" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ALERT_RULE_USERS_MAX_RPS takes a number of requests a second above 0");
    expect(sim.requestLog()).toEqual([]);
  });

  it("takes --max-rps over ALERT_RULE_USERS_MAX_RPS (the variable is not read), and an empty variable as unset", async () => {
    expect((await rulesList(["--max-rps", "50"], false, { ALERT_RULE_USERS_MAX_RPS: "0" })).code).toBe(0);
    expect((await rulesList([], false, { ALERT_RULE_USERS_MAX_RPS: " " })).code).toBe(0);
  });
});
