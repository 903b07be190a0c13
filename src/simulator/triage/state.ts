/**
 * The simulator's alerts, cases and file events: pure in-memory state with no HTTP, owned by the
 * tenant store (`store.triage`), persisted and reloaded with the rules. Write methods return an
 * outcome value; the route tables map refusals to status codes. Nothing handed out aliases the
 * internal state.
 */
import type {
  AlertDetails,
  AlertState,
  AlertSummary,
  Case,
  ObservedEndpointActivity,
  ObservedFile,
  ObservedFileCategory,
} from "../../api/triage/schemas";
import { ENDPOINT_OBSERVATION_TYPE } from "../../api/triage/schemas";
import { SIMULATOR_API_USER, SIMULATOR_API_USER_UID } from "../api-user";
import type { SimAlert, SimCase, SimFileEvent, SimObservation, TriageRecords } from "./seed";

export type { TriageRecords } from "./seed";

/** What the triage route tables answer from: the tenant store's triage state. */
export interface TriageHost {
  readonly triage: TriageState;
}

/** What the triage state needs from the tenant it belongs to. */
export interface TriageContext {
  readonly tenantId: string;
  readonly now: () => Date;
  /** The first alias of the user bag with this UID in any rule, or null. */
  readonly usernameOf: (uid: string) => string | null;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: "NOT_FOUND" | "INVALID_REQUEST"; message: string };

/** A wire observation (with `data` as a JSON string) of an alert. */
export interface WireObservation {
  type$: "OBSERVATION";
  id: string;
  observedAt: string;
  type: string;
  data: string;
}

export interface WireObservationAggregate {
  type$: "OBSERVATION_AGGREGATE";
  observedAt: string;
  type: string;
  data: string;
}

/** Case timestamps: six fractional digits and a Z. */
export function formatCaseTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

