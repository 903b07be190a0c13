/**
 * Contract of the transport on the wire, against a tiny recording server on 127.0.0.1 (for what
 * the simulator cannot be made to do: headers as received, odd bodies, dates in Retry-After).
 */
import { RuleListClient, ApiError, ResponseShapeError } from "../../src/api";
import { clientFor, json, rejectionOf, startRecorder, type Recorder, type Reply } from "./helpers";

const TOKEN = "recorder-token-0123456789";
const TENANT = "tenant-r";
let recorder: Recorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

async function clientReplying(reply: (index: number) => Reply, overrides = {}) {
  recorder = await startRecorder((_request, index) => reply(index));
  return { recorder, ...clientFor({ url: recorder.url, token: TOKEN, tenantId: TENANT }, overrides) };
}

const usersBody = { type$: "USERS_IN_RULE_RESPONSE", users: [], usersToAlertOn: "SPECIFIED_USERS" };
const searchBody = { type$: "RULE_METADATA_SEARCH_RESPONSE", ruleMetadata: [], totalCount: 0, problems: [] };

describe("requests on the wire", () => {
  it("sends POST with bearer auth, JSON content type and Accept per docs/interface.md, and the documented bodies", async () => {
    // given
    const { client, recorder } = await clientReplying((i) => (i === 0 ? json(searchBody) : i === 1 ? json(usersBody) : json({})));
    // when
    await client.queryRuleMetadataPage([], { pageSize: 20 });
    await client.queryUsers("r1");
    await client.addUsers("r1", [{ userIdFromAuthority: "u1", userAliasList: ["a@x"] }]);
    await client.removeUsers("r1", ["u1"]);
    await client.removeUserAliases("r1", [{ userIdFromAuthority: "u1", userAliasList: ["a@x"] }]);
    await client.removeAllUsers("r1");
    // then
    const seen = recorder.requests.map((r) => ({
      method: r.method,
      path: r.path,
      authorization: r.headers.authorization,
      contentType: r.headers["content-type"],
      accept: r.headers.accept,
      body: JSON.parse(r.body),
    }));
    const common = { method: "POST", authorization: `Bearer ${TOKEN}`, contentType: "application/json" };
    expect(seen).toEqual([
      {
        ...common,
        path: "/v1/alerts/rules/query-rule-metadata",
        accept: "text/plain",
        body: { tenantId: TENANT, groups: [], groupClause: "OR", pgSize: "20", pgNum: "0", srtKey: "CreatedAt", srtDirection: "DESC" },
      },
      { ...common, path: "/v1/alert-rules/query-users", accept: "text/plain", body: { tenantId: TENANT, ruleId: "r1" } },
      {
        ...common,
        path: "/v1/alert-rules/add-users",
        accept: "application/json",
        body: { tenantId: TENANT, ruleId: "r1", userList: [{ userIdFromAuthority: "u1", userAliasList: ["a@x"] }] },
      },
      { ...common, path: "/v1/alert-rules/remove-users", accept: "application/json", body: { tenantId: TENANT, ruleId: "r1", userIdList: ["u1"] } },
      {
        ...common,
        path: "/v1/alert-rules/remove-user-aliases",
        accept: "application/json",
        body: { tenantId: TENANT, ruleId: "r1", userList: [{ userIdFromAuthority: "u1", userAliasList: ["a@x"] }] },
      },
      { ...common, path: "/v1/alert-rules/remove-all-users", accept: "application/json", body: { tenantId: TENANT, ruleId: "r1" } },
    ]);
  });

  it("keeps a path prefix of the base URL", async () => {
    recorder = await startRecorder(() => json(usersBody));
    const client = new RuleListClient({ baseUrl: `${recorder.url}/api/`, token: TOKEN, tenantId: TENANT });
    await client.queryUsers("r1");
    expect(recorder.requests[0]?.path).toBe("/api/v1/alert-rules/query-users");
  });
});

