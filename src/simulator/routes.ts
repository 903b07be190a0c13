/**
 * Route tables: the unit in which operations are added to the simulator. A table maps operation
 * names (as counted, logged and targeted by faults) to a path and a handler; the server takes a
 * list of tables, so alerts, cases and file events can be added in their own files beside
 * rule-routes.ts.
 */
import type { z } from "zod";

/** What a route answers from: the request, and the store `S` of the tenant (src/simulator/state.ts TenantStore). */
export interface RouteContext<B, S = unknown> {
  /** The request body, validated by the route's schema (undefined for bodyless routes). */
  readonly body: B;
  /** Values of `{name}` segments of the route's path. */
  readonly params: Readonly<Record<string, string>>;
  readonly store: S;
  readonly operation: string;
}

export interface RouteResponse {
  /** @default 200 */
  readonly status?: number;
  readonly body: unknown;
}

export interface RouteDefinition<B = unknown, S = unknown> {
  /** Absolute path, e.g. "/v1/alert-rules/add-users"; a `{name}` segment matches one path segment. */
  readonly path: string;
  /**
   * True when a successful request changes state: the state is persisted before the response
   * is sent, and lost-response faults apply.
   */
  readonly write: boolean;
  /** The JSON body schema (the server answers 400 naming the field), or "none" for bodyless routes. */
  readonly body: z.ZodType<B> | "none";
  /** The type$ of a successful response (used by misbehaving write responses). */
  readonly responseType?: string;
  /** Answers a valid request; refusals are thrown as SimHttpError. */
  handle(context: RouteContext<B, S>): RouteResponse | Promise<RouteResponse>;
}

export type RouteTable = Readonly<Record<string, RouteDefinition>>;

/**
 * The `defineRoute` of a route table whose routes answer from a store of type `S`: an identity
 * function that infers the body type of a route from its schema.
 */
export function routeDefiner<S>(): <B>(route: RouteDefinition<B, S>) => RouteDefinition<B, S> {
  return (route) => route;
}

export interface RouteMatch {
  readonly operation: string;
  readonly route: RouteDefinition;
  readonly params: Record<string, string>;
}

/** Matches request paths against the routes of several tables; a duplicate operation name or path is an error. */
export class Router {
  private readonly entries: Array<{ operation: string; route: RouteDefinition; segments: string[] }> = [];

  constructor(tables: readonly RouteTable[]) {
    const operations = new Set<string>();
    const paths = new Set<string>();
    for (const table of tables) {
      for (const [operation, route] of Object.entries(table)) {
        if (operations.has(operation)) throw new Error(`Two route tables define the operation "${operation}".`);
        if (paths.has(route.path)) throw new Error(`Two routes use the path ${route.path}.`);
        operations.add(operation);
        paths.add(route.path);
        this.entries.push({ operation, route, segments: route.path.split("/") });
      }
    }
  }

  match(pathname: string): RouteMatch | undefined {
    const segments = pathname.split("/");
    for (const entry of this.entries) {
      const params = matchSegments(entry.segments, segments);
      if (params !== undefined) return { operation: entry.operation, route: entry.route, params };
    }
    return undefined;
  }
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] ?? "";
    const got = actual[i] ?? "";
    const param = /^\{(\w+)\}$/.exec(want);
    if (param?.[1] !== undefined) {
      if (got === "") return undefined;
      try {
        params[param[1]] = decodeURIComponent(got);
      } catch {
        return undefined;
      }
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}
