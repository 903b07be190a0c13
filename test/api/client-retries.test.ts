/**
 * Contract: retries under injected faults. The simulator's fault draws are seeded and the client's
 * sleep is injected, so these runs are deterministic and fast; attempts are counted three ways
 * (client counter, hook events, the simulator's request counts) and must agree.
 */
import { ApiError, HttpTransport, usersInRuleResponseSchema } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { clientFor, closedPortUrl, fastSleep, rejectionOf, sampleRules } from "./helpers";

const sim = useSimulator();
beforeEach(() => {
  sim.setFaults({});
  sim.resetCounts();
});

describe("idempotent operations are retried", () => {
  it("recovers from 503s under a failure rate, counting every attempt", async () => {
    // given a 40 % failure rate
    sim.setFaults({ failRate: 0.4, seed: 7 });
    const { client, events, delays } = clientFor(sim, { retry: { maxAttempts: 10 } });
    const { inclusion } = sampleRules(sim);
    // when
    for (let i = 0; i < 10; i++) await client.queryUsers(inclusion);
    // then every call succeeded, some after retries
    const counts = client.counter.snapshot().byOperation["query-users"]!;
    expect(counts.calls).toBe(10);
    expect(counts.attempts).toBeGreaterThan(10);
    expect(sim.requestCounts()["query-users"]).toBe(counts.attempts);
    expect(events).toHaveLength(counts.attempts);
    expect(events.filter((e) => e.outcome === "retry").every((e) => e.status === 503)).toBe(true);
    expect(events.filter((e) => e.outcome === "ok")).toHaveLength(10);
    // and the waits were full-jitter backoff (random() = 0.5 gives half the ceiling)
    expect(delays).toHaveLength(counts.attempts - 10);
    expect(delays.every((d) => [100, 200, 400, 800, 1600, 2500].includes(d))).toBe(true);
  });

  it("repeats writes whose response was lost, and the list converges", async () => {
    // given writes that are applied but answered 502 half of the time
    sim.setFaults({ lostResponseRate: 0.5, seed: 3 });
    const { client } = clientFor(sim, { retry: { maxAttempts: 10 } });
    const { exclusion } = sampleRules(sim);
    const added = Array.from({ length: 6 }, (_, i) => ({ userIdFromAuthority: `lost-${i}`, userAliasList: [`lost-${i}@example.com`] }));
    // when
    for (const user of added) await client.addUsers(exclusion, [user]);
    // then
    const counts = client.counter.snapshot().byOperation["add-users"]!;
    expect(counts).toMatchObject({ calls: 6 });
    expect(counts.attempts).toBeGreaterThan(6);
    const users = sim.rule(exclusion)!.users;
    for (const user of added) {
      expect(users.filter((u) => u.userIdFromAuthority === user.userIdFromAuthority)).toEqual([
        expect.objectContaining({ userAliasList: user.userAliasList }),
      ]);
    }
  });

  it.each([0, 1])("waits what Retry-After says (%i s) on 429", async (seconds) => {
    // given every second request is rate limited
    sim.setFaults({ rateLimitEvery: 2, retryAfterSeconds: seconds });
    const { client, events, delays } = clientFor(sim);
    const { inclusion } = sampleRules(sim);
    // when
    for (let i = 0; i < 4; i++) await client.queryUsers(inclusion);
    // then
    expect(events.filter((e) => e.status === 429).every((e) => e.outcome === "retry")).toBe(true);
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.every((d) => d === seconds * 1000)).toBe(true);
    expect(client.counter.snapshot().byOperation["query-users"]).toEqual({ calls: 4, attempts: 4 + delays.length });
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["not a number", "soon"],
    ["negative", "-5"],
  ])("waits Retry-After (25 s) when Retry-After-Ms is %s, never 0 ms", async (_what, header) => {
    // given every second request is rate limited with Retry-After: 25 and a broken Retry-After-Ms
    sim.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 25, retryAfterMsHeader: header });
    const { client, events, delays } = clientFor(sim);
    const { inclusion } = sampleRules(sim);
    // when
    for (let i = 0; i < 2; i++) await client.queryUsers(inclusion);
    // then the 429 was waited out for the 25 s it asked for
    expect(events.filter((e) => e.status === 429).map((e) => e.outcome)).toEqual(["retry"]);
    expect(delays).toEqual([25_000]);
  });

  it("waits a readable Retry-After-Ms rather than the whole seconds of Retry-After", async () => {
    sim.setFaults({ rateLimitEvery: 2, retryAfterSeconds: 25, retryAfterMsHeader: "1500" });
    const { client, delays } = clientFor(sim);
    for (let i = 0; i < 2; i++) await client.queryUsers(sampleRules(sim).inclusion);
    expect(delays).toEqual([1500]);
  });

  it("gives up when Retry-After asks for longer than maxRetryAfterMs, and says so", async () => {
    sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 60 });
    const { client, delays } = clientFor(sim);
    const error = await rejectionOf(client.queryUsers(sampleRules(sim).inclusion));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, serviceCode: "RATE_LIMITED", retryable: true, attempts: 1 });
    expect((error as ApiError).message).toMatch(/retry after 60 s, longer than the 30 s/);
    expect(delays).toEqual([]);
  });

  it("stops after maxAttempts with the last status", async () => {
    sim.setFaults({ failRate: 1 });
    const { client } = clientFor(sim, { retry: { maxAttempts: 3 } });
    const error = await rejectionOf(client.removeAllUsers(sampleRules(sim).inclusion));
    expect(error).toMatchObject({ status: 503, serviceCode: "SERVICE_UNAVAILABLE", attempts: 3, retryable: true });
    expect((error as ApiError).message).toMatch(/failed: 503 SERVICE_UNAVAILABLE: .*\(after 3 attempts\)/);
    expect(sim.requestCounts()["remove-all-users"]).toBe(3);
  });

  it("retries network errors", async () => {
    const { client, events } = clientFor({ ...sim, url: await closedPortUrl() }, { retry: { maxAttempts: 3 } });
    const error = await rejectionOf(client.queryUsers("r"));
    expect(error).toMatchObject({ kind: "network", status: undefined, attempts: 3, retryable: true, ruleId: "r" });
    expect((error as ApiError).message).toMatch(/^query-users for rule 'r' failed: network error ECONNREFUSED/);
    expect(events.map((e) => e.outcome)).toEqual(["retry", "retry", "error"]);
  });
});

