/**
 * Reads that a hostile service tries to make endless: a body that never ends, a huge error body
 * (which a retry would download again), a body that trickles in a byte at a time, a search whose
 * every page brings new rules with a huge totalCount, and one that repeats the same page. Each
 * stops, once, with a ReadLimitError that says which limit stopped it and how to change it.
 */
import type { ServerResponse } from "node:http";
import { RateLimiter, RuleListClient, type ClientOptions } from "../../src/api";
import { ReadLimitError } from "../../src/api/http/errors";
import { group, filter } from "../../src/api/filters";
import { runCli, workspace, type Workspace } from "../support/cli";
import { metadataPage, ruleId, ruleMetadata, sendJson, startHostileService, type HostileHandler, type HostileService } from "./hostile-service";
import { TENANT, TOKEN, env } from "./support";

const MiB = 1024 * 1024;

let service: HostileService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

async function serve(handler: HostileHandler): Promise<HostileService> {
  service = await startHostileService(handler);
  return service;
}

/** A client without real waits between retries. */
function client(url: string, options: Partial<ClientOptions> = {}): RuleListClient {
  return new RuleListClient({ baseUrl: url, token: TOKEN, tenantId: TENANT, sleep: () => Promise.resolve(), random: () => 0.5, ...options });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the read to fail, but it succeeded");
}

/**
 * Streams `chunk` forever (or until `total` bytes), pausing when the socket is full, and counts
 * what it wrote into `written.bytes`.
 */
function endless(res: ServerResponse, written: { bytes: number }, options: { chunk?: Buffer; total?: number; status?: number } = {}): void {
  const chunk = options.chunk ?? Buffer.alloc(256 * 1024, "x");
  res.writeHead(options.status ?? 200, {
    "content-type": "text/plain",
    ...(options.total === undefined ? {} : { "content-length": String(options.total) }),
  });
  let stopped = false;
  res.on("close", () => (stopped = true));
  const pump = (): void => {
    while (!stopped && (options.total === undefined || written.bytes < options.total)) {
      written.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
  };
  pump();
}

describe("bodies", () => {
  it("a body that never ends is cut at the cap and not asked for again", async () => {
    // given a query-users whose answer never ends
    const written = { bytes: 0 };
    const hostile = await serve((_request, res) => endless(res, written));
    // when read with a cap of 4 MiB
    const error = await failureOf(client(hostile.url, { maxBodyBytes: 4 * MiB, timeoutMs: 5000, retry: { maxAttempts: 2 } }).queryUsers(ruleId(1)));
    // then one request, stopped by the body limit, saying how to raise it
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).limit).toBe("body-size");
    expect((error as ReadLimitError).message).toMatch(/query-users for rule '.*' stopped: the response body is larger than 4 MiB/);
    expect((error as ReadLimitError).message).toMatch(/ALERT_RULE_USERS_MAX_BODY_MIB/);
    expect(hostile.requests).toHaveLength(1);
    expect(written.bytes).toBeLessThan(64 * MiB);
  });

  it("a 600 MB error body is read no further than the default 64 MiB, once, though a 503 is retried", async () => {
    // given a 503 that announces 600 MB
    const written = { bytes: 0 };
    const hostile = await serve((_request, res) => endless(res, written, { status: 503, total: 600_000_000 }));
    // when
    const error = await failureOf(client(hostile.url, { timeoutMs: 10_000 }).queryUsers(ruleId(1)));
    // then
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).limit).toBe("body-size");
    expect((error as ReadLimitError).message).toMatch(/larger than 64 MiB/);
    expect(hostile.requests).toHaveLength(1);
    expect(written.bytes).toBeLessThan(200 * MiB);
  });

  it("a body that trickles in forever stops at the request's overall deadline, retries included", async () => {
    // given a body that sends a byte every 50 ms and never ends
    const hostile = await serve((_request, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(timer));
    });
    // when each attempt may take 500 ms and the whole request 1.5 s
    const error = await failureOf(client(hostile.url, { timeoutMs: 500, requestDeadlineMs: 1500 }).queryUsers(ruleId(1)));
    // then it stopped at the deadline, after at most 3 attempts, saying so
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).limit).toBe("deadline");
    expect((error as ReadLimitError).message).toMatch(/did not complete within its overall deadline of 1\.5 s/);
    expect((error as ReadLimitError).message).toMatch(/ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS/);
    expect(hostile.requests.length).toBeLessThanOrEqual(3);
  });
});

describe("a request that waits for its turn at the rate limiter", () => {
  it("past its deadline says that the wait took it all, not that attempts failed", async () => {
    // given a service that answers at once, and a client paced at one request every 2 s with a 1 s request deadline
    const hostile = await serve((_request, res) => sendJson(res, 200, { type$: "USERS_IN_RULE_RESPONSE", users: [], usersToAlertOn: "SPECIFIED_USERS" }));
    const paced = client(hostile.url, { requestDeadlineMs: 1000, rateLimiter: new RateLimiter({ maxRps: 0.5 }) });
    await paced.queryUsers(ruleId(1));
    // when a second request must wait 2 s for its turn
    const error = await failureOf(paced.queryUsers(ruleId(1)));
    // then
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).message).toMatch(/could not start within its overall deadline of 1 s: waiting for its turn at the rate limiter/);
    expect((error as ReadLimitError).message).not.toMatch(/0 attempts/);
    expect(hostile.requests).toHaveLength(1);
  });
});

