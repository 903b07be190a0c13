/**
 * The case operations of docs/interface.md: create a case, and attach a file event to it.
 */
import { TRIAGE_OPERATIONS, createCaseRequestSchema } from "../../api/triage/schemas";
import { SimHttpError } from "../http-error";
import { routeDefiner, type RouteTable } from "../routes";
import type { TriageHost } from "./state";

const defineRoute = routeDefiner<TriageHost>();

export const CASE_FILE_EVENT_ADDED = "CASE_FILE_EVENT_ADDED";

export const caseRoutes: RouteTable = {
  "create-case": defineRoute({
    path: TRIAGE_OPERATIONS["create-case"],
    write: true,
    responseType: "CASE",
    body: createCaseRequestSchema,
    handle: ({ body, store }) => ({ body: store.triage.createCase(body) }),
  }),
  "add-case-file-event": defineRoute({
    path: TRIAGE_OPERATIONS["add-case-file-event"],
    write: true,
    responseType: CASE_FILE_EVENT_ADDED,
    body: "none",
    handle: ({ params, store }) => {
      const rawNumber = params["caseNumber"] ?? "";
      const caseNumber = /^\d+$/.test(rawNumber) ? Number(rawNumber) : NaN;
      if (!Number.isSafeInteger(caseNumber) || caseNumber < 1) {
        throw new SimHttpError(400, "INVALID_REQUEST", `Invalid case number "${rawNumber}": a case number is a whole number of 1 or more.`);
      }
      const eventId = params["eventId"] ?? "";
      const outcome = store.triage.attach(caseNumber, eventId);
      if (!outcome.ok) throw new SimHttpError(outcome.reason === "NOT_FOUND" ? 404 : 400, outcome.reason, outcome.message);
      return { body: { type$: CASE_FILE_EVENT_ADDED, ...outcome.value } };
    },
  }),
};
