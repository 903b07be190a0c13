/**
 * The misbehaving answers of fault injection (faults.ts `misbehaviour`): a response that hangs,
 * broken JSON, an HTML error page, an empty body, a read-back that says the rule monitors all
 * users, a wrong type$ or a missing field. Built from the body a correct answer would have.
 */
import type * as http from "node:http";
import type { MisbehaviourKind } from "./faults";
import { JSON_TYPE, send, sendJson } from "./respond";
import type { RouteDefinition, RouteMatch } from "./routes";
import type { TenantStore } from "./state";

/** Answers a request with the misbehaviour `kind` instead of applying it. */
export async function misbehave(store: TenantStore, res: http.ServerResponse, kind: MisbehaviourKind, match: RouteMatch, json: unknown): Promise<void> {
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
      const body = await sampleBody(store, match.route, match, json);
      sendJson(res, 200, { ...body, usersToAlertOn: "ALL_USERS", users: [] });
      return;
    }
    case "wrong-type":
    case "missing-field": {
      const body = await sampleBody(store, match.route, match, json);
      const keys = Object.keys(body).filter((key) => key !== "type$");
      if (kind === "wrong-type") body["type$"] = "UNEXPECTED_TYPE";
      else if (keys[0] !== undefined) delete body[keys[0]];
      sendJson(res, 200, body);
      return;
    }
  }
}

/** The body a correct answer would have, without applying anything (reads run their handler). */
async function sampleBody(store: TenantStore, route: RouteDefinition, match: RouteMatch, json: unknown): Promise<Record<string, unknown>> {
  if (!route.write && route.body !== "none") {
    const parsed = route.body.safeParse(json);
    if (parsed.success) {
      try {
        const answer = await route.handle({ body: parsed.data, params: match.params, store, operation: match.operation });
        if (typeof answer.body === "object" && answer.body !== null) return { ...(answer.body as Record<string, unknown>) };
      } catch {
        // fall through to the generic body
      }
    }
  }
  const ruleId = typeof json === "object" && json !== null ? (json as Record<string, unknown>)["ruleId"] : undefined;
  return { type$: route.responseType ?? match.operation.toUpperCase(), ...(typeof ruleId === "string" ? { ruleId } : {}) };
}
