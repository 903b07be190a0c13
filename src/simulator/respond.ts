/** Answers of the simulator's server: a body with its length, JSON, and a refusal as its error body. */
import type * as http from "node:http";
import type { SimHttpError } from "./http-error";

export const JSON_TYPE = "application/json";

/**
 * The header every answer of the simulator carries: how `simulator users` (console.ts) knows it
 * talks to a simulator, never to a real tenant.
 */
export const SIMULATOR_HEADER = "x-alert-rule-users-simulator";

export function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string | number>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "Content-Length": Buffer.byteLength(body), [SIMULATOR_HEADER]: "1", ...headers });
  res.end(body);
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), { "Content-Type": JSON_TYPE, ...headers });
}

export function sendError(res: http.ServerResponse, error: SimHttpError): void {
  sendJson(res, error.status, error.body(), { ...error.headers });
}
