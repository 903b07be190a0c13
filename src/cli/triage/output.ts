/**
 * What the triage commands (alerts, cases, file-events) share besides the service flags: the
 * session settings their flags make, and how alerts, cases and attach outcomes are turned into output.
 */
import { observationDataJson } from "../../api/triage/views";
import type { FileEventOutcome } from "../../io/workflow/runs/triage-cases";
import type { InvalidSettings, SessionSettings } from "../../io/workflow/session/connect";
import type { AlertDetails, AlertDetailsAggregate, Case } from "../../api";
import type { Io } from "../io";
import { readSettings, sessionSettings, type ConnectionFlags } from "../run-flags";
import { renderFields, renderTable } from "../table";

/** The settings of a triage command's session (src/io/workflow/triage-*.ts), from its flags. */
export function triageSession(
  flags: ConnectionFlags & { readonly "max-rps"?: string | undefined; readonly timeout?: string | undefined },
  io: Io,
): SessionSettings | InvalidSettings {
  return sessionSettings(flags, io, readSettings(1, 100));
}

/** An alert's details with each observation's `data` as the parsed JSON document. */
export function detailsJson(alert: AlertDetails): unknown {
  return { ...alert, observations: alert.observations.map((o) => ({ ...o, data: observationDataJson(o.data) })) };
}

export function aggregateJson(alert: AlertDetailsAggregate): unknown {
  return { ...alert, observation: { ...alert.observation, data: observationDataJson(alert.observation.data) } };
}

export function renderOutcomes(outcomes: readonly FileEventOutcome[]): string {
  return renderTable(
    ["EVENT ID", "STATUS", "ERROR"],
    outcomes.map((o) => [o.eventId, o.status, o.error ?? ""]),
    { empty: "No file events.", maxCellWidth: 90 },
  );
}

export function renderCase(c: Case): string {
  return renderFields([
    ["Case", c.number],
    ["Name", c.name],
    ["Status", c.status],
    ["Description", c.description],
    ["Findings", c.findings],
    ["Subject", c.subject === null ? null : `${c.subject}${c.subjectUsername === null ? "" : ` (${c.subjectUsername})`}`],
    ["Assignee", c.assignee === null ? null : `${c.assignee}${c.assigneeUsername === null ? "" : ` (${c.assigneeUsername})`}`],
    ["Created", `${c.createdAt} by ${c.createdByUsername}`],
    ["Updated", `${c.updatedAt} by ${c.lastModifiedByUsername}`],
  ]);
}
