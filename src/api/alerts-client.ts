/**
 * The typed client of the alert, case and file-event operations of interface.md, on the same
 * {@link HttpTransport} as the rule client (retries, redaction, counting, zod at the boundary).
 *
 * Retries: every operation here is safe to repeat (searches, a note that replaces the previous
 * one, setting a state, attaching a file event twice) except case creation, which is sent with
 * `idempotent: false`: it is never repeated once the request may have reached the service.
 *
 * Accept: text/plain for the alert searches and reads, application/json for the operations that
 * change data and for the file-event search (interface.md names only alerts, rule metadata and
 * rule users as text/plain).
 */
import { InvalidArgumentError } from "../errors";
import {
  ALERT_STATE_FILTER_VALUES,
  SEVERITY_FILTER_VALUES,
  TRIAGE_OPERATIONS,
  alertDetailsInAggregateResponseSchema,
  alertDetailsResponseSchema,
  alertQueryResponseSchema,
  caseSchema,
  fileEventSearchResponseSchema,
  type AddNoteRequest,
  type AlertDetails,
  type AlertDetailsAggregate,
  type AlertQueryResponse,
  type AlertState,
  type AlertSummary,
  type Case,
  type CreateCaseRequest,
  type FileEventFilter,
  type FileEventSearchRequest,
  type FileEventSearchResponse,
  type ObservationData,
  type UpdateStateRequest,
} from "./alert-schemas";
import type { RuleListClient } from "./client";
import { ApiError } from "./errors";
import { filter as buildFilter, group, searchRequest, type Clause } from "./filters";
import { ALERT_TERMS, operatorToken } from "./operators";
import type { Filter, FilterGroup } from "./schemas";
import type { HttpTransport } from "./transport";

/** The interface's page size for query-alerts. */
export const DEFAULT_ALERT_PAGE_SIZE = 20;
/** The interface's page size for the file-event search. */
export const DEFAULT_FILE_EVENT_PAGE_SIZE = 100;
/** The longest event ID accepted before any request (the interface gives no limit). */
export const MAX_EVENT_ID_LENGTH = 256;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface AlertQueryOptions {
  /** How groups combine. @default "OR" */
  readonly groupClause?: Clause | undefined;
  /** @default 20 (the interface's value) */
  readonly pageSize?: number | undefined;
  /** Zero-based. @default 0 */
  readonly pageNumber?: number | undefined;
  /** @default "CreatedAt" */
  readonly sortKey?: string | undefined;
  /** @default "DESC" */
  readonly sortDirection?: "ASC" | "DESC" | undefined;
}

export interface AllAlertsOptions extends Omit<AlertQueryOptions, "pageNumber"> {
  /** @default 100 */
  readonly pageSize?: number | undefined;
}

/** The common criteria of `alerts search`, combined with AND into one group. */
export interface AlertCriteria {
  /** Actor Is (exact username or cloud alias, case-insensitive on the simulator). */
  readonly actor?: string | undefined;
  /** Severity Is: High, Medium or Low (any case; sent in title case). */
  readonly severity?: string | undefined;
  /** AlertState Is: Open or Dismissed (any case; sent in title case). */
  readonly state?: string | undefined;
  /** RuleName Is. */
  readonly ruleName?: string | undefined;
  /** DateObserved On or after, yyyy-MM-dd. */
  readonly since?: string | undefined;
  /** DateObserved On or before, yyyy-MM-dd. */
  readonly until?: string | undefined;
  /** More filters (already built, e.g. with parseAlertFilter). */
  readonly filters?: readonly Filter[] | undefined;
}

export interface CreateCaseInput {
  /** Required, non-empty. */
  readonly name: string;
  /** @default - null */
  readonly description?: string | null | undefined;
  /** @default - null */
  readonly findings?: string | null | undefined;
  /** User UID of the subject. @default - null */
  readonly subject?: string | null | undefined;
  /** User UID of the assignee. @default - null */
  readonly assignee?: string | null | undefined;
}

export interface FileEventSearchInput {
  /** fileName IS pattern; `*` is a wildcard (e.g. `*.xlsx`). */
  readonly fileName?: string | undefined;
  /** filePath IS value; a trailing `*` matches everything under the prefix. */
  readonly filePath?: string | undefined;
  /** One-based. @default 1 */
  readonly pgNum?: number | undefined;
  /** @default 100 */
  readonly pgSize?: number | undefined;
}

/**
 * An alert filter: the term and operator checked against ALERT_TERMS (operators in words or as
 * wire tokens), and the value checked where the interface fixes it (Severity High/Medium/Low,
 * AlertState Open/Dismissed, both normalized to title case; DateObserved yyyy-MM-dd; AlertID
 * non-empty). Throws InvalidArgumentError.
 */
