/**
 * zod schemas of the alert, case and file-event resources of docs/interface.md, and of their request
 * bodies (the simulator validates what it receives with these).
 *
 * Observation `data` is a JSON document serialized into a string. The response schemas parse it:
 * an OBSERVED_ENDPOINT_ACTIVITY layout is validated field by field; any other layout (rule types
 * whose layout the interface does not show) is kept as `{ kind: "unknown", raw }`. A `data` that
 * is not JSON, or an endpoint-activity layout with wrong fields, fails the response with issues
 * that name the observation and the field.
 *
 * File events: the interface shows the search request but not its response. The shape chosen
 * here (documented in docs/alert-triage.md) is `FILE_EVENT_SEARCH_RESPONSE { fileEvents,
 * totalCount, problems }` with FILE_EVENT records; only `eventId`, `fileName` and `filePath` are
 * required, so a service that sends fewer or more fields is still read.
 */
import { z } from "zod";
import { describeIssue } from "../http/response-errors";

/** Alert timestamps: seven fractional digits and a Z. */
export const ALERT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;
/** Case timestamps: six fractional digits and a Z. */
export const CASE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const alertTimestamp = z.string().regex(ALERT_TIMESTAMP, "a timestamp with seven fractional digits, like 2026-01-31T09:00:00.0000000Z");
const caseTimestamp = z.string().regex(CASE_TIMESTAMP, "a timestamp with six fractional digits, like 2026-01-31T09:00:00.000000Z");

/** Alert states on the wire; the search filter calls them Open and Dismissed. */
export const ALERT_STATES = ["OPEN", "RESOLVED"] as const;
export type AlertState = (typeof ALERT_STATES)[number];
/** The values the AlertState filter takes. */
export const ALERT_STATE_FILTER_VALUES = ["Open", "Dismissed"] as const;
export type AlertStateFilterValue = (typeof ALERT_STATE_FILTER_VALUES)[number];
/** The values the Severity filter takes (responses carry them in upper case). */
export const SEVERITY_FILTER_VALUES = ["High", "Medium", "Low"] as const;
export type SeverityFilterValue = (typeof SEVERITY_FILTER_VALUES)[number];

/** The observation type of endpoint exfiltration rules. */
export const ENDPOINT_OBSERVATION_TYPE = "FedEndpointExfiltration";

// ---------------------------------------------------------------- observation data

export const observedFileCategorySchema = z.object({
  type$: z.literal("OBSERVED_FILE_CATEGORY"),
  category: z.string(),
  fileCount: z.number().int().nonnegative(),
  totalFileSize: z.number().int().nonnegative(),
  isSignificant: z.boolean(),
});
export type ObservedFileCategory = z.infer<typeof observedFileCategorySchema>;

export const observedFileSchema = z.object({
  type$: z.literal("OBSERVED_FILE"),
  eventId: z.string().min(1),
  path: z.string(),
  name: z.string(),
  category: z.string(),
});
export type ObservedFile = z.infer<typeof observedFileSchema>;

/** The JSON inside `data` for endpoint activity (OBSERVED_ENDPOINT_ACTIVITY). */
export const observedEndpointActivitySchema = z.object({
  type$: z.literal("OBSERVED_ENDPOINT_ACTIVITY"),
  id: z.string(),
  sources: z.array(z.string()),
  exposureTypes: z.array(z.string()),
  firstActivityAt: alertTimestamp,
  lastActivityAt: alertTimestamp,
  fileCount: z.number().int().nonnegative(),
  totalFileSize: z.number().int().nonnegative(),
  fileCategories: z.array(observedFileCategorySchema),
  files: z.array(observedFileSchema),
  syncToServices: z.array(z.string()),
  sendingIpAddresses: z.array(z.string()),
  /** Present in the aggregate form. */
  isRemoteActivity: z.boolean().optional(),
});
export type ObservedEndpointActivity = z.infer<typeof observedEndpointActivitySchema>;

/** Parsed observation data: endpoint activity, or another layout kept as raw JSON. */
export type ObservationData =
  | { readonly kind: "endpoint-activity"; readonly activity: ObservedEndpointActivity }
  | { readonly kind: "unknown"; readonly raw: unknown };

function isEndpointLayout(json: unknown, observationType: string): boolean {
  const typeTag = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>)["type$"] : undefined;
  if (typeTag !== undefined) return typeTag === "OBSERVED_ENDPOINT_ACTIVITY";
  return observationType === ENDPOINT_OBSERVATION_TYPE;
}

