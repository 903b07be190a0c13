/**
 * The file-event search of docs/interface.md (forensic search). The interface shows the request only;
 * the response is `FILE_EVENT_SEARCH_RESPONSE { fileEvents, totalCount, problems }` (the shape of
 * src/api/triage/schemas.ts).
 */
import { TRIAGE_OPERATIONS, fileEventSearchRequestSchema, type FileEventFilter, type FileEventSearchRequest } from "../../api/triage/schemas";
import { compareStrings } from "../../shared/text";
import { SimHttpError } from "../http-error";
import { routeDefiner, type RouteTable } from "../routes";
import { MAX_PAGE_SIZE } from "../search";
import type { SimFileEvent } from "./seed";
import type { TriageHost } from "./state";

const defineRoute = routeDefiner<TriageHost>();

type Predicate = (event: SimFileEvent) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `*` matches any run of characters; the whole name must match; case-insensitive. */
export function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "i");
}

/** The terms of the file-event search: fileName (wildcards), filePath (exact, or prefix with a trailing `*`), eventId (exact). */
const TERMS: Record<string, (value: string) => Predicate> = {
  fileName: (value) => {
    const re = wildcard(value);
    return (e) => re.test(e.fileName);
  },
  filePath: (value) => {
    if (value.endsWith("*")) {
      const prefix = value.slice(0, -1).toLowerCase();
      return (e) => e.filePath.toLowerCase().startsWith(prefix);
    }
    return (e) => e.filePath.toLowerCase() === value.toLowerCase();
  },
  eventId: (value) => (e) => e.eventId === value,
};

function compile(filter: FileEventFilter, where: string): Predicate | string {
  const term = Object.hasOwn(TERMS, filter.term) ? TERMS[filter.term] : undefined;
  if (term === undefined) return `${where}.term: unknown term "${filter.term}"; known terms: ${Object.keys(TERMS).join(", ")}`;
  if (filter.operator !== "IS") return `${where}.operator: only IS is supported, not "${filter.operator}"`;
  return term(filter.value);
}

function combine(predicates: Predicate[], clause: "AND" | "OR"): Predicate {
  if (predicates.length === 0) return () => true;
  return clause === "AND" ? (e) => predicates.every((p) => p(e)) : (e) => predicates.some((p) => p(e));
}

/** Filters, sorts (newest eventTimestamp first, then eventId) and pages (pgNum from 1) the file events. */
export function searchFileEvents(events: readonly SimFileEvent[], request: FileEventSearchRequest): { page: SimFileEvent[]; totalCount: number } {
  const problems: string[] = [];
  const groups = request.groups.map((group, g) => {
    const predicates: Predicate[] = [];
    group.filters.forEach((filter, f) => {
      const compiled = compile(filter, `groups[${g}].filters[${f}]`);
      if (typeof compiled === "string") problems.push(compiled);
      else predicates.push(compiled);
    });
    return combine(predicates, group.filterClause);
  });
  if (problems.length > 0) throw new SimHttpError(400, "INVALID_FILTER", problems.join("; "));
  const matches = events.filter(combine(groups, request.groupClause));
  const sorted = [...matches].sort((a, b) => compareStrings(b.eventTimestamp, a.eventTimestamp) || compareStrings(a.eventId, b.eventId));
  const size = Math.min(request.pgSize, MAX_PAGE_SIZE);
  const start = (request.pgNum - 1) * size;
  return { page: sorted.slice(start, start + size), totalCount: matches.length };
}

export const fileEventRoutes: RouteTable = {
  "search-file-events": defineRoute({
    path: TRIAGE_OPERATIONS["search-file-events"],
    write: false,
    body: fileEventSearchRequestSchema,
    handle: ({ body, store }) => {
      const { page, totalCount } = searchFileEvents(store.triage.searchableEvents(), body);
      return {
        body: {
          type$: "FILE_EVENT_SEARCH_RESPONSE",
          fileEvents: page.map((event) => ({ type$: "FILE_EVENT", ...event })),
          totalCount,
          problems: [],
        },
      };
    },
  }),
};
