/**
 * The seed (and data-file) format of the simulator's alerts, cases and file events: the `alerts`,
 * `cases` and `fileEvents` arrays of a tenant seed (src/simulator/seed.ts).
 */
import { z } from "zod";
import { ALERT_STATES, ALERT_TIMESTAMP, CASE_TIMESTAMP, ENDPOINT_OBSERVATION_TYPE } from "../../api/triage/schemas";

const alertTimestamp = z.string().regex(ALERT_TIMESTAMP, "a timestamp like 2026-01-31T09:00:00.0000000Z");
const caseTimestamp = z.string().regex(CASE_TIMESTAMP, "a timestamp like 2026-01-31T09:00:00.000000Z");

/** The placeholder `target` of an alert without one. */
export const NO_TARGET = "N/A";

export const seedObservationSchema = z.object({
  id: z.string().min(1),
  observedAt: alertTimestamp,
  /** @default "FedEndpointExfiltration" */
  type: z.string().default(ENDPOINT_OBSERVATION_TYPE),
  /**
   * The observation's JSON document: an object (serialized into the `data` string when served),
   * or a string served as it is (lets a seed carry malformed data on purpose).
   */
  data: z.union([z.string(), z.record(z.string(), z.unknown())]),
});

export const seedAlertSchema = z.object({
  id: z.string().min(1),
  /** The rule's exposure type, e.g. FED_ENDPOINT_EXFILTRATION. */
  type: z.string(),
  /** The rule's name and description (copied into the alert when it fired). */
  name: z.string(),
  description: z.string(),
  actor: z.string(),
  /** @default "N/A" */
  target: z.string().default(NO_TARGET),
  severity: z.enum(["HIGH", "MEDIUM", "LOW"]),
  ruleId: z.string(),
  ruleSource: z.string(),
  createdAt: alertTimestamp,
  /** @default "OPEN" */
  state: z.enum(ALERT_STATES).default("OPEN"),
  /** The alert's note (add-note replaces it). @default null */
  note: z.string().nullable().default(null),
  observations: z.array(seedObservationSchema).default([]),
});

export const seedCaseSchema = z.object({
  number: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  findings: z.string().nullable().default(null),
  subject: z.string().nullable().default(null),
  subjectUsername: z.string().nullable().default(null),
  assignee: z.string().nullable().default(null),
  assigneeUsername: z.string().nullable().default(null),
  status: z.string().default("OPEN"),
  createdAt: caseTimestamp,
  updatedAt: caseTimestamp,
  createdByUserUid: z.string(),
  lastModifiedByUserUid: z.string(),
  createdByUsername: z.string(),
  lastModifiedByUsername: z.string(),
  /** Event IDs of the file events attached to the case, in the order they were attached. */
  fileEvents: z.array(z.string()).default([]),
});

export const seedFileEventSchema = z.object({
  eventId: z.string().min(1),
  /** @default "CREATED" */
  eventType: z.string().default("CREATED"),
  eventTimestamp: alertTimestamp,
  fileName: z.string().min(1),
  filePath: z.string().min(1),
  fileSize: z.number().int().nonnegative().nullable().default(null),
  fileCategory: z.string().nullable().default(null),
  sha256Checksum: z.string().nullable().default(null),
  deviceUserName: z.string().nullable().default(null),
  osHostName: z.string().nullable().default(null),
});

function unique<T>(key: (item: T) => string | number, what: string) {
  return (items: readonly T[], ctx: z.RefinementCtx): void => {
    const seen = new Map<string | number, number>();
    items.forEach((item, index) => {
      const value = key(item);
      const first = seen.get(value);
      if (first !== undefined) ctx.addIssue({ code: "custom", path: [index], message: `${what} ${String(value)} is already used by [${first}]` });
      else seen.set(value, index);
    });
  };
}

export const seedAlertsSchema = z.array(seedAlertSchema).superRefine(unique((a) => a.id, "alert ID"));
export const seedCasesSchema = z.array(seedCaseSchema).superRefine(unique((c) => c.number, "case number"));
export const seedFileEventsSchema = z.array(seedFileEventSchema).superRefine(unique((e) => e.eventId, "event ID"));

/** The alert, case and file-event lists of a tenant seed (and of the data file); each may be absent. */
export const triageRecordsSchema = z.object({
  alerts: seedAlertsSchema.optional(),
  cases: seedCasesSchema.optional(),
  fileEvents: seedFileEventsSchema.optional(),
});
export type TriageRecords = z.output<typeof triageRecordsSchema>;

/** An alert as the simulator stores it. */
export type SimAlert = z.output<typeof seedAlertSchema>;
export type SimObservation = z.output<typeof seedObservationSchema>;
/** A case as the simulator stores it (the Case object plus the attached event IDs). */
export type SimCase = z.output<typeof seedCaseSchema>;
/** A file event as the simulator stores it. */
export type SimFileEvent = z.output<typeof seedFileEventSchema>;