export function alertFilter(term: string, operator: string, value: string): Filter {
  const built = buildFilter(term, operator, value, { terms: ALERT_TERMS });
  return { ...built, value: checkAlertValue(built.term, value) };
}

/** Parses `"TERM OPERATOR VALUE"` (`"DateObserved On or after 2026-01-01"`) into a checked alert filter. */
export function parseAlertFilter(text: string): Filter {
  const words = text.trim().split(/\s+/);
  const [term, ...rest] = words;
  if (term === undefined || term === "" || rest.length < 2) {
    throw new InvalidArgumentError(`Cannot read the filter '${text}': expected "TERM OPERATOR VALUE", e.g. "Actor Contains alice".`);
  }
  // The longest operator first: "Is not" before "Is", "On or after" before "On".
  for (let length = Math.min(3, rest.length - 1); length >= 1; length -= 1) {
    const operator = rest.slice(0, length).join(" ");
    if (operatorToken(operator) !== undefined) {
      // Keep the value as typed (inner spacing included): cut after term and operator words.
      const value = text.trim().replace(new RegExp(`^\\S+(\\s+\\S+){${length}}\\s+`), "");
      return alertFilter(term, operator, value);
    }
  }
  throw new InvalidArgumentError(
    `Cannot read the filter '${text}': no operator after '${term}'. Operators: Is, Is not, Contains, Does not contain, On, On or after, On or before.`,
  );
}

function titleCase<T extends string>(term: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined) throw new InvalidArgumentError(`The ${term} filter takes ${allowed.join(", ")}; got '${value}'.`);
  return found;
}

function checkAlertValue(term: string, value: string): string {
  switch (term) {
    case "Severity":
      return titleCase(term, value, SEVERITY_FILTER_VALUES);
    case "AlertState":
      return titleCase(term, value, ALERT_STATE_FILTER_VALUES);
    case "DateObserved":
      return checkDate(term, value);
    default:
      if (value.trim() === "") throw new InvalidArgumentError(`The ${term} filter needs a value.`);
      return value;
  }
}

/** A real calendar date yyyy-MM-dd, else InvalidArgumentError naming `what`. */
export function checkDate(what: string, value: string): string {
  const trimmed = value.trim();
  const parsed = new Date(`${trimmed}T00:00:00Z`);
  if (!DATE.test(trimmed) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== trimmed) {
    throw new InvalidArgumentError(`${what} takes a date yyyy-MM-dd, got '${value}'.`);
  }
  return trimmed;
}

/** The filters of `criteria`, in one AND group (no group at all when there is no criterion). */
export function alertCriteriaGroups(criteria: AlertCriteria): FilterGroup[] {
  const filters: Filter[] = [];
  if (criteria.actor !== undefined) filters.push(alertFilter("Actor", "Is", criteria.actor));
  if (criteria.severity !== undefined) filters.push(alertFilter("Severity", "Is", criteria.severity));
  if (criteria.state !== undefined) filters.push(alertFilter("AlertState", "Is", criteria.state));
  if (criteria.ruleName !== undefined) filters.push(alertFilter("RuleName", "Is", criteria.ruleName));
  if (criteria.since !== undefined) filters.push(alertFilter("DateObserved", "On or after", criteria.since));
  if (criteria.until !== undefined) filters.push(alertFilter("DateObserved", "On or before", criteria.until));
  filters.push(...(criteria.filters ?? []));
  return filters.length === 0 ? [] : [group(filters, "AND")];
}

/** The file-event IDs named by an alert's observations (endpoint activity), once each, in order. */
export function eventIdsOf(alert: AlertDetails | AlertDetailsAggregate): string[] {
  const data: ObservationData[] = "observations" in alert ? alert.observations.map((o) => o.data) : [alert.observation.data];
  const ids: string[] = [];
  for (const item of data) {
    if (item.kind !== "endpoint-activity") continue;
    for (const file of item.activity.files) if (!ids.includes(file.eventId)) ids.push(file.eventId);
  }
  return ids;
}

/** The JSON document inside an observation's `data`, as the service sent it (parsed). */
export function observationDataJson(data: ObservationData): unknown {
  return data.kind === "endpoint-activity" ? data.activity : data.raw;
}

/** Checks a case number (a positive whole number, or its decimal string); InvalidArgumentError otherwise. */
export function checkCaseNumber(caseNumber: number | string): number {
  const n = typeof caseNumber === "number" ? caseNumber : /^\s*\d+\s*$/.test(caseNumber) ? Number(caseNumber) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError(`Invalid case number '${String(caseNumber)}': a case number is a whole number of 1 or more.`);
  }
  return n;
}

