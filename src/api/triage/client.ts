/**
 * The typed client of the alert, case and file-event operations of docs/interface.md, on the same
 * {@link HttpTransport} as the rule client (retries, redaction, counting, zod at the boundary).
 *
 * Retries: every operation here is safe to repeat (searches, a note that replaces the previous
 * one, setting a state, attaching a file event twice) except case creation, which is sent with
 * `idempotent: false`: it is never repeated once the request may have reached the service.
 *
 * Accept: text/plain for the alert searches and reads, application/json for the operations that
 * change data and for the file-event search (docs/interface.md names only alerts, rule metadata and
 * rule users as text/plain).
 */
import { InvalidArgumentError } from "../../errors";
import {
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
  type UpdateStateRequest,
} from "./schemas";
import type { RuleListClient } from "../rules/client";
import { problemsError } from "../http/errors";
import { collectPages } from "../http/paging";
import { pageRequestOptions, searchRequest, type SearchPageOptions } from "../search/filters";
import type { FilterGroup } from "../rules/schemas";
import type { HttpTransport } from "../http/transport";
import { checkAlertGroups } from "./filters";
import { checkCaseNumber, checkEventId, checkIds, nonEmpty } from "./validate";

/** The interface's page size for query-alerts. */
export const DEFAULT_ALERT_PAGE_SIZE = 20;
/** The interface's page size for the file-event search. */
export const DEFAULT_FILE_EVENT_PAGE_SIZE = 100;

/** One page of query-alerts (page size 20, the interface's value, unless given). */
export type AlertQueryOptions = SearchPageOptions;

export interface AllAlertsOptions extends Omit<AlertQueryOptions, "pageNumber"> {
  /** @default 100 */
  readonly pageSize?: number | undefined;
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
    const body = searchRequest(this.tenantId, checkAlertGroups(groups), pageRequestOptions(options, DEFAULT_ALERT_PAGE_SIZE));
    const operation = "query-alerts";
    const response = await this.transport.post(operation, TRIAGE_OPERATIONS[operation], body, alertQueryResponseSchema, {
      accept: "text/plain",
      idempotent: true,
    });
    if (response.problems.length > 0) throw problemsError(operation, response.problems);
    return response;
  }

  /**
   * Every alert matching the groups: reads pages until `totalCount` alerts are read or a page is
   * empty; a page with nothing new, or more than the transport's `maxSearchResults` alerts, stops
   * with a ReadLimitError (src/api/http/paging.ts). Alerts are returned once each (by `id`), in page order.
   */
  async queryAllAlerts(groups: readonly FilterGroup[], options: AllAlertsOptions = {}): Promise<{ alerts: AlertSummary[]; totalCount: number }> {
    const pageSize = options.pageSize ?? 100;
    const { items, totalCount } = await collectPages({
      operation: "query-alerts",
      pageSize,
      maxResults: this.transport.maxSearchResults,
      keyOf: (alert: AlertSummary) => alert.id,
      fetchPage: async (pageNumber) => {
        const page = await this.queryAlerts(groups, { ...options, pageSize, pageNumber });
        return { items: page.alerts, totalCount: page.totalCount };
      },
    });
    return { alerts: items, totalCount };
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
