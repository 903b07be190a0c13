/**
 * Contract: the token never leaks. With a distinctive token, every kind of failure is provoked;
 * the token must appear in no error's message, JSON, inspection or stack, in no hook event,
 * nothing logged, and not in the client object itself (docs/contract.md §5 "Secrets").
 */
import { inspect } from "node:util";
import { RuleListClient, HttpTransport, resolveConnection, type RequestEvent } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { closedPortUrl, fastSleep, json, startRecorder, type Recorder } from "./helpers";

const TOKEN = "SeCrEt-TOKEN-9f1c2e7a55b4-do-not-leak";
const WRONG_TOKEN = "WrOnG-TOKEN-77aa31c0d9e2-do-not-leak";
const SECRETS = [TOKEN, WRONG_TOKEN, "9f1c2e7a55b4", "77aa31c0d9e2"];

let echo: Recorder;
const simLog: string[] = [];
const logged: string[] = [];
const spies: jest.SpyInstance[] = [];

const sim = useSimulator({ token: TOKEN, log: (line) => simLog.push(line) });
beforeAll(async () => {
  // A server that echoes the request headers into its error bodies, as a careless service might.
  echo = await startRecorder((request, index) =>
    index % 2 === 0
      ? json({ message: `denied for ${request.headers.authorization ?? ""}`, headers: request.headers }, 400)
      : { status: 200, headers: { "Content-Type": "text/html" }, body: `<p>${request.headers.authorization ?? ""}</p>` },
  );
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    spies.push(jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(inspect(args, { depth: 10 }))));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    spies.push(
      jest.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        logged.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      })),
    );
  }
});
afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  await echo.stop();
});
afterEach(() => {
  sim.setFaults({});
});

function expectNoSecret(label: string, text: string): void {
  for (const secret of SECRETS) {
    if (text.includes(secret)) throw new Error(`${label} contains a secret: ${text.slice(0, 500)}`);
  }
}

function expectTokenFree(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const err = error as Error;
  expectNoSecret("message", err.message);
  expectNoSecret("JSON.stringify", JSON.stringify(err));
  expectNoSecret("util.inspect", inspect(err, { depth: 10 }));
  expectNoSecret("util.inspect (showHidden)", inspect(err, { depth: 10, showHidden: true }));
  expectNoSecret("stack", String(err.stack));
  expectNoSecret("cause", inspect(err.cause, { depth: 10 }));
}