/** Checks a file event ID: non-empty, no whitespace or '/', at most 256 characters. */
export function checkEventId(eventId: string): string {
  const problem =
    eventId === ""
      ? "it is empty"
      : /\s/.test(eventId)
        ? "it contains whitespace"
        : eventId.includes("/")
          ? "it contains '/'"
          : eventId.length > MAX_EVENT_ID_LENGTH
            ? `it is longer than ${MAX_EVENT_ID_LENGTH} characters`
            : undefined;
  if (problem !== undefined) {
    const shown = eventId.length > 40 ? `${eventId.slice(0, 40)}...` : eventId;
    throw new InvalidArgumentError(`Invalid file event ID '${shown}': ${problem}. Use the eventId of an observed file or of a file-event search result.`);
  }
  return eventId;
}

function checkIds(what: string, ids: readonly string[]): string[] {
  if (ids.length === 0) throw new InvalidArgumentError(`${what}: give at least one alert ID.`);
  const bad = ids.filter((id) => id.trim() === "");
  if (bad.length > 0) throw new InvalidArgumentError(`${what}: an alert ID must not be empty.`);
  return [...ids];
}

function checkAlertGroups(groups: readonly FilterGroup[]): FilterGroup[] {
  // Re-checks what callers built by hand, so a bad term never reaches the service.
  return groups.map((g) => group(g.filters.map((f) => alertFilter(f.term, f.operator, f.value)), g.filterClause));
}

/**
 * The alert triage operations of one tenant. Build it from a rule client
 * (`TriageClient.from(client)`) to share its transport, counter and settings.
 */
export class TriageClient {
  readonly transport: HttpTransport;
  readonly tenantId: string;

  constructor(transport: HttpTransport, tenantId: string) {
    this.transport = transport;
    this.tenantId = tenantId;
  }

  static from(client: RuleListClient): TriageClient {
    return new TriageClient(client.transport, client.tenantId);
  }

  /**
   * One page of query-alerts. Every filter is checked against ALERT_TERMS before anything is sent;
   * a non-empty `problems` array is reported as an ApiError.
   */
  async queryAlerts(groups: readonly FilterGroup[], options: AlertQueryOptions = {}): Promise<AlertQueryResponse> {
    const body = searchRequest(this.tenantId, checkAlertGroups(groups), {
      groupClause: options.groupClause,
      pgSize: options.pageSize ?? DEFAULT_ALERT_PAGE_SIZE,
      pgNum: options.pageNumber,
      srtKey: options.sortKey,
      srtDirection: options.sortDirection,
    });
    const operation = "query-alerts";
    const response = await this.transport.post(operation, TRIAGE_OPERATIONS[operation], body, alertQueryResponseSchema, {
      accept: "text/plain",
      idempotent: true,
    });
    if (response.problems.length > 0) throw problemsError(operation, response.problems);
    return response;
  }

  /**
   * Every alert matching the groups: reads pages until `totalCount` alerts are read, or a page is
   * short, empty or brings nothing new. Alerts are returned once each (by `id`), in page order.
   */
  async queryAllAlerts(groups: readonly FilterGroup[], options: AllAlertsOptions = {}): Promise<{ alerts: AlertSummary[]; totalCount: number }> {
    const pageSize = options.pageSize ?? 100;
    const byId = new Map<string, AlertSummary>();
    let totalCount = 0;
    for (let pageNumber = 0; ; pageNumber += 1) {
      const page = await this.queryAlerts(groups, { ...options, pageSize, pageNumber });
      totalCount = page.totalCount;
      let added = 0;
      for (const alert of page.alerts) {
        if (byId.has(alert.id)) continue;
        byId.set(alert.id, alert);
        added += 1;
      }
      if (byId.size >= page.totalCount || page.alerts.length < pageSize || added === 0) {
        return { alerts: [...byId.values()], totalCount: Math.max(totalCount, byId.size) };
      }
    }
  }

  /** Full details of alerts, one observation per activity, `data` parsed. */
  async queryDetails(alertIds: readonly string[]): Promise<AlertDetails[]> {
    const body = { alertIds: checkIds("query-details", alertIds) };
    const response = await this.transport.post("query-details", TRIAGE_OPERATIONS["query-details"], body, alertDetailsResponseSchema, {
      accept: "text/plain",
      idempotent: true,
    });
    return response.alerts;
  }

  /** Details of one alert with its observations merged into one, `data` parsed. */
  async queryDetailsAggregate(alertId: string): Promise<AlertDetailsAggregate> {
    const [id = alertId] = checkIds("query-details-aggregate", [alertId]);
    const response = await this.transport.post(
      "query-details-aggregate",
      TRIAGE_OPERATIONS["query-details-aggregate"],
      { alertId: id },
      alertDetailsInAggregateResponseSchema,
      { accept: "text/plain", idempotent: true },
    );
    return response.alert;
  }

