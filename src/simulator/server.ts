/**
 * HTTP plumbing of the simulator: routing, authentication, content-type and body-size checks,
 * JSON parsing and validation, the tenant check, fault injection, persistence before answering,
 * error responses, and one log line per request. Operations live in route tables (routes.ts).
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
import { setTimeout as sleep } from "node:timers/promises";
import { SimHttpError, describeIssues } from "./http-error";
import type { FaultInjector, MisbehaviourKind } from "./faults";
import type { RouteDefinition, RouteMatch, Router } from "./routes";
import type { TenantStore } from "./state";
import { monotonicNow, retryAfterHeaders } from "./rate-limit";
import { OAUTH_PATH, type TokenAuthority } from "./tokens";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface SimulatorServerOptions {
  readonly router: Router;
  readonly store: TenantStore;
  readonly faults: FaultInjector;
  /** Checks bearer tokens and mints them at the OAuth endpoint. */
  readonly tokens: TokenAuthority;
  readonly maxBodyBytes: number;
  /** Persists the state; awaited after each successful write, before answering. */
  readonly persist: () => Promise<void>;
  readonly log: (line: string) => void;
  /** Called as each request arrives, before anything is checked or applied (tests use it to act at a request boundary). */
  readonly onRequest?: ((operation: string) => void) | undefined;
}

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

const JSON_TYPE = "application/json";

/** Checks the bearer token; records the minted token's number in `seen` (for the request log). */
function checkAuthorization(header: string | undefined, tokens: TokenAuthority, seen: { serial?: number }): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  const check = tokens.check(match?.[1]);
  if (check.serial !== undefined) seen.serial = check.serial;
  if (!check.ok) {
    const expired = check.reason === "expired";
    throw new SimHttpError(
      401,
      "UNAUTHORIZED",
      expired
        ? "The bearer token has expired: get a new one from the token endpoint."
        : "Missing or invalid bearer token: send the header Authorization: Bearer <token>.",
      { "WWW-Authenticate": expired ? 'Bearer realm="alert-simulator", error="invalid_token", error_description="The token expired"' : 'Bearer realm="alert-simulator"' },
    );
  }
}

/**
 * The OAuth endpoint: client credentials in HTTP Basic (any client ID, the simulator's token as
 * the secret); answers `{ access_token, token_type, expires_in }` as the vendor does.
 */
function mintToken(req: http.IncomingMessage, res: http.ServerResponse, tokens: TokenAuthority): void {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  const decoded = basic === undefined ? "" : Buffer.from(basic, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || !tokens.acceptsClientSecret(decoded.slice(colon + 1))) {
    throw new SimHttpError(401, "UNAUTHORIZED", "Send the client ID and secret with HTTP Basic: Authorization: Basic base64(clientId:clientSecret).", {
      "WWW-Authenticate": 'Basic realm="alert-simulator"',
    });
  }
  const minted = tokens.mint();
  sendJson(res, 200, { access_token: minted.token, token_type: "bearer", expires_in: minted.expiresInSeconds });
}

function checkContentType(header: string | undefined): void {
  const mediaType = (header ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== JSON_TYPE) {
    throw new SimHttpError(415, "UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${JSON_TYPE}, not ${header === undefined ? "missing" : `"${header}"`}.`);
  }
}

function tooLarge(limit: number): SimHttpError {
  return new SimHttpError(413, "PAYLOAD_TOO_LARGE", `The request body exceeds ${limit} bytes.`, { Connection: "close" });
}

/** Reads the body, refusing (413) as soon as it crosses `limit`, without reading the rest. */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string | number>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), { "Content-Type": JSON_TYPE, ...headers });
}

function sendError(res: http.ServerResponse, error: SimHttpError): void {
  sendJson(res, error.status, error.body(), { ...error.headers });
}