describe("network failures another attempt cannot cure are not retried", () => {
  it("https against the plain-HTTP simulator: one attempt, naming the base URL and http://", async () => {
    const url = sim.url.replace(/^http:/, "https:");
    const { client, events, delays } = clientFor({ ...sim, url }, { retry: { maxAttempts: 10 } });
    const error = await rejectionOf(client.queryUsers("r"));
    expect(error).toMatchObject({ kind: "network", attempts: 1, retryable: false });
    const message = (error as ApiError).message;
    expect(message).toContain(`base URL ${url}`);
    expect(message).toMatch(/does not speak TLS: .*use an http:\/\/ base URL/);
    expect(events.map((e) => e.outcome)).toEqual(["error"]);
    expect(delays).toEqual([]);
  });

  it("a host name that does not resolve (ENOTFOUND): one attempt, naming the host to check", async () => {
    // .invalid never resolves (RFC 2606)
    const url = "http://alert-rule-users-test.invalid";
    const { client, events } = clientFor({ ...sim, url }, { retry: { maxAttempts: 10 } });
    const error = await rejectionOf(client.queryUsers("r"));
    expect(error).toMatchObject({ kind: "network", networkCode: "ENOTFOUND", attempts: 1, retryable: false });
    expect((error as ApiError).message).toMatch(/does not resolve \(DNS\): check the host .*\(base URL http:\/\/alert-rule-users-test\.invalid\)/);
    expect(events.map((e) => e.outcome)).toEqual(["error"]);
  });
});

describe("non-idempotent requests (case creation) are not retried once they may have reached the service", () => {
  // A timeout no answer of a loaded machine reaches: these tests are about what the service
  // answered, not about how fast. Only the hang test times out, and a hang never answers, so its
  // short timeout keeps it quick whatever the load.
  const ANSWER_TIMEOUT_MS = 30_000;
  const HANG_TIMEOUT_MS = 150;
  function transportFor(url: string, timeoutMs: number = ANSWER_TIMEOUT_MS) {
    const { sleep, delays } = fastSleep();
    const transport = new HttpTransport({ baseUrl: url, token: sim.token, sleep, timeoutMs });
    const send = (operation: "add-users" | "query-users") =>
      operation === "query-users"
        ? transport.post(operation, "/v1/alert-rules/query-users", { tenantId: sim.tenantId, ruleId: sampleRules(sim).inclusion }, usersInRuleResponseSchema, {
            accept: "text/plain",
            idempotent: false,
          })
        : transport.post(
            operation,
            "/v1/alert-rules/add-users",
            { tenantId: sim.tenantId, ruleId: sampleRules(sim).exclusion, userList: [{ userIdFromAuthority: "once", userAliasList: ["once@example.com"] }] },
            null,
            { accept: "application/json", idempotent: false },
          );
    return { transport, send, delays };
  }

  it.each([
    ["a 503", { failRate: 1 }, 503],
    ["a 429", { rateLimitEvery: 1, retryAfterSeconds: 0 }, 429],
    ["a lost response (502)", { lostResponseRate: 1 }, 502],
  ])("sends once after %s", async (_label, faults, status) => {
    // given
    sim.setFaults(faults);
    const { transport, send } = transportFor(sim.url);
    // when
    const error = await rejectionOf(send("add-users"));
    // then
    expect(error).toMatchObject({ status, attempts: 1 });
    expect(sim.requestCounts()["add-users"]).toBe(1);
    expect(transport.counter.snapshot().byOperation["add-users"]).toEqual({ calls: 1, attempts: 1 });
  });

  it("sends once after a timeout", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "hang" }] });
    const { send } = transportFor(sim.url, HANG_TIMEOUT_MS);
    const error = await rejectionOf(send("query-users"));
    expect(error).toMatchObject({ kind: "timeout", attempts: 1 });
    expect(sim.requestCounts()["query-users"]).toBe(1);
  });

  it("retries when the connection was refused before anything was sent", async () => {
    const { transport, send, delays } = transportFor(await closedPortUrl());
    const error = await rejectionOf(send("add-users"));
    expect(error).toMatchObject({ kind: "network", attempts: 10 });
    expect(delays).toHaveLength(9);
    expect(transport.counter.snapshot().attempts).toBe(10);
  });
});
