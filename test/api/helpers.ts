/**
 * Test helpers of the API contract tests: a simulator per suite, a client for it, fast sleeps,
 * and a tiny recording HTTP server for what the simulator cannot be made to do.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { RuleListClient, type ClientOptions } from "../../src/api";
import type { RequestEvent } from "../../src/api/http/counter";
import type { RunningSimulator } from "../../src/simulator";

/** A sleep that does not wait, and remembers what it was asked to wait. */
export function fastSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  };
}

export interface TestClient {
  client: RuleListClient;
  events: RequestEvent[];
  delays: number[];
}

/** A client for a running simulator, with a recording hook and a fast sleep. */
export function clientFor(
  target: { url: string; token: string; tenantId: string },
  overrides: Partial<ClientOptions> = {},
): TestClient {
  const events: RequestEvent[] = [];
  const { sleep, delays } = fastSleep();
  const client = new RuleListClient({
    baseUrl: target.url,
    token: target.token,
    tenantId: target.tenantId,
    sleep,
    random: () => 0.5,
    onRequest: (event) => events.push(event),
    ...overrides,
  });
  return { client, events, delays };
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Rules of the sample tenant by kind. */
export function sampleRules(sim: RunningSimulator) {
  const rules = sim.rules();
  const find = (what: string, predicate: (r: (typeof rules)[number]) => boolean) => {
    const rule = rules.find(predicate);
    if (rule === undefined) throw new Error(`the sample tenant has no ${what}`);
    return rule.metadata.observerRuleId;
  };
  return {
    all: rules,
    inclusion: find("inclusion rule", (r) => !r.metadata.isSystem && r.usersToAlertOn === "SPECIFIED_USERS" && r.users.length > 0 && r.users.every((u) => u.userIdFromAuthority !== null && !/\s/.test(u.userIdFromAuthority))),
    exclusion: find("exclusion rule", (r) => !r.metadata.isSystem && r.usersToAlertOn === "ALL_USERS_NOT_SPECIFIED"),
    allUsers: find("all-users rule", (r) => r.usersToAlertOn === "ALL_USERS"),
    departing: find("Departing Employee rule", (r) => r.metadata.ruleSource === "Departing Employee"),
    highRisk: find("High Risk Employee rule", (r) => r.metadata.ruleSource === "High Risk Employee"),
    withoutIds: find("rule with entries without IDs", (r) => r.users.some((u) => u.userIdFromAuthority === null || /\s/.test(u.userIdFromAuthority))),
  };
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface Recorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  stop(): Promise<void>;
}

export type Reply = { status: number; headers?: Record<string, string>; body: string };

/** A local HTTP server that records requests and answers with `reply` (no simulator logic). */
export async function startRecorder(reply: (request: RecordedRequest, index: number) => Reply): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(recorded);
      const answer = reply(recorded, requests.length - 1);
      res.writeHead(answer.status, { "Content-Length": Buffer.byteLength(answer.body), ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens (connections are refused). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const json = (body: unknown, status = 200): Reply => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});
