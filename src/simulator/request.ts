/**
 * One request through the simulator's checks, in the order of server.ts: the token endpoint,
 * 404, 405, latency, 401, 415, 413, 429, 503, 400 JSON, misbehaviour, 400 schema, 403 tenant,
 * then the route's handler, persistence (500) and a lost response (502).
 */
import type * as http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { SimHttpError, describeIssues } from "./http-error";
import { misbehave } from "./misbehave";
import { retryAfterHeaders } from "./rate-limit";
import { JSON_TYPE, sendJson } from "./respond";
import type { FaultInjector } from "./faults";
import type { RouteMatch, Router } from "./routes";
import type { TenantStore } from "./state";
import { OAUTH_PATH, type TokenAuthority } from "./tokens";

/** What the simulator's server is made of (server.ts createSimulatorServer). */
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

/** What a request is handled with: the server's options, its stop signal, and where the request's ruleId is noted for the log. */
export interface RequestContext {
  readonly options: SimulatorServerOptions;
  readonly stopping: AbortController;
  readonly ruleIdOf: WeakMap<http.IncomingMessage, string>;
}

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

export async function handleRequest(
  context: RequestContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  match: RouteMatch | undefined,
  sequence: number,
  seen: { serial?: number },
): Promise<void> {
  const { options, stopping, ruleIdOf } = context;
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

  checkRateLimits(options, operation, sequence);
  // What identifies the request to the fault draws: its path and body.
  const request = `${pathOf(req)}\0${raw?.toString("utf8") ?? ""}`;
  if (options.faults.fails(operation, request)) throw new SimHttpError(503, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable (simulated); nothing was applied.");

  const json = raw === undefined ? undefined : parseJson(raw);
  const ruleId = typeof json === "object" && json !== null ? (json as Record<string, unknown>)["ruleId"] : undefined;
  if (typeof ruleId === "string") ruleIdOf.set(req, ruleId);
  const kind = options.faults.misbehaviour(operation, typeof ruleId === "string" ? ruleId : undefined);
  if (kind !== undefined) return misbehave(options.store, res, kind, match, json);

  const body = route.body === "none" ? undefined : requestBody(route.body, json, operation, options.store.tenantId);
  const answer = await route.handle({ body, params: match.params, store: options.store, operation });
  if (route.write) await afterWrite(options, operation, request);
  sendJson(res, answer.status ?? 200, answer.body);
}

/** The rate limits before anything is read or applied: the token bucket (`--rate-limit-rps`), then every Nth request (`rateLimitEvery`). */
function checkRateLimits(options: RequestContext["options"], operation: string, sequence: number): void {
  const token = options.faults.takeToken();
  if (!token.ok) {
    throw new SimHttpError(429, "RATE_LIMITED", `Rate limit exceeded; retry after ${token.retryAfterMs} ms.`, retryAfterHeaders(token.retryAfterMs));
  }
  const limited = options.faults.rateLimit(operation, sequence);
  if (limited !== undefined) {
    throw new SimHttpError(429, "RATE_LIMITED", `Too many requests; retry after ${limited["Retry-After"] ?? ""} s.`, limited);
  }
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw new SimHttpError(400, "INVALID_JSON", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The body as the route's schema parses it, of this simulator's tenant. */
function requestBody(schema: z.ZodType, json: unknown, operation: string, tenant: string): unknown {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SimHttpError(400, "INVALID_REQUEST", `Invalid ${operation} request: ${describeIssues(parsed.error.issues)}`);
  const body = parsed.data;
  const tenantId = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["tenantId"] : undefined;
  if (typeof tenantId === "string" && tenantId !== tenant) {
    throw new SimHttpError(403, "TENANT_MISMATCH", `Tenant "${tenantId}" is not the tenant of this token.`);
  }
  return body;
}

/** A write applied: saved (the state file), then its answer lost when the faults say so. */
async function afterWrite(options: RequestContext["options"], operation: string, request: string): Promise<void> {
  try {
    await options.persist();
  } catch (error) {
    throw new SimHttpError(500, "PERSISTENCE_FAILED", `The change was applied in memory but could not be saved: ${(error as Error).message}`);
  }
  if (options.faults.losesResponse(operation, request)) {
    throw new SimHttpError(502, "BAD_GATEWAY", "Bad gateway (simulated lost response).");
  }
}

export function pathOf(req: http.IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