describe("responses", () => {
  it.each<[string, Reply]>([
    ["an empty body", { status: 204, body: "" }],
    ["plain text", { status: 200, headers: { "Content-Type": "text/plain" }, body: "OK" }],
    ["HTML", { status: 200, headers: { "Content-Type": "text/html" }, body: "<p>done</p>" }],
    ["JSON of any shape", json({ anything: [1, 2, 3] }, 201)],
  ])("a write accepts any 2xx with %s", async (_label, reply) => {
    const { client } = await clientReplying(() => reply);
    await expect(client.removeAllUsers("r1")).resolves.toBeUndefined();
  });

  it("names the offending field path of a mistyped response", async () => {
    const body = { ...usersBody, users: [{ type$: "USER_BAG", userIdFromAuthority: "u1", userAliasList: "a@x" }] };
    const { client } = await clientReplying(() => json(body));
    const error = await rejectionOf(client.queryUsers("r1"));
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toBe(
      "query-users for rule 'r1' returned an unexpected response: users[0].userAliasList: expected array, received string",
    );
  });

  it("describes an HTML 200 by content type and first characters, without headers", async () => {
    const page = `<html><head><title>Sign in</title></head><body>${"Please sign in to continue. ".repeat(10)}</body></html>`;
    const { client } = await clientReplying(() => ({ status: 200, headers: { "Content-Type": "text/html", "X-Secret-Header": "hdr-value" }, body: page }));
    const error = (await rejectionOf(client.queryUsers("r1"))) as ResponseShapeError;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toMatch(/body is not valid JSON \(status 200, content-type text\/html; starts with "Sign in Please sign in/);
    expect(error.received?.snippet.length).toBeLessThanOrEqual(83);
    expect(JSON.stringify(error)).not.toContain("hdr-value");
  });

  it("reports problems in a search response as an ApiError", async () => {
    const { client } = await clientReplying(() => json({ ...searchBody, problems: [{ type$: "PROBLEM", message: "bad filter" }] }));
    const error = await rejectionOf(client.queryRuleMetadataPage([]));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/query-rule-metadata failed: 200 PROBLEMS: the service reported problems: .*bad filter/);
  });

  it.each<[string, Reply, string | undefined, string | undefined]>([
    ["the simulator's error body", json({ type$: "ERROR", code: "X_CODE", message: "x message" }, 400), "X_CODE", "x message"],
    ["a message field", json({ message: "plain message" }, 400), undefined, "plain message"],
    ["an error field", json({ error: "invalid_request" }, 400), undefined, "invalid_request"],
    ["a problems array", json({ problems: ["p1", "p2"] }, 400), undefined, "p1; p2"],
    ["plain text", { status: 400, headers: { "Content-Type": "text/plain" }, body: "nope" }, undefined, "nope (text/plain)"],
  ])("reads the service message from %s", async (_label, reply, code, message) => {
    const { client } = await clientReplying(() => reply);
    const error = (await rejectionOf(client.queryUsers("r1"))) as ApiError;
    expect(error.serviceCode).toBe(code);
    expect(error.serviceMessage).toBe(message);
  });

  it("does not follow redirects (they would carry the token elsewhere)", async () => {
    const { client, recorder } = await clientReplying(() => ({ status: 302, headers: { Location: "http://127.0.0.1:1/elsewhere" }, body: "" }));
    const error = await rejectionOf(client.queryUsers("r1"));
    expect(error).toMatchObject({ kind: "http", status: 302, attempts: 1 });
    expect(recorder.requests).toHaveLength(1);
  });
});

describe("Retry-After", () => {
  it("honours an HTTP date on 503", async () => {
    // given a 503 asking to come back at a date a few seconds ahead, then success; the client's
    // clock is fixed (injected), so how long the answer took on a loaded machine does not matter
    const now = Date.parse("2026-06-01T12:00:00Z");
    const { client, delays } = await clientReplying(
      (i) => (i === 0 ? { status: 503, headers: { "Retry-After": new Date(now + 3000).toUTCString() }, body: "" } : json(usersBody)),
      { now: () => now },
    );
    // when
    await client.queryUsers("r1");
    // then the wait came from the header, not from the backoff (which would be 100 ms here)
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(1000);
    expect(delays[0]).toBeLessThanOrEqual(3000);
  });

  it("uses backoff on a 500 even when it carries Retry-After", async () => {
    const { client, delays } = await clientReplying((i) =>
      i === 0 ? { status: 500, headers: { "Retry-After": "20" }, body: "" } : json(usersBody),
    );
    await client.queryUsers("r1");
    expect(delays).toEqual([100]);
  });

  it("waits out 429s without spending the attempts meant for failures", async () => {
    // given a client allowed 2 attempts, and a service that rate-limits three times, fails once, then answers
    const { client, recorder } = await clientReplying(
      (i) => (i < 3 ? { status: 429, headers: { "Retry-After": "0" }, body: "" } : i === 3 ? { status: 503, body: "" } : json(usersBody)),
      { retry: { maxAttempts: 2 } },
    );
    // when
    await client.queryUsers("r1");
    // then all five requests were made
    expect(recorder.requests).toHaveLength(5);
  });

  it("gives up after maxRateLimitRetries 429s", async () => {
    const { client, recorder } = await clientReplying(() => ({ status: 429, headers: { "Retry-After": "0" }, body: "" }), {
      retry: { maxRateLimitRetries: 3 },
    });
    const error = await client.queryUsers("r1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(recorder.requests).toHaveLength(4);
  });
});
