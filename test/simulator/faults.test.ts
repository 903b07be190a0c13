/**
 * Fault injection (src/simulator/README.md, "Faults"): failures before applying, lost responses
 * after applying, rate limiting, latency, operation filters, reproducibility, misbehaviour.
 */
import { startSimulator, type FaultOptions, type RunningSimulator } from "../../src/simulator";
import { useSimulator } from "../support/simulator";
import { SAMPLE, call, ruleIdOf, send, usersOf } from "./helpers";
import { RULE_OPERATIONS } from "../../src/api/rules/schemas";

const sim = useSimulator({}, { perTest: true });

const addOne = (target: RunningSimulator, userId: string): ReturnType<typeof call> =>
  call(target, "add-users", { tenantId: target.tenantId, ruleId: ruleIdOf(target, SAMPLE.byName), userList: [{ userIdFromAuthority: userId, userAliasList: [`${userId}@example.com`] }] });
const queryOne = (target: RunningSimulator, name: string = SAMPLE.byName): ReturnType<typeof call> =>
  call(target, "query-users", { tenantId: target.tenantId, ruleId: ruleIdOf(target, name) });
const idsIn = (target: RunningSimulator): Array<string | null> => target.rule(ruleIdOf(target, SAMPLE.byName))!.users.map((u) => u.userIdFromAuthority);

describe("failRate", () => {
  it("answers 503 SERVICE_UNAVAILABLE before applying anything", async () => {
    // given every request fails
    sim.setFaults({ failRate: 1 });

    // when a user is added
    const answer = await addOne(sim, "u1");

    // then 503, the user is not there, and the request was counted
    expect(answer.status).toBe(503);
    expect(answer.json.code).toBe("SERVICE_UNAVAILABLE");
    expect(idsIn(sim)).not.toContain("u1");
    expect(sim.requestCounts()).toEqual({ "add-users": 1 });
  });

  it("fails the same requests for the same seed, and starts again on setFaults", async () => {
    // given two simulators with the same fault seed
    const faults: FaultOptions = { failRate: 0.5, seed: 7 };
    const other = await startSimulator({ faults });
    sim.setFaults(faults);
    const statuses = async (target: RunningSimulator): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await queryOne(target)).status);
      return out;
    };
    try {
      // when the same 20 requests are sent to each
      const first = await statuses(sim);
      const second = await statuses(other);
      sim.setFaults(faults);
      const again = await statuses(sim);

      // then the failures fall on the same requests, both outcomes occur
      expect(second).toEqual(first);
      expect(again).toEqual(first);
      expect(first).toContain(200);
      expect(first).toContain(503);
    } finally {
      await other.stop();
    }
  });

  it("fails each request by what it is and how often it came, not by what arrived in between", async () => {
    // given two simulators with the same fault seed
    const faults: FaultOptions = { failRate: 0.5, seed: 11 };
    const other = await startSimulator({ faults });
    sim.setFaults(faults);
    try {
      // when one receives 12 reads of rule A, then 12 of rule B, and the other the same reads
      // interleaved B, A, B, A, ... (as concurrent clients, or a straggler at the end of a run)
      const ofA = (target: RunningSimulator) => queryOne(target, SAMPLE.byName);
      const ofB = (target: RunningSimulator) => queryOne(target, SAMPLE.inclusion);
      const inOrder = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < 12; i++) inOrder.a.push((await ofA(sim)).status);
      for (let i = 0; i < 12; i++) inOrder.b.push((await ofB(sim)).status);
      const interleaved = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < 12; i++) {
        interleaved.b.push((await ofB(other)).status);
        interleaved.a.push((await ofA(other)).status);
      }

      // then the n-th read of each rule met the same answer on both, and both answers occur
      expect(interleaved).toEqual(inOrder);
      expect(inOrder.a).toContain(503);
      expect(inOrder.a).toContain(200);
      expect(inOrder.b).toContain(503);
    } finally {
      await other.stop();
    }
  });

  it("keeps the rate: about failRate of many distinct requests fail", async () => {
    // given a failure rate of 0.3
    sim.setFaults({ failRate: 0.3, seed: 5 });

    // when 400 different requests arrive once each (searches for 400 rule IDs)
    let failed = 0;
    for (let i = 0; i < 400; i++) {
      const answer = await call(sim, "query-rule-metadata", {
        tenantId: sim.tenantId,
        groups: [{ filters: [{ term: "ObserverRuleId", operator: "IS", value: `rule-${i}` }], filterClause: "AND" }],
        groupClause: "AND",
        pgSize: "10",
        pgNum: "0",
        srtKey: "CreatedAt",
        srtDirection: "DESC",
      });
      if (answer.status === 503) failed += 1;
    }

    // then close to 30 % failed (binomial: 120 ± 3 standard deviations of 9.2)
    expect(failed).toBeGreaterThan(92);
    expect(failed).toBeLessThan(148);
  });

  it("only hits the listed operations", async () => {
    sim.setFaults({ failRate: 1, operations: ["add-users"] });
    expect((await queryOne(sim)).status).toBe(200);
    expect((await addOne(sim, "u1")).status).toBe(503);
  });
});