export function createSimulatorServer(options: SimulatorServerOptions): SimulatorServer {
  const counts: Record<string, number> = {};
  const log: RequestLogEntry[] = [];
  const ruleIdOf = new WeakMap<http.IncomingMessage, string>();
  const origin = monotonicNow();
  const stopping = new AbortController();

  async function misbehave(res: http.ServerResponse, kind: MisbehaviourKind, match: RouteMatch, json: unknown): Promise<void> {
    switch (kind) {
      case "hang":
        // Headers go out, the body never ends: only stop() (or the client) closes it.
        res.writeHead(200, { "Content-Type": JSON_TYPE });
        res.flushHeaders();
        return;
      case "invalid-json":
        send(res, 200, '{"type$": "BROKEN", "users": [{', { "Content-Type": JSON_TYPE });
        return;
      case "html-error":
        send(res, 500, "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>", {
          "Content-Type": "text/html; charset=utf-8",
        });
        return;
      case "empty-body":
        send(res, 200, "", { "Content-Type": JSON_TYPE });
        return;
      case "all-users": {
        // A read-back lie: a well-formed answer saying the rule monitors all users (no list).
        const body = await sampleBody(match.route, match, json);
        sendJson(res, 200, { ...body, usersToAlertOn: "ALL_USERS", users: [] });
        return;
      }
      case "wrong-type":
      case "missing-field": {
        const body = await sampleBody(match.route, match, json);
        const keys = Object.keys(body).filter((key) => key !== "type$");
        if (kind === "wrong-type") body["type$"] = "UNEXPECTED_TYPE";
        else if (keys[0] !== undefined) delete body[keys[0]];
        sendJson(res, 200, body);
        return;
      }
    }
  }

  /** The body a correct answer would have, without applying anything (reads run their handler). */
  async function sampleBody(route: RouteDefinition, match: RouteMatch, json: unknown): Promise<Record<string, unknown>> {
    if (!route.write && route.body !== "none") {
      const parsed = route.body.safeParse(json);
      if (parsed.success) {
        try {
          const answer = await route.handle({ body: parsed.data, params: match.params, store: options.store, operation: match.operation });
          if (typeof answer.body === "object" && answer.body !== null) return { ...(answer.body as Record<string, unknown>) };
        } catch {
          // fall through to the generic body
        }
      }
    }
    const ruleId = typeof json === "object" && json !== null ? (json as Record<string, unknown>)["ruleId"] : undefined;
    return { type$: route.responseType ?? match.operation.toUpperCase(), ...(typeof ruleId === "string" ? { ruleId } : {}) };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, match: RouteMatch | undefined, sequence: number, seen: { serial?: number }): Promise<void> {
    if (match === undefined && pathOf(req) === OAUTH_PATH) {
      if (req.method !== "POST") throw new SimHttpError(405, "METHOD_NOT_ALLOWED", `The token endpoint takes POST, not ${req.method ?? "?"}.`, { Allow: "POST" });
      const latency = options.faults.latencyMs("oauth-token");
      if (latency > 0) await sleep(latency, undefined, { signal: stopping.signal });
      mintToken(req, res, options.tokens);
      return;
    }
    if (match === undefined) throw new SimHttpError(404, "NOT_FOUND", `No operation at ${pathOf(req)}.`);
    if (req.method !== "POST") {
      throw new SimHttpError(405, "METHOD_NOT_ALLOWED", `${match.operation} takes POST, not ${req.method ?? "?"}.`, { Allow: "POST" });
    }
    const { route, operation } = match;
    const latency = options.faults.latencyMs(operation);
    if (latency > 0) await sleep(latency, undefined, { signal: stopping.signal });
    checkAuthorization(req.headers.authorization, options.tokens, seen);

    let raw: Buffer | undefined;
    if (route.body !== "none") {
      checkContentType(req.headers["content-type"]);
      raw = await readBody(req, options.maxBodyBytes);
    }

    const token = options.faults.takeToken();
    if (!token.ok) {
      throw new SimHttpError(429, "RATE_LIMITED", `Rate limit exceeded; retry after ${token.retryAfterMs} ms.`, retryAfterHeaders(token.retryAfterMs));
    }
    const limited = options.faults.rateLimit(operation, sequence);
    if (limited !== undefined) {
      throw new SimHttpError(429, "RATE_LIMITED", `Too many requests; retry after ${limited["Retry-After"] ?? ""} s.`, limited);
    }
    // What identifies the request to the fault draws: its path and body.
    const request = `${pathOf(req)}\0${raw?.toString("utf8") ?? ""}`;
    if (options.faults.fails(operation, request)) throw new SimHttpError(503, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable (simulated); nothing was applied.");

    let json: unknown;
    if (raw !== undefined) {
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch (error) {
        throw new SimHttpError(400, "INVALID_JSON", `The request body is not valid JSON: ${(error as Error).message}`);
      }
    }
    const ruleId = typeof json === "object" && json !== null ? (json as Record<string, unknown>)["ruleId"] : undefined;
    if (typeof ruleId === "string") ruleIdOf.set(req, ruleId);
    const kind = options.faults.misbehaviour(operation, typeof ruleId === "string" ? ruleId : undefined);
    if (kind !== undefined) return misbehave(res, kind, match, json);

    let body: unknown;
    if (route.body !== "none") {
      const parsed = route.body.safeParse(json);
      if (!parsed.success) throw new SimHttpError(400, "INVALID_REQUEST", `Invalid ${operation} request: ${describeIssues(parsed.error.issues)}`);
      body = parsed.data;
      const tenantId = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["tenantId"] : undefined;
      if (typeof tenantId === "string" && tenantId !== options.store.tenantId) {
        throw new SimHttpError(403, "TENANT_MISMATCH", `Tenant "${tenantId}" is not the tenant of this token.`);
      }
    }

    const answer = await route.handle({ body, params: match.params, store: options.store, operation });
    if (route.write) {
      try {
        await options.persist();
      } catch (error) {
        throw new SimHttpError(500, "PERSISTENCE_FAILED", `The change was applied in memory but could not be saved: ${(error as Error).message}`);
      }
      if (options.faults.losesResponse(operation, request)) {
        throw new SimHttpError(502, "BAD_GATEWAY", "Bad gateway (simulated lost response).");
      }
    }
    sendJson(res, answer.status ?? 200, answer.body);
  }

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
    handle(req, res, match, sequence, seen).catch((error: unknown) => {
      if (stopping.signal.aborted) {
        res.destroy();
        return;
      }
      if (error instanceof SimHttpError) sendError(res, error);
      else sendError(res, new SimHttpError(500, "INTERNAL_ERROR", `Simulator error: ${error instanceof Error ? error.message : String(error)}`));
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

function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