describe("paging", () => {
  const everyRule = [group([filter("TenantId", "Is", TENANT)])];

  it("a search that brings a full page of new rules forever, with a huge totalCount, stops at the results limit", async () => {
    // given
    let served = 0;
    const hostile = await serve((_request, res) => {
      const page = Array.from({ length: 100 }, () => ruleMetadata(1, "Endless", `meta-${++served}`));
      sendJson(res, 200, metadataPage(page, 2_000_000_000));
    });
    // when
    const error = await failureOf(client(hostile.url, { maxSearchResults: 500 }).searchRuleMetadata(everyRule, { pageSize: 100 }));
    // then
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).limit).toBe("too-many-results");
    expect((error as ReadLimitError).message).toMatch(/query-rule-metadata stopped: more than 500 results .*totalCount 2000000000/);
    expect((error as ReadLimitError).message).toMatch(/ALERT_RULE_USERS_MAX_SEARCH_RESULTS/);
    expect(hostile.requests.length).toBeLessThanOrEqual(6);
  });

  it("a search that answers every page with the same rules stops at the first page that brings nothing new", async () => {
    // given a service that ignores pgNum and announces 5000 rules
    const hostile = await serve((_request, res) => sendJson(res, 200, metadataPage(Array.from({ length: 100 }, (_, i) => ruleMetadata(i, `Same ${i}`, `meta-${i}`)), 5000)));
    // when
    const error = await failureOf(client(hostile.url).searchRuleMetadata(everyRule, { pageSize: 100 }));
    // then
    expect(error).toBeInstanceOf(ReadLimitError);
    expect((error as ReadLimitError).limit).toBe("no-progress");
    expect((error as ReadLimitError).message).toMatch(/page 1 brought nothing new after 100 of the 5000 results announced/);
    expect(hostile.requests).toHaveLength(2);
  });

  it("a service that serves fewer per page than asked is read to the end, not cut at its first page", async () => {
    // given 250 rules served 40 a page (whatever pgSize asks), honouring pgNum
    const hostile = await serve((request, res) => {
      const number = Number(request.body["pgNum"]);
      const page = Array.from({ length: 40 }, (_, i) => number * 40 + i).filter((n) => n < 250);
      sendJson(res, 200, metadataPage(page.map((n) => ruleMetadata(n, `Rule ${n}`, `meta-${n}`)), 250));
    });
    // when
    const rules = await client(hostile.url).searchRuleMetadata(everyRule, { pageSize: 100 });
    // then
    expect(rules).toHaveLength(250);
    expect(hostile.requests).toHaveLength(7);
  });

  it("a search stops without error once totalCount results are read", async () => {
    // given 250 rules served 100 a page, honouring pgNum
    const hostile = await serve((request, res) => {
      const number = Number(request.body["pgNum"]);
      const page = Array.from({ length: 100 }, (_, i) => number * 100 + i).filter((n) => n < 250);
      sendJson(res, 200, metadataPage(page.map((n) => ruleMetadata(n, `Rule ${n}`, `meta-${n}`)), 250));
    });
    // when
    const rules = await client(hostile.url).searchRuleMetadata(everyRule, { pageSize: 100 });
    // then
    expect(rules).toHaveLength(250);
    expect(hostile.requests).toHaveLength(3);
  });
});

describe("the CLI", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace([{ name: "reads", lists: [{ id: "list", props: { ruleId: ruleId(1), users: [{ userId: "1", aliases: ["a@example.com"] }] } }] }]);
  });
  afterAll(() => ws.cleanup());

  it("ALERT_RULE_USERS_MAX_BODY_MIB sets the cap: an endless list fails that rule, naming the limit", async () => {
    // given a service whose query-users never ends
    const written = { bytes: 0 };
    const hostile = await serve((request, res) => {
      if (request.operation === "query-rule-metadata") return sendJson(res, 200, metadataPage([ruleMetadata(1)]));
      endless(res, written);
    });
    // when
    const result = await runCli(["plan"], { cwd: ws.dir, env: { ...env(hostile.url), ALERT_RULE_USERS_MAX_BODY_MIB: "2" } });
    // then
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/query-users for rule '.*' stopped: the response body is larger than 2 MiB/);
    expect(hostile.requests.filter((r) => r.operation === "query-users")).toHaveLength(1);
  });

  it("an endless search stops at the default results limit, saying which limit stopped it", async () => {
    let served = 0;
    const hostile = await serve((_request, res) => {
      sendJson(res, 200, metadataPage(Array.from({ length: 100 }, () => ruleMetadata(1, "Endless", `meta-${++served}`)), 2_000_000_000));
    });
    const result = await runCli(["plan"], { cwd: ws.dir, env: env(hostile.url) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/query-rule-metadata stopped: more than 20000 results/);
    expect(hostile.requests.length).toBeLessThanOrEqual(201);
  });
});
