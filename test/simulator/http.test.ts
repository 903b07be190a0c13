/**
 * HTTP conventions of the simulator (src/simulator/README.md, "Requests"): token, tenant,
 * content type, body size, JSON, schema, paths and methods, error bodies, logging and counts.
 */
import * as net from "node:net";
import { RULE_OPERATIONS } from "../../src/api/rules/schemas";
import { DEFAULT_SIMULATOR_TOKEN } from "../../src/simulator";
import { useSimulator, withSimulator } from "../support/simulator";
import { SAMPLE, call, ruleIdOf, send } from "./helpers";

let lines: string[];

beforeEach(() => {
  lines = [];
});
const sim = useSimulator({ maxBodyBytes: 1024, log: (line) => lines.push(line) }, { perTest: true });

const QUERY_USERS = RULE_OPERATIONS["query-users"];
const queryBody = (): string => JSON.stringify({ tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.inclusion) });

function expectError(answer: { status: number; headers: Headers; json: unknown }, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(answer.json).toEqual({ type$: "ERROR", code, message: expect.any(String) });
}

describe("authentication", () => {
  it("starts with the default token and the seed's tenant, on 127.0.0.1", () => {
    expect(sim.token).toBe(DEFAULT_SIMULATOR_TOKEN);
    expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
    expect(sim.tenantId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["no Authorization header", { "content-type": "application/json" }],
    ["a wrong token", { authorization: "Bearer not-the-token", "content-type": "application/json" }],
    ["another scheme", { authorization: `Basic ${DEFAULT_SIMULATOR_TOKEN}`, "content-type": "application/json" }],
    ["an empty bearer", { authorization: "Bearer ", "content-type": "application/json" }],
  ])("answers 401 UNAUTHORIZED for %s", async (_what, headers) => {
    const answer = await send(sim, QUERY_USERS, { headers, body: queryBody() });
    expectError(answer, 401, "UNAUTHORIZED");
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("accepts the scheme in any case", async () => {
    const answer = await send(sim, QUERY_USERS, { headers: { authorization: `bearer ${sim.token}`, "content-type": "application/json" }, body: queryBody() });
    expect(answer.status).toBe(200);
  });

  it("uses the token and tenant ID given as options", async () => {
    // given a simulator with its own token and tenant
    await withSimulator({ token: "s3cret-token", tenantId: "tenant-b" }, async (other) => {
      // when the default token is used, then 401; with the given one, 200 and the tenant is reported
      expect((await send(other, QUERY_USERS, { headers: { authorization: `Bearer ${DEFAULT_SIMULATOR_TOKEN}`, "content-type": "application/json" }, body: "{}" })).status).toBe(401);
      const ruleId = other.rules()[0]!.metadata.observerRuleId;
      const answer = await call(other, "query-users", { tenantId: "tenant-b", ruleId });
      expect(answer.status).toBe(200);
      expect(other.tenantId).toBe("tenant-b");
      expect(other.rules()[0]!.metadata.tenantId).toBe("tenant-b");
    });
  });
});

describe("tenant", () => {
  it("answers 403 TENANT_MISMATCH for another tenant's ID, for reads and writes", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);
    expectError(await call(sim, "query-users", { tenantId: "other-tenant", ruleId }), 403, "TENANT_MISMATCH");
    expectError(await call(sim, "remove-all-users", { tenantId: "other-tenant", ruleId }), 403, "TENANT_MISMATCH");
    expect(sim.rule(ruleId)!.users).toHaveLength(4);
  });
});

describe("request bodies", () => {
  it("answers 400 INVALID_JSON for a body that is not JSON", async () => {
    expectError(await send(sim, QUERY_USERS, { body: "{ruleId:" }), 400, "INVALID_JSON");
  });

  it("answers 400 INVALID_REQUEST naming the field that violates the schema", async () => {
    const missing = await call(sim, "query-users", { tenantId: sim.tenantId });
    const wrongType = await call(sim, "add-users", { tenantId: sim.tenantId, ruleId: "r", userList: [{ userIdFromAuthority: 5, userAliasList: ["a@example.com"] }] });
    const notAnObject = await send(sim, QUERY_USERS, { body: "[]" });
    expectError(missing, 400, "INVALID_REQUEST");
    expect(missing.json.message).toContain("ruleId");
    expect(wrongType.json.message).toContain("userList[0].userIdFromAuthority");
    expectError(notAnObject, 400, "INVALID_REQUEST");
  });

  it.each([
    ["text/plain", { "content-type": "text/plain" }],
    ["the text/plain fetch sets when none is given", {}],
  ])("answers 415 UNSUPPORTED_MEDIA_TYPE for %s", async (_what, contentType) => {
    const answer = await send(sim, QUERY_USERS, { headers: { authorization: `Bearer ${sim.token}`, ...contentType }, body: queryBody() });
    expectError(answer, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("accepts application/json with parameters", async () => {
    const answer = await send(sim, QUERY_USERS, { headers: { authorization: `Bearer ${sim.token}`, "content-type": "Application/JSON; charset=utf-8" }, body: queryBody() });
    expect(answer.status).toBe(200);
  });

  it("answers 413 PAYLOAD_TOO_LARGE when the declared length exceeds the limit", async () => {
    const answer = await send(sim, QUERY_USERS, { body: JSON.stringify({ tenantId: sim.tenantId, ruleId: "x".repeat(2048) }) });
    expectError(answer, 413, "PAYLOAD_TOO_LARGE");
  });

  it("answers 413 as soon as a streamed body crosses the limit, without waiting for its end", async () => {
    // given a raw connection that streams 2 KiB of a body of unknown length and then keeps the socket open
    const socket = net.connect(sim.port, "127.0.0.1");
    const received = new Promise<string>((resolve, reject) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        if (text.includes("\r\n\r\n") && text.includes("}")) resolve(text);
      });
      socket.on("error", reject);
    });
    socket.write(
      `POST ${QUERY_USERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sim.token}\r\n` +
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = "x".repeat(512);
    for (let i = 0; i < 4; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);

    // when the server answers (the body was never finished)
    const response = await received;
    socket.destroy();

    // then it is a 413 with the error body
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });
});

describe("paths and methods", () => {
  it("answers 404 NOT_FOUND for an unknown path, counted as 'unknown'", async () => {
    expectError(await send(sim, "/v1/alert-rules/nope", { body: "{}" }), 404, "NOT_FOUND");
    expectError(await send(sim, `${QUERY_USERS}/`, { body: "{}" }), 404, "NOT_FOUND");
    expect(sim.requestCounts()).toEqual({ unknown: 2 });
  });

  it("answers 405 METHOD_NOT_ALLOWED with Allow: POST for other methods", async () => {
    const answer = await send(sim, QUERY_USERS, { method: "GET", headers: { authorization: `Bearer ${sim.token}` } });
    expectError(answer, 405, "METHOD_NOT_ALLOWED");
    expect(answer.headers.get("allow")).toBe("POST");
  });

  it("ignores a query string", async () => {
    expect((await send(sim, `${QUERY_USERS}?x=1`, { body: queryBody() })).status).toBe(200);
  });
});

describe("request counts and log", () => {
  it("counts requests per operation, refused ones included, until reset", async () => {
    // given three requests to two operations, one of them refused
    await send(sim, QUERY_USERS, { body: queryBody() });
    await send(sim, QUERY_USERS, { headers: {}, body: queryBody() });
    await call(sim, "remove-all-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName) });

    // then the counts say so, and reset clears them
    expect(sim.requestCounts()).toEqual({ "query-users": 2, "remove-all-users": 1 });
    sim.resetCounts();
    expect(sim.requestCounts()).toEqual({});
  });

  it("logs one line per request with method, path, operation and status, and never the token", async () => {
    // given a request with the token and one with a wrong token
    await send(sim, QUERY_USERS, { body: queryBody() });
    await send(sim, QUERY_USERS, { headers: { authorization: "Bearer wrong-secret-token" }, body: queryBody() });
    await sim.stop();

    // then two lines, without any token
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^POST ${QUERY_USERS} query-users 200 \\d+ms$`));
    expect(lines[1]).toMatch(/ query-users 401 /);
    for (const line of lines) {
      expect(line).not.toContain(DEFAULT_SIMULATOR_TOKEN);
      expect(line).not.toContain("wrong-secret-token");
    }
  });
});