function serialize(data: SimObservation["data"]): string {
  return typeof data === "string" ? data : JSON.stringify(data);
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

/** The public case object of a stored case (without the attached event IDs). */
export function caseObject(record: SimCase): Case {
  const { fileEvents: _attached, ...rest } = record;
  void _attached;
  return { ...rest };
}

export class TriageState {
  private readonly alertList: SimAlert[];
  private readonly caseList: SimCase[];
  private readonly eventList: SimFileEvent[];
  /** The lists the seed had: written back even when empty (see `snapshot`). */
  private readonly seeded: ReadonlySet<keyof TriageRecords>;

  /** Keeps deep copies of the records. */
  constructor(
    records: TriageRecords,
    private readonly context: TriageContext,
  ) {
    this.alertList = structuredClone(records.alerts ?? []);
    this.caseList = structuredClone(records.cases ?? []);
    this.eventList = structuredClone(records.fileEvents ?? []);
    this.seeded = new Set((["alerts", "cases", "fileEvents"] as const).filter((key) => records[key] !== undefined));
  }

  /**
   * The records in the seed format (deep copies), for persistence: each list the seed had, and
   * each list that has records now.
   */
  snapshot(): TriageRecords {
    const lists = { alerts: this.alertList, cases: this.caseList, fileEvents: this.eventList };
    const written = (key: keyof TriageRecords): boolean => this.seeded.has(key) || lists[key].length > 0;
    return structuredClone({
      ...(written("alerts") ? { alerts: lists.alerts } : {}),
      ...(written("cases") ? { cases: lists.cases } : {}),
      ...(written("fileEvents") ? { fileEvents: lists.fileEvents } : {}),
    });
  }

  /** Every alert (deep copies), in seed order. */
  alerts(): SimAlert[] {
    return this.alertList.map(copy);
  }

  alert(id: string): SimAlert | undefined {
    const found = this.alertList.find((a) => a.id === id);
    return found === undefined ? undefined : copy(found);
  }

  cases(): SimCase[] {
    return this.caseList.map(copy);
  }

  fileEvents(): SimFileEvent[] {
    return this.eventList.map(copy);
  }

  summary(alert: SimAlert): AlertSummary {
    return {
      type$: "ALERT_SUMMARY",
      tenantId: this.context.tenantId,
      type: alert.type,
      name: alert.name,
      description: alert.description,
      actor: alert.actor,
      target: alert.target,
      severity: alert.severity,
      ruleId: alert.ruleId,
      ruleSource: alert.ruleSource,
      id: alert.id,
      createdAt: alert.createdAt,
      state: alert.state,
      note: alert.note,
    };
  }

  /** The alerts with these IDs in the order asked, or NOT_FOUND naming every unknown ID. */
  find(ids: readonly string[]): Outcome<SimAlert[]> {
    const found: SimAlert[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const alert = this.alertList.find((a) => a.id === id);
      if (alert === undefined) missing.push(id);
      else found.push(alert);
    }
    if (missing.length > 0) return notFound(`No alert with ID ${missing.map((id) => `"${id}"`).join(", ")} in this tenant.`);
    return { ok: true, value: found };
  }

  /** ALERT_DETAILS of the alerts (observations' data as JSON strings), or NOT_FOUND. */
  details(ids: readonly string[]): Outcome<Array<Omit<AlertDetails, "observations"> & { observations: WireObservation[] }>> {
    const found = this.find([...new Set(ids)]);
    if (!found.ok) return found;
    return {
      ok: true,
      value: found.value.map((alert) => ({
        ...this.summary(alert),
        type$: "ALERT_DETAILS" as const,
        observations: alert.observations.map((o) => ({ type$: "OBSERVATION" as const, id: o.id, observedAt: o.observedAt, type: o.type, data: serialize(o.data) })),
      })),
    };
  }

  /** ALERT_DETAILS_AGGREGATE of one alert: its observations merged into one, or NOT_FOUND. */
  aggregate(id: string): Outcome<Omit<AlertSummary, "type$"> & { type$: "ALERT_DETAILS_AGGREGATE"; observation: WireObservationAggregate }> {
    const found = this.find([id]);
    if (!found.ok) return found;
    const [alert] = found.value;
    if (alert === undefined) return notFound(`No alert with ID "${id}" in this tenant.`);
    return { ok: true, value: { ...this.summary(alert), type$: "ALERT_DETAILS_AGGREGATE", observation: mergeObservations(alert) } };
  }

  /** Sets the note of an alert, replacing the previous one. */
  setNote(id: string, note: string): Outcome<SimAlert> {
    const alert = this.alertList.find((a) => a.id === id);
    if (alert === undefined) return notFound(`No alert with ID "${id}" in this tenant.`);
    alert.note = note;
    return { ok: true, value: copy(alert) };
  }

  /** Sets the state (and the note, when given) of every listed alert; nothing changes if one is unknown. */
  setState(ids: readonly string[], state: AlertState, note: string | undefined): Outcome<string[]> {
    const found = this.find(ids);
    if (!found.ok) return found;
    for (const alert of found.value) {
      alert.state = state;
      if (note !== undefined) alert.note = note;
    }
    return { ok: true, value: found.value.map((a) => a.id) };
  }

  /** Creates a case, status OPEN, numbered one above the highest number so far. */
  createCase(input: { name: string; description?: string | null | undefined; findings?: string | null | undefined; subject?: string | null | undefined; assignee?: string | null | undefined }): Case {
    const number = this.caseList.reduce((max, c) => Math.max(max, c.number), 0) + 1;
    const at = formatCaseTimestamp(this.context.now());
    const subject = input.subject ?? null;
    const assignee = input.assignee ?? null;
    const record: SimCase = {
      number,
      name: input.name,
      description: input.description ?? null,
      findings: input.findings ?? null,
      subject,
      subjectUsername: subject === null ? null : this.context.usernameOf(subject),
      assignee,
      assigneeUsername: assignee === null ? null : this.context.usernameOf(assignee),
      status: "OPEN",
      createdAt: at,
      updatedAt: at,
      createdByUserUid: SIMULATOR_API_USER_UID,
      lastModifiedByUserUid: SIMULATOR_API_USER_UID,
      createdByUsername: SIMULATOR_API_USER,
      lastModifiedByUsername: SIMULATOR_API_USER,
      fileEvents: [],
    };
    this.caseList.push(record);
    return caseObject(record);
  }

  /**
   * Attaches a file event to a case. Attaching an event that is already attached changes nothing
   * (`added: false`); otherwise the case's updatedAt is set to now.
   */
  attach(caseNumber: number, eventId: string): Outcome<{ caseNumber: number; eventId: string; added: boolean }> {
    const record = this.caseList.find((c) => c.number === caseNumber);
    if (record === undefined) return notFound(`No case number ${caseNumber} in this tenant.`);
    if (!this.eventList.some((e) => e.eventId === eventId)) return notFound(`No file event with ID "${eventId}" in this tenant.`);
    if (record.fileEvents.includes(eventId)) return { ok: true, value: { caseNumber, eventId, added: false } };
    record.fileEvents.push(eventId);
    record.updatedAt = formatCaseTimestamp(this.context.now());
    record.lastModifiedByUserUid = SIMULATOR_API_USER_UID;
    record.lastModifiedByUsername = SIMULATOR_API_USER;
    return { ok: true, value: { caseNumber, eventId, added: true } };
  }

  /** Every file event (internal references, for searching only). */
  searchableEvents(): readonly SimFileEvent[] {
    return this.eventList;
  }
}

function notFound(message: string): { ok: false; reason: "NOT_FOUND"; message: string } {
  return { ok: false, reason: "NOT_FOUND", message };
}

function asActivity(data: SimObservation["data"]): Partial<ObservedEndpointActivity> | undefined {
  const json: unknown = typeof data === "string" ? tryParse(data) : data;
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  return record["type$"] === "OBSERVED_ENDPOINT_ACTIVITY" ? record : undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function union(into: string[], values: readonly string[] | undefined): void {
  for (const value of values ?? []) if (!into.includes(value)) into.push(value);
}

/**
 * Merges an alert's observations into one OBSERVATION_AGGREGATE: when every observation is
 * endpoint activity, one activity with the union of sources, exposure types, services and
 * addresses, the earliest first and latest last activity, summed counts and sizes, categories
 * merged by name, files once each by eventId, and isRemoteActivity. Otherwise the first
 * observation's data is passed on as it is. observedAt is the latest observation's.
 */
export function mergeObservations(alert: SimAlert): WireObservationAggregate {
  const observations = alert.observations;
  const observedAt = observations.reduce((latest, o) => (o.observedAt > latest ? o.observedAt : latest), observations[0]?.observedAt ?? alert.createdAt);
  const type = observations[0]?.type ?? ENDPOINT_OBSERVATION_TYPE;
  const activities = observations.map((o) => asActivity(o.data));
  const first = observations[0];
  if (first !== undefined && activities.some((a) => a === undefined)) {
    return { type$: "OBSERVATION_AGGREGATE", observedAt, type, data: serialize(first.data) };
  }
  const merged: ObservedEndpointActivity = {
    type$: "OBSERVED_ENDPOINT_ACTIVITY",
    id: `${alert.id}-aggregate`,
    sources: [],
    exposureTypes: [],
    firstActivityAt: alert.createdAt,
    lastActivityAt: alert.createdAt,
    fileCount: 0,
    totalFileSize: 0,
    fileCategories: [],
    files: [],
    syncToServices: [],
    sendingIpAddresses: [],
    isRemoteActivity: false,
  };
  const categories = new Map<string, ObservedFileCategory>();
  const files = new Map<string, ObservedFile>();
  activities.forEach((activity, index) => {
    if (activity === undefined) return;
    union(merged.sources, activity.sources);
    union(merged.exposureTypes, activity.exposureTypes);
    union(merged.syncToServices, activity.syncToServices);
    union(merged.sendingIpAddresses, activity.sendingIpAddresses);
    if (activity.firstActivityAt !== undefined && (index === 0 || activity.firstActivityAt < merged.firstActivityAt)) merged.firstActivityAt = activity.firstActivityAt;
    if (activity.lastActivityAt !== undefined && (index === 0 || activity.lastActivityAt > merged.lastActivityAt)) merged.lastActivityAt = activity.lastActivityAt;
    merged.fileCount += activity.fileCount ?? 0;
    merged.totalFileSize += activity.totalFileSize ?? 0;
    merged.isRemoteActivity = merged.isRemoteActivity === true || activity.isRemoteActivity === true;
    for (const category of activity.fileCategories ?? []) {
      const existing = categories.get(category.category);
      if (existing === undefined) categories.set(category.category, { ...category });
      else {
        existing.fileCount += category.fileCount;
        existing.totalFileSize += category.totalFileSize;
        existing.isSignificant = existing.isSignificant || category.isSignificant;
      }
    }
    for (const file of activity.files ?? []) if (!files.has(file.eventId)) files.set(file.eventId, { ...file });
  });
  merged.fileCategories = [...categories.values()];
  merged.files = [...files.values()];
  return { type$: "OBSERVATION_AGGREGATE", observedAt, type, data: JSON.stringify(merged) };
}