describe("lostResponseRate", () => {
  it("applies a write, persists it, then answers 502 (the client never learns it succeeded)", async () => {
    // given every write response is lost
    sim.setFaults({ lostResponseRate: 1 });

    // when a user is added
    const answer = await addOne(sim, "u-lost");

    // then 502, but the user is there
    expect(answer.status).toBe(502);
    expect(answer.json.code).toBe("BAD_GATEWAY");
    expect(idsIn(sim)).toContain("u-lost");
  });

  it("never hits reads or refused writes", async () => {
    sim.setFaults({ lostResponseRate: 1 });
    expect((await queryOne(sim)).status).toBe(200);
    const refused = await call(sim, "remove-all-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.allUsers) });
    expect(refused.status).toBe(400);
  });
});

describe("rateLimitEvery", () => {
  it("answers every Nth request (all paths counted) with 429 and Retry-After", async () => {
    // given every third request is rate limited, with the default Retry-After
    sim.setFaults({ rateLimitEvery: 3 });

    // when six requests are sent, one of them to an unknown path
    const statuses = [];
    statuses.push((await queryOne(sim)).status);
    statuses.push((await send(sim, "/v1/unknown", { body: "{}" })).status);
    const third = await queryOne(sim);
    statuses.push(third.status);
    for (let i = 0; i < 3; i++) statuses.push((await queryOne(sim)).status);

    // then the 3rd and 6th are 429 with Retry-After 1
    expect(statuses).toEqual([200, 404, 429, 200, 200, 429]);
    expect(third.headers.get("retry-after")).toBe("1");
    expect(third.json.code).toBe("RATE_LIMITED");
  });

  it("sends the configured Retry-After, 0 included, and applies nothing", async () => {
    sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 0 });
    const answer = await addOne(sim, "u1");
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("0");
    expect(idsIn(sim)).not.toContain("u1");
  });
});

describe("latencyMs", () => {
  it("delays answers but still answers correctly", async () => {
    sim.setFaults({ latencyMs: 30 });
    expect((await queryOne(sim)).status).toBe(200);
  });

  it("lets stop() end requests that are still waiting", async () => {
    // given a long delay and a request waiting on it
    sim.setFaults({ latencyMs: 60_000 });
    const pending = queryOne(sim).then(
      () => "answered",
      () => "closed",
    );

    // when the simulator stops, then the request ends without an answer
    while (sim.requestCounts()["query-users"] !== 1) await new Promise((resolve) => setImmediate(resolve));
    await sim.stop();
    expect(await pending).toBe("closed");
  });
});