async function failureOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("the token never leaks", () => {
  it("through any error, hook event, log line, or the client itself", async () => {
    // given
    const events: RequestEvent[] = [];
    const { sleep } = fastSleep();
    // Answers may take long on a loaded machine: only the hang below is meant to time out, with a
    // client of its own whose short timeout a hang (never answered) cannot miss.
    const options = { token: TOKEN, tenantId: sim.tenantId, sleep, onRequest: (e: RequestEvent) => events.push(e), timeoutMs: 30_000 };
    const hangClient = new RuleListClient({ ...options, baseUrl: sim.url, retry: { maxAttempts: 2 }, timeoutMs: 150 });
    const client = new RuleListClient({ ...options, baseUrl: sim.url, retry: { maxAttempts: 2 } });
    const rules = sim.rules();
    const system = rules.find((r) => r.metadata.isSystem)!.metadata.observerRuleId;
    const allUsers = rules.find((r) => r.usersToAlertOn === "ALL_USERS")!.metadata.observerRuleId;
    const someRule = rules.find((r) => !r.metadata.isSystem && r.usersToAlertOn === "SPECIFIED_USERS")!.metadata.observerRuleId;
    const user = [{ userIdFromAuthority: "u", userAliasList: ["u@example.com"] }];

    // when every kind of failure is provoked
    const errors: unknown[] = [];
    errors.push(await failureOf(() => client.addUsers(system, user))); // 400 RULE_IS_SYSTEM
    errors.push(await failureOf(() => client.removeUsers(allUsers, ["u"]))); // 400 RULE_MONITORS_ALL_USERS
    errors.push(await failureOf(() => client.queryUsers("unknown-rule"))); // 404
    errors.push(await failureOf(() => new RuleListClient({ ...options, baseUrl: sim.url, tenantId: "other" }).queryUsers(someRule))); // 403
    errors.push(await failureOf(() => new RuleListClient({ ...options, baseUrl: sim.url, token: WRONG_TOKEN }).queryUsers(someRule))); // 401
    sim.setFaults({ failRate: 1 });
    errors.push(await failureOf(() => client.queryUsers(someRule))); // 503, retries exhausted
    sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 120 });
    errors.push(await failureOf(() => client.searchRuleMetadata([]))); // 429 beyond maxRetryAfterMs
    sim.setFaults({ lostResponseRate: 1 });
    errors.push(
      await failureOf(() =>
        new HttpTransport({ ...options, baseUrl: sim.url }).post("add-users", "/v1/alert-rules/add-users", { tenantId: sim.tenantId, ruleId: someRule, userList: user }, null, {
          accept: "application/json",
          idempotent: false,
        }),
      ),
    ); // 502, not retried
    for (const kind of ["wrong-type", "missing-field", "invalid-json", "empty-body", "html-error", "hang"] as const) {
      sim.setFaults({ misbehave: [{ operation: "query-users", kind }] });
      errors.push(await failureOf(() => (kind === "hang" ? hangClient : client).queryUsers(someRule)));
    }
    sim.setFaults({});
    errors.push(await failureOf(() => new RuleListClient({ ...options, baseUrl: echo.url }).queryUsers(someRule))); // echoed header in error body
    errors.push(await failureOf(() => new RuleListClient({ ...options, baseUrl: echo.url }).queryUsers(someRule))); // echoed header in HTML 200
    errors.push(await failureOf(async () => new RuleListClient({ ...options, baseUrl: await closedPortUrl() }).queryUsers(someRule))); // network
    // and configuration errors that involve the token
    errors.push(await failureOf(() => resolveConnection({ env: { ALERTS_API_URL: `https://user:${TOKEN}@alerts.example.com`, ALERTS_API_TOKEN: TOKEN } })));
    errors.push(await failureOf(() => resolveConnection({ env: { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: `${TOKEN} ${TOKEN}`, ALERTS_TENANT_ID: "t" } })));
    errors.push(await failureOf(() => resolveConnection({ env: {}, tokenFile: "/nonexistent/token", readFile: () => { throw Object.assign(new Error(`cannot open ${TOKEN}`), { code: "EACCES" }); } })));

    // then
    expect(errors).toHaveLength(20);
    errors.forEach(expectTokenFree);
    // (the echoing server did send the token back: it was redacted, not absent)
    expect(errors.filter((e) => (e as Error).message.includes("[REDACTED]"))).toHaveLength(2);
    expect(new Set(errors.map((e) => (e as { code: string }).code))).toEqual(new Set(["API", "RESPONSE_SHAPE", "CONFIG"]));
    expect(new Set(errors.map((e) => (e as { kind?: string }).kind).filter(Boolean))).toEqual(new Set(["http", "timeout", "network"]));
    expect(events.length).toBeGreaterThan(10);
    expectNoSecret("hook events", JSON.stringify(events));
    expectNoSecret("hook events (inspect)", inspect(events, { depth: 10 }));
    expectNoSecret("console and output streams", logged.join("\n"));
    expectNoSecret("simulator log", simLog.join("\n"));
    expect(simLog.length).toBeGreaterThan(0);
    expectNoSecret("client (inspect)", inspect(client, { depth: 10, showHidden: true }));
    expectNoSecret("client (JSON)", JSON.stringify(client));
    expectNoSecret("counter", JSON.stringify(client.counter.snapshot()));
  });
});
