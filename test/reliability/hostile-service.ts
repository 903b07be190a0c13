/**
 * A hostile stand-in for the service: a plain node:http server whose answers the test writes by
 * hand (echoes of the token, bodies that never end, searches that never finish). It logs every
 * request that arrives, so a test can assert that none did.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { RULE_OPERATIONS } from "../../src/api/rules/schemas";
import { TENANT } from "./support";
import { editableRuleMetadata } from "../support/rule-metadata";

export interface HostileRequest {
  /** The operation, by the last segment of the path (query-users, add-users, ...). */
  readonly operation: string;
  readonly body: Record<string, unknown>;
  /** What followed "Bearer " in the Authorization header. */
  readonly token: string;
}

/** Answers one request: write to `res` (end it, or not). */
export type HostileHandler = (request: HostileRequest, res: ServerResponse, req: IncomingMessage) => void;

export interface HostileService {
  readonly url: string;
  /** Every request that arrived, in order. */
  readonly requests: HostileRequest[];
  stop(): Promise<void>;
}

export async function startHostileService(handler: HostileHandler): Promise<HostileService> {
  const requests: HostileRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        // the test's handler decides
      }
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const request = { operation: (req.url ?? "").split("/").pop() ?? "", body, token };
      requests.push(request);
      handler(request, res, req);
    });
  });
  // Sockets a handler leaves open are destroyed on stop.
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, value: unknown, contentType = "application/json"): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export const ruleId = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** A valid RULE_METADATA record for rule `i`. */
export function ruleMetadata(i: number, name = `Hostile rule ${i}`, id = `meta-${i}`): Record<string, unknown> {
  return { type$: "RULE_METADATA", tenantId: TENANT, ...editableRuleMetadata({ id, observerRuleId: ruleId(i), name, description: `Rule ${i}` }) };
}

export function metadataPage(rules: unknown[], totalCount = rules.length): Record<string, unknown> {
  return { type$: "RULE_METADATA_SEARCH_RESPONSE", ruleMetadata: rules, totalCount, problems: [] };
}

export function usersPage(users: Array<{ userId: string | null; aliases: string[] }>, usersToAlertOn = "SPECIFIED_USERS"): Record<string, unknown> {
  return {
    type$: "USERS_IN_RULE_RESPONSE",
    users: users.map((u) => ({ type$: "USER_BAG", userIdFromAuthority: u.userId, userAliasList: u.aliases })),
    usersToAlertOn,
  };
}

export const OPERATION_PATHS = RULE_OPERATIONS;
