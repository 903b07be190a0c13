/**
 * HTTP plumbing of the simulator: routing, authentication, content-type and body-size checks,
 * JSON parsing and validation, the tenant check, fault injection, persistence before answering,
 * error responses, and one log line per request. Operations live in route tables (routes.ts);
 * each request goes through its checks in request.ts, misbehaving answers in misbehave.ts.
 *
 * The OAuth endpoint (POST /v1/oauth, HTTP Basic) mints tokens (tokens.ts); it is outside the
 * route tables and their checks but for the method and latency.
 *
 * Order of checks for a request (the first that fails answers):
 *   404 unknown path → 405 not POST → latency → 401 token → 415 content type → 413 body size →
 *   429 rate limit (the rateLimitRps bucket, then every Nth) → 503 failure → 400 JSON → misbehaviour → 400 schema → 403 tenant →
 *   handler (404/400 refusals) → persist (500) → 502 lost response → 200.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { SimHttpError } from "./http-error";
import { monotonicNow } from "./rate-limit";
import { handleRequest, pathOf, type RequestContext, type SimulatorServerOptions } from "./request";
import { sendError } from "./respond";
import { OAUTH_PATH } from "./tokens";
import { messageOf } from "../shared/text";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type { SimulatorServerOptions } from "./request";

export interface SimulatorServer {
  readonly server: http.Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
  counts(): Record<string, number>;
  /** One entry per answered request, in arrival order (see RequestLogEntry). */
  requestLog(): RequestLogEntry[];
  resetCounts(): void;
}

/** A request as the simulator saw it: when it arrived, what it was, how it was answered. */
export interface RequestLogEntry {
  /** Arrival, in ms since the simulator started (monotonic clock). */
  readonly atMs: number;
  readonly operation: string;
  /** The status sent; 0 when the connection closed before an answer. */
  readonly status: number;
  /** The number of the minted token the request carried (1 for the first minted); absent for the static token or none. */
  readonly tokenSerial?: number;
  /** The `ruleId` of the request's body, when it has one and was read (a refused 429 is not). */
  readonly ruleId?: string;
}

export function createSimulatorServer(options: SimulatorServerOptions): SimulatorServer {
  const counts: Record<string, number> = {};
  const log: RequestLogEntry[] = [];
  const ruleIdOf = new WeakMap<http.IncomingMessage, string>();
  const origin = monotonicNow();
  const stopping = new AbortController();
  const context: RequestContext = { options, stopping, ruleIdOf };

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const path = pathOf(req);
    const match = options.router.match(path);
    const operation = match?.operation ?? (path === OAUTH_PATH ? "oauth-token" : "unknown");
    counts[operation] = (counts[operation] ?? 0) + 1;
    const sequence = options.faults.arrive();
    options.onRequest?.(operation);
    const atMs = monotonicNow() - origin;
    const seen: { serial?: number } = {};
    res.on("close", () => {
      const ruleId = ruleIdOf.get(req);
      log.push({
        atMs,
        operation,
        status: res.headersSent ? res.statusCode : 0,
        ...(seen.serial === undefined ? {} : { tokenSerial: seen.serial }),
        ...(ruleId === undefined ? {} : { ruleId }),
      });
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      const outcome = res.writableFinished ? String(res.statusCode) : `${res.headersSent ? res.statusCode : "-"} (closed before the end)`;
      options.log(`${req.method ?? "?"} ${path} ${operation} ${outcome} ${ms}ms`);
    });
    handleRequest(context, req, res, match, sequence, seen).catch((error: unknown) => {
      if (stopping.signal.aborted) {
        res.destroy();
        return;
      }
      if (error instanceof SimHttpError) sendError(res, error);
      else sendError(res, new SimHttpError(500, "INTERNAL_ERROR", `Simulator error: ${messageOf(error)}`));
    });
  });

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: () =>
      new Promise((resolve, reject) => {
        stopping.abort();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
    counts: () => ({ ...counts }),
    requestLog: () => [...log].sort((a, b) => a.atMs - b.atMs),
    resetCounts: () => {
      log.length = 0;
      for (const key of Object.keys(counts)) delete counts[key];
    },
  };
}