describe("misbehave", () => {
  it("wrong-type: a 200 whose type$ is wrong", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "wrong-type" }] });
    const answer = await queryOne(sim);
    expect(answer.status).toBe(200);
    expect(answer.json.type$).toBe("UNEXPECTED_TYPE");
    expect(answer.json.users).toHaveLength(2);
  });

  it("missing-field: a 200 without a documented field", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "missing-field" }] });
    const answer = await queryOne(sim);
    expect(answer.status).toBe(200);
    expect(answer.json.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(answer.json).not.toHaveProperty("users");
  });

  it("missing-field on a search drops the result list", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-rule-metadata", kind: "missing-field" }] });
    const answer = await call(sim, "query-rule-metadata", { tenantId: sim.tenantId, groups: [], groupClause: "OR", pgSize: "10", pgNum: "0", srtKey: "CreatedAt", srtDirection: "DESC" });
    expect(answer.json.type$).toBe("RULE_METADATA_SEARCH_RESPONSE");
    expect(answer.json).not.toHaveProperty("ruleMetadata");
    expect(answer.json.totalCount).toBe(9);
  });

  it("invalid-json: a 200 application/json body that does not parse", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "invalid-json" }] });
    const answer = await queryOne(sim);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(() => JSON.parse(answer.text) as unknown).toThrow();
  });

  it("html-error: a 500 text/html page", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "html-error" }] });
    const answer = await queryOne(sim);
    expect(answer.status).toBe(500);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.text).toContain("<html>");
  });

  it("empty-body: a 200 with no body", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "empty-body" }] });
    const answer = await queryOne(sim);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
  });

  it("hang: headers are sent, the body never ends until stop()", async () => {
    // given query-users hangs
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "hang" }] });

    // when it is called, the status arrives but the body does not
    const response = await fetch(`${sim.url}${RULE_OPERATIONS["query-users"]}`, {
      method: "POST",
      headers: { authorization: `Bearer ${sim.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName) }),
    });
    expect(response.status).toBe(200);
    const body = response.text().then(
      () => "ended",
      () => "closed",
    );

    // then stop() closes the connection and the body read ends in an error
    await sim.stop();
    expect(await body).toBe("closed");
  });

  it("applies nothing for a misbehaving write", async () => {
    sim.setFaults({ misbehave: [{ operation: "add-users", kind: "wrong-type" }] });
    const answer = await addOne(sim, "u1");
    expect(answer.status).toBe(200);
    expect(answer.json.type$).toBe("UNEXPECTED_TYPE");
    expect(idsIn(sim)).not.toContain("u1");
  });

  it("misbehaves only `times` times, and only for the given ruleId", async () => {
    // given one misbehaviour for one rule
    sim.setFaults({ misbehave: [{ operation: "query-users", ruleId: ruleIdOf(sim, SAMPLE.byName), kind: "empty-body", times: 1 }] });

    // when another rule is queried, then the target rule twice
    const other = await queryOne(sim, SAMPLE.inclusion);
    const first = await queryOne(sim);
    const second = await queryOne(sim);

    // then only the first request to the target rule misbehaves
    expect(other.json.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(first.text).toBe("");
    expect(second.json.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(await usersOf(sim, ruleIdOf(sim, SAMPLE.byName))).toHaveLength(2);
  });
});

describe("configuration", () => {
  it.each([
    [{ failRate: 2 }, "failRate"],
    [{ lostResponseRate: -0.1 }, "lostResponseRate"],
    [{ rateLimitEvery: 1.5 }, "rateLimitEvery"],
    [{ misbehave: [{ operation: "query-users", kind: "explode" }] }, "misbehave[0].kind"],
  ])("refuses %j, naming %s", async (faults, field) => {
    expect(() => sim.setFaults(faults as FaultOptions)).toThrow(field);
    await expect(startSimulator({ faults: faults as FaultOptions })).rejects.toThrow(field);
  });
});