  /** Sets the alert's note, replacing any previous one. */
  async addNote(alertId: string, note: string): Promise<void> {
    const [id = alertId] = checkIds("add-note", [alertId]);
    const body: AddNoteRequest = { tenantId: this.tenantId, alertId: id, note };
    await this.transport.post("add-note", TRIAGE_OPERATIONS["add-note"], body, null, { accept: "application/json", idempotent: true });
  }

  /** Dismisses (RESOLVED) or reopens (OPEN) several alerts in one request; the note is sent when given. */
  async updateState(alertIds: readonly string[], state: AlertState, note?: string): Promise<void> {
    if (state !== "OPEN" && state !== "RESOLVED") throw new InvalidArgumentError(`Alert state must be OPEN or RESOLVED, not '${String(state)}'.`);
    const body: UpdateStateRequest = {
      tenantId: this.tenantId,
      alertIds: checkIds("update-state", alertIds),
      state,
      ...(note === undefined ? {} : { note }),
    };
    await this.transport.post("update-state", TRIAGE_OPERATIONS["update-state"], body, null, { accept: "application/json", idempotent: true });
  }

  /**
   * Creates a case (status OPEN). Not idempotent: sent once, never retried after the request may
   * have reached the service (a timeout, a reset or a 5xx leave it unknown whether it exists).
   */
  async createCase(input: CreateCaseInput): Promise<Case> {
    if (typeof input.name !== "string" || input.name.trim() === "") {
      throw new InvalidArgumentError("A case needs a name (non-empty).");
    }
    const body: CreateCaseRequest = {
      name: input.name,
      description: input.description ?? null,
      findings: input.findings ?? null,
      subject: input.subject ?? null,
      assignee: input.assignee ?? null,
    };
    return this.transport.post("create-case", TRIAGE_OPERATIONS["create-case"], body, caseSchema, {
      accept: "application/json",
      idempotent: false,
    });
  }

  /** Attaches a file event to a case. Both are checked before any request; path segments are encoded. */
  async addFileEventToCase(caseNumber: number | string, eventId: string): Promise<void> {
    const number = checkCaseNumber(caseNumber);
    const id = checkEventId(eventId);
    const path = `/v1/cases/${encodeURIComponent(String(number))}/fileevent/${encodeURIComponent(id)}`;
    await this.transport.post("add-case-file-event", path, undefined, null, { accept: "application/json", idempotent: true });
  }

  /**
   * Forensic search of file events: one group per given term (IS filters), groups combined by
   * AND; pages are numbered from 1. Without criteria every file event matches.
   */
  async searchFileEvents(input: FileEventSearchInput = {}): Promise<FileEventSearchResponse> {
    const pgNum = input.pgNum ?? 1;
    const pgSize = input.pgSize ?? DEFAULT_FILE_EVENT_PAGE_SIZE;
    if (!Number.isSafeInteger(pgNum) || pgNum < 1) throw new InvalidArgumentError(`File-event pages are numbered from 1 (got ${pgNum}).`);
    if (!Number.isSafeInteger(pgSize) || pgSize < 1) throw new InvalidArgumentError(`The page size must be a whole number of at least 1 (got ${pgSize}).`);
    const filters: FileEventFilter[] = [];
    if (input.fileName !== undefined) filters.push({ operator: "IS", term: "fileName", value: nonEmpty("fileName", input.fileName) });
    if (input.filePath !== undefined) filters.push({ operator: "IS", term: "filePath", value: nonEmpty("filePath", input.filePath) });
    const body: FileEventSearchRequest = {
      groups: filters.map((f) => ({ filters: [f], filterClause: "AND" })),
      groupClause: "AND",
      pgNum,
      pgSize,
    };
    const operation = "search-file-events";
    const response = await this.transport.post(operation, TRIAGE_OPERATIONS[operation], body, fileEventSearchResponseSchema, {
      accept: "application/json",
      idempotent: true,
    });
    if (response.problems !== undefined && response.problems.length > 0) throw problemsError(operation, response.problems);
    return response;
  }
}

function nonEmpty(term: string, value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError(`The ${term} filter needs a value.`);
  return value;
}

function problemsError(operation: string, problems: readonly unknown[]): ApiError {
  const text = problems.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join("; ");
  return new ApiError({
    operation,
    kind: "http",
    status: 200,
    serviceCode: "PROBLEMS",
    serviceMessage: `the service reported problems: ${text.length > 300 ? `${text.slice(0, 300)}...` : text}`,
    retryable: false,
    attempts: 1,
  });
}
