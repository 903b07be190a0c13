/**
 * The `alerts` commands, composed: search, show, note, dismiss/reopen and escalate. Each opens the
 * triage session, makes its calls, closes it, and returns what the front door prints.
 */
import type { AlertDetails, AlertDetailsAggregate, AlertState, AlertSummary, Case, CreateCaseInput, FilterGroup } from "../../../api";
import { ApiError, eventIdsOf } from "../../../api";
import { UsageError } from "../../../errors";
import { plural } from "../../../shared/text";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import type { RunReporter } from "../session/reporter";
import { attachAll, type FileEventOutcome } from "./triage-cases";
import { withTriageClient } from "../session/triage-session";

export interface AlertsSearchRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** The criteria, checked by the door (`alertCriteriaGroups`). */
  readonly groups: readonly FilterGroup[];
  /** Every page, or the first one. */
  readonly allPages: boolean;
}

/** `alerts search`: the matching alerts (one page, or every page) and how many match in all. */
export async function alertsSearchRun(request: AlertsSearchRequest, reporter: RunReporter): Promise<{ alerts: AlertSummary[]; totalCount: number }> {
  return withTriageClient(request.session, reporter, (client) => (request.allPages ? client.queryAllAlerts(request.groups) : client.queryAlerts(request.groups)));
}

export interface AlertsShowRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** The alert IDs; exactly one with `aggregate`. */
  readonly ids: readonly string[];
  /** Merge the one alert's observations into one. */
  readonly aggregate: boolean;
}

export type AlertsShowResult = { readonly kind: "details"; readonly alerts: AlertDetails[] } | { readonly kind: "aggregate"; readonly alert: AlertDetailsAggregate };

/** `alerts show`: the alerts' full details, or the one alert's aggregate. */
export async function alertsShowRun(request: AlertsShowRequest, reporter: RunReporter): Promise<AlertsShowResult> {
  if (request.aggregate) {
    const alert = await withTriageClient(request.session, reporter, (client) => client.queryDetailsAggregate(request.ids[0] ?? ""));
    return { kind: "aggregate", alert };
  }
  const alerts = await withTriageClient(request.session, reporter, (client) => client.queryDetails(request.ids));
  return { kind: "details", alerts };
}

/** `alerts note`: sets the alert's note (it replaces the previous one). */
export async function alertNoteRun(request: { readonly session: SessionSettings | InvalidSettings; readonly id: string; readonly note: string }, reporter: RunReporter): Promise<void> {
  await withTriageClient(request.session, reporter, (client) => client.addNote(request.id, request.note));
}

export interface AlertStateRequest {
  readonly session: SessionSettings | InvalidSettings;
  readonly ids: readonly string[];
  /** RESOLVED (dismiss) or OPEN (reopen). */
  readonly state: AlertState;
  /** Sent with the request; replaces each alert's note. */
  readonly note: string | undefined;
}

/** `alerts dismiss` and `alerts reopen`: every alert to `state`, in one request. */
export async function alertStateRun(request: AlertStateRequest, reporter: RunReporter): Promise<void> {
  await withTriageClient(request.session, reporter, (client) => client.updateState(request.ids, request.state, request.note));
}

export interface EscalateRequest {
  readonly session: SessionSettings | InvalidSettings;
  readonly alertId: string;
  /** The case to create (as the door was given it). */
  readonly case: CreateCaseInput;
}

export interface EscalateResult {
  readonly created: Case;
  /** One outcome per file event the alert names, in order. */
  readonly outcomes: FileEventOutcome[];
}

/**
 * `alerts escalate`: reads the alert, creates the case once (when the create fails after it may
 * have reached the service, `reporter` is warned and the error thrown), tells `reporter` the case
 * and how many file events follow, and attaches each (a failure does not stop the others).
 */
export async function escalateRun(request: EscalateRequest, reporter: RunReporter): Promise<EscalateResult> {
  const id = request.alertId;
  return withTriageClient(request.session, reporter, async (client) => {
    const [alert] = await client.queryDetails([id]);
    if (alert === undefined) throw new UsageError(`alerts escalate: the service returned no alert ${id}.`);
    const eventIds = eventIdsOf(alert);
    let created;
    try {
      created = await client.createCase(request.case);
    } catch (error) {
      if (error instanceof ApiError && (error.status === undefined || error.status >= 500)) {
        reporter.warn("the case may have been created although the request failed; look for it before running escalate again.");
      }
      throw error;
    }
    reporter.say(`Created case ${created.number} ("${created.name}"); adding ${plural(eventIds.length, "file event")}.`);
    return { created, outcomes: await attachAll(client, created.number, eventIds, reporter) };
  });
}
