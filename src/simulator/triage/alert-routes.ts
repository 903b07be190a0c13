/**
 * The five alert operations of docs/interface.md: query-alerts, query-details,
 * query-details-aggregate, add-note and update-state.
 */
import {
  ALERT_STATE_FILTER_VALUES,
  SEVERITY_FILTER_VALUES,
  TRIAGE_OPERATIONS,
  addNoteRequestSchema,
  queryDetailsAggregateRequestSchema,
  queryDetailsRequestSchema,
  updateStateRequestSchema,
  type AlertQueryResponse,
} from "../../api/triage/schemas";
import { ALERT_TERMS } from "../../api/search/operators";
import { searchRequestSchema, type SearchRequest } from "../../api/rules/schemas";
import { SimHttpError } from "../http-error";
import { routeDefiner, type RouteResponse, type RouteTable } from "../routes";
import { search, type SearchSpec } from "../search";
import type { Outcome, TriageHost } from "./state";
import type { SimAlert } from "./seed";

const defineRoute = routeDefiner<TriageHost>();

export const ALERT_NOTE_ADDED = "ALERT_NOTE_ADDED";
export const ALERT_STATE_UPDATED = "ALERT_STATE_UPDATED";

/** The alert terms of docs/interface.md; AlertState compares the filter names Open/Dismissed. */
export const ALERT_SEARCH: SearchSpec<SimAlert> = {
  terms: {
    DateObserved: { operators: ALERT_TERMS.DateObserved, kind: "date", value: (a) => a.createdAt },
    Actor: { operators: ALERT_TERMS.Actor, kind: "text", value: (a) => a.actor },
    Severity: { operators: ALERT_TERMS.Severity, kind: "text", value: (a) => a.severity },
    RuleName: { operators: ALERT_TERMS.RuleName, kind: "text", value: (a) => a.name },
    Description: { operators: ALERT_TERMS.Description, kind: "text", value: (a) => a.description },
    AlertState: { operators: ALERT_TERMS.AlertState, kind: "text", value: (a) => (a.state === "RESOLVED" ? "Dismissed" : "Open") },
    AlertID: { operators: ALERT_TERMS.AlertID, kind: "text", value: (a) => a.id },
  },
  sortKeys: { CreatedAt: (a) => a.createdAt, Actor: (a) => a.actor, RuleName: (a) => a.name },
  tieBreak: (a) => a.id,
};

/** Filter values the service fixes: Severity High/Medium/Low and AlertState Open/Dismissed, in title case. */
function checkValues(request: SearchRequest): string[] {
  const problems: string[] = [];
  const fixed: Record<string, readonly string[]> = { Severity: SEVERITY_FILTER_VALUES, AlertState: ALERT_STATE_FILTER_VALUES };
  request.groups.forEach((group, g) =>
    group.filters.forEach((filter, f) => {
      const allowed = Object.hasOwn(fixed, filter.term) ? fixed[filter.term] : undefined;
      if (allowed !== undefined && !allowed.includes(filter.value)) {
        problems.push(`groups[${g}].filters[${f}].value: ${filter.term} takes ${allowed.join(", ")} (title case), not "${filter.value}"`);
      }
    }),
  );
  return problems;
}

function answer<T>(outcome: Outcome<T>, body: (value: T) => unknown): RouteResponse {
  if (!outcome.ok) throw new SimHttpError(outcome.reason === "NOT_FOUND" ? 404 : 400, outcome.reason, outcome.message);
  return { body: body(outcome.value) };
}

export const alertRoutes: RouteTable = {
  "query-alerts": defineRoute({
    path: TRIAGE_OPERATIONS["query-alerts"],
    write: false,
    body: searchRequestSchema,
    handle: ({ body, store }) => {
      const { triage } = store;
      const valueProblems = checkValues(body);
      const result = search(triage.alerts(), body, ALERT_SEARCH);
      if (!result.ok || valueProblems.length > 0) {
        throw new SimHttpError(400, "INVALID_FILTER", [...(result.ok ? [] : [result.message]), ...valueProblems].join("; "));
      }
      const response: AlertQueryResponse = {
        type$: "ALERT_QUERY_RESPONSE",
        alerts: result.page.map((a) => triage.summary(a)),
        totalCount: result.totalCount,
        problems: [],
      };
      return { body: response };
    },
  }),
  "query-details": defineRoute({
    path: TRIAGE_OPERATIONS["query-details"],
    write: false,
    body: queryDetailsRequestSchema,
    handle: ({ body, store }) => answer(store.triage.details(body.alertIds), (alerts) => ({ type$: "ALERT_DETAILS_RESPONSE", alerts })),
  }),
  "query-details-aggregate": defineRoute({
    path: TRIAGE_OPERATIONS["query-details-aggregate"],
    write: false,
    body: queryDetailsAggregateRequestSchema,
    handle: ({ body, store }) => answer(store.triage.aggregate(body.alertId), (alert) => ({ type$: "ALERT_DETAILS_IN_AGGREGATE_RESPONSE", alert })),
  }),
  "add-note": defineRoute({
    path: TRIAGE_OPERATIONS["add-note"],
    write: true,
    responseType: ALERT_NOTE_ADDED,
    body: addNoteRequestSchema,
    handle: ({ body, store }) => answer(store.triage.setNote(body.alertId, body.note), (alert) => ({ type$: ALERT_NOTE_ADDED, alertId: alert.id })),
  }),
  "update-state": defineRoute({
    path: TRIAGE_OPERATIONS["update-state"],
    write: true,
    responseType: ALERT_STATE_UPDATED,
    body: updateStateRequestSchema,
    handle: ({ body, store }) =>
      answer(store.triage.setState(body.alertIds, body.state, body.note), (alertIds) => ({ type$: ALERT_STATE_UPDATED, alertIds, state: body.state })),
  }),
};