/**
 * Parses the `data` string of an observation. Endpoint activity is recognised by its `type$`, or
 * (without one) by the observation type FedEndpointExfiltration. Issues are added to `ctx` under
 * `data`, naming the observation by its ID when it has one.
 */
function parseObservationData(
  data: string,
  observationType: string,
  label: string,
  ctx: z.RefinementCtx,
): ObservationData | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    ctx.addIssue({
      code: "custom",
      path: ["data"],
      message: `${label}: data is not a JSON document (${(error as Error).message})`,
    });
    return undefined;
  }
  if (!isEndpointLayout(json, observationType)) return { kind: "unknown", raw: json };
  const parsed = observedEndpointActivitySchema.safeParse(json);
  if (parsed.success) return { kind: "endpoint-activity", activity: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
    ctx.addIssue({
      code: "custom",
      // The path stops at `data` (a string in the received body); the message names the field inside.
      path: ["data"],
      message: `${label}: endpoint activity field data${field}: ${describeIssue(issue, json)}`,
    });
  }
  return undefined;
}

const observationWireSchema = z.object({
  type$: z.literal("OBSERVATION"),
  id: z.string(),
  observedAt: alertTimestamp,
  type: z.string(),
  data: z.string(),
});

/** An observation with its `data` parsed. */
export const observationSchema = observationWireSchema.transform((observation, ctx) => {
  const data = parseObservationData(observation.data, observation.type, `observation ${observation.id}`, ctx);
  if (data === undefined) return z.NEVER;
  return { ...observation, data };
});
export type Observation = z.output<typeof observationSchema>;
export type ObservationWire = z.infer<typeof observationWireSchema>;

const observationAggregateWireSchema = z.object({
  type$: z.literal("OBSERVATION_AGGREGATE"),
  observedAt: alertTimestamp,
  type: z.string(),
  data: z.string(),
});

/** The aggregate observation (no `id`) with its `data` parsed. */
export const observationAggregateSchema = observationAggregateWireSchema.transform((observation, ctx) => {
  const data = parseObservationData(observation.data, observation.type, "aggregate observation", ctx);
  if (data === undefined) return z.NEVER;
  return { ...observation, data };
});
export type ObservationAggregate = z.output<typeof observationAggregateSchema>;

// ---------------------------------------------------------------- alerts

const alertFields = {
  tenantId: z.string(),
  type: z.string(),
  name: z.string(),
  description: z.string(),
  actor: z.string(),
  target: z.string(),
  severity: z.string(),
  ruleId: z.string(),
  ruleSource: z.string(),
  id: z.string(),
  createdAt: alertTimestamp,
  state: z.enum(ALERT_STATES),
  /**
   * The note add-note (or update-state) set, when the service returns it: docs/interface.md does not
   * show it in the alert objects; the simulator serves it (null when none). Kept, not stripped,
   * so `alerts show` and `alerts search` can show it.
   */
  note: z.string().nullable().optional(),
};

export const alertSummarySchema = z.object({ type$: z.literal("ALERT_SUMMARY"), ...alertFields });
export type AlertSummary = z.infer<typeof alertSummarySchema>;

export const alertDetailsSchema = z.object({
  type$: z.literal("ALERT_DETAILS"),
  ...alertFields,
  observations: z.array(observationSchema),
});
export type AlertDetails = z.output<typeof alertDetailsSchema>;

export const alertDetailsAggregateSchema = z.object({
  type$: z.literal("ALERT_DETAILS_AGGREGATE"),
  ...alertFields,
  observation: observationAggregateSchema,
});
export type AlertDetailsAggregate = z.output<typeof alertDetailsAggregateSchema>;

export const alertQueryResponseSchema = z.object({
  type$: z.literal("ALERT_QUERY_RESPONSE"),
  alerts: z.array(alertSummarySchema),
  totalCount: z.number().int().nonnegative(),
  problems: z.array(z.unknown()),
});
export type AlertQueryResponse = z.infer<typeof alertQueryResponseSchema>;

export const alertDetailsResponseSchema = z.object({
  type$: z.literal("ALERT_DETAILS_RESPONSE"),
  alerts: z.array(alertDetailsSchema),
});
export type AlertDetailsResponse = z.output<typeof alertDetailsResponseSchema>;

export const alertDetailsInAggregateResponseSchema = z.object({
  type$: z.literal("ALERT_DETAILS_IN_AGGREGATE_RESPONSE"),
  alert: alertDetailsAggregateSchema,
});
export type AlertDetailsInAggregateResponse = z.output<typeof alertDetailsInAggregateResponseSchema>;

// ---------------------------------------------------------------- cases

/** A case (docs/interface.md "Case"). The table shows no `type$`; one is accepted when present. */
export const caseSchema = z.object({
  type$: z.string().optional(),
  number: z.number().int().positive(),
  name: z.string(),
  description: z.string().nullable(),
  findings: z.string().nullable(),
  subject: z.string().nullable(),
  subjectUsername: z.string().nullable(),
  assignee: z.string().nullable(),
  assigneeUsername: z.string().nullable(),
  status: z.string(),
  createdAt: caseTimestamp,
  updatedAt: caseTimestamp,
  createdByUserUid: z.string(),
  lastModifiedByUserUid: z.string(),
  createdByUsername: z.string(),
  lastModifiedByUsername: z.string(),
});
export type Case = z.infer<typeof caseSchema>;

// ---------------------------------------------------------------- file events

/**
 * A file event as returned by the file-event search (shape chosen here; see the module comment).
 * `eventId` is the ID observed files carry and the case file-event operation takes.
 */
export const fileEventSchema = z.object({
  type$: z.string().optional(),
  eventId: z.string().min(1),
  fileName: z.string(),
  filePath: z.string(),
  eventType: z.string().optional(),
  eventTimestamp: z.string().optional(),
  fileSize: z.number().int().nonnegative().nullable().optional(),
  fileCategory: z.string().nullable().optional(),
  sha256Checksum: z.string().nullable().optional(),
  deviceUserName: z.string().nullable().optional(),
  osHostName: z.string().nullable().optional(),
});
export type FileEvent = z.infer<typeof fileEventSchema>;

export const fileEventSearchResponseSchema = z.object({
  type$: z.string().optional(),
  fileEvents: z.array(fileEventSchema),
  totalCount: z.number().int().nonnegative(),
  problems: z.array(z.unknown()).optional(),
});
export type FileEventSearchResponse = z.infer<typeof fileEventSearchResponseSchema>;

// ---------------------------------------------------------------- request bodies

export const queryDetailsRequestSchema = z.object({ alertIds: z.array(z.string().min(1)).min(1, "at least one alert ID") });
export const queryDetailsAggregateRequestSchema = z.object({ alertId: z.string().min(1) });
export const addNoteRequestSchema = z.object({ tenantId: z.string(), alertId: z.string().min(1), note: z.string() });
export const updateStateRequestSchema = z.object({
  tenantId: z.string(),
  alertIds: z.array(z.string().min(1)).min(1, "at least one alert ID"),
  state: z.enum(ALERT_STATES),
  note: z.string().optional(),
});
export const createCaseRequestSchema = z.object({
  name: z.string().trim().min(1, "a case needs a name"),
  description: z.string().nullable().optional(),
  findings: z.string().nullable().optional(),
  subject: z.string().nullable().optional(),
  assignee: z.string().nullable().optional(),
});
export const fileEventFilterSchema = z.object({ operator: z.string(), term: z.string(), value: z.string() });
export const fileEventSearchRequestSchema = z.object({
  groups: z.array(z.object({ filters: z.array(fileEventFilterSchema), filterClause: z.enum(["AND", "OR"]) })),
  groupClause: z.enum(["AND", "OR"]),
  pgNum: z.number().int().min(1, "pages are numbered from 1"),
  pgSize: z.number().int().min(1),
});

export type QueryDetailsRequest = z.infer<typeof queryDetailsRequestSchema>;
export type QueryDetailsAggregateRequest = z.infer<typeof queryDetailsAggregateRequestSchema>;
export type AddNoteRequest = z.infer<typeof addNoteRequestSchema>;
export type UpdateStateRequest = z.infer<typeof updateStateRequestSchema>;
export type CreateCaseRequest = z.infer<typeof createCaseRequestSchema>;
export type FileEventFilter = z.infer<typeof fileEventFilterSchema>;
export type FileEventSearchRequest = z.infer<typeof fileEventSearchRequestSchema>;

/** Paths of the alert, case and file-event operations, by operation name. */
export const TRIAGE_OPERATIONS = {
  "query-alerts": "/v1/alerts/query-alerts",
  "query-details": "/v1/alerts/query-details",
  "query-details-aggregate": "/v1/alerts/query-details-aggregate",
  "add-note": "/v1/alerts/add-note",
  "update-state": "/v1/alerts/update-state",
  "create-case": "/v1/cases",
  "add-case-file-event": "/v1/cases/{caseNumber}/fileevent/{eventId}",
  "search-file-events": "/v1/file-events",
} as const;
export type TriageOperation = keyof typeof TRIAGE_OPERATIONS;
