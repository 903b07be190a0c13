/**
 * What the triage commands (alerts, cases, file-events) share besides the service flags: the
 * client, and how alerts, cases and attach outcomes are turned into output.
 */
import { AlertRuleUsersError } from "../../errors";
import { observationDataJson, triageRun } from "../../io/workflow";
import type { TriageClient, AlertDetails, AlertDetailsAggregate, Case } from "../../api";
import type { Io } from "../io";
import { cliReporter } from "../reporter";
import { readSettings, sessionSettings, type ConnectionFlags } from "../run-flags";
import { renderFields, renderTable } from "../table";

/** Runs a triage command's calls (`work`) on the triage client of a session the workflow opens from the flags, and closes. */
export async function triage<T>(
  flags: ConnectionFlags & { readonly "max-rps"?: string | undefined; readonly timeout?: string | undefined },
  io: Io,
  work: (client: TriageClient) => Promise<T>,
): Promise<T> {
  return triageRun(sessionSettings(flags, io, readSettings(1, 100)), cliReporter(io), work);
}

/** The message of an error for per-item outcomes (never a token: errors are built redacted). */
export function messageOf(error: unknown): string {
  if (error instanceof AlertRuleUsersError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** An alert's details with each observation's `data` as the parsed JSON document. */
export function detailsJson(alert: AlertDetails): unknown {
  return { ...alert, observations: alert.observations.map((o) => ({ ...o, data: observationDataJson(o.data) })) };
}

export function aggregateJson(alert: AlertDetailsAggregate): unknown {
  return { ...alert, observation: { ...alert.observation, data: observationDataJson(alert.observation.data) } };
}

export interface FileEventOutcome {
  readonly eventId: string;
  readonly status: "added" | "failed";
  readonly error?: string;
}

/** Attaches each event to the case in turn, recording each outcome (a failure does not stop the others). */
export async function attachAll(client: TriageClient, caseNumber: number, eventIds: readonly string[], io: Io): Promise<FileEventOutcome[]> {
  const outcomes: FileEventOutcome[] = [];
  for (const eventId of eventIds) {
    try {
      await client.addFileEventToCase(caseNumber, eventId);
      outcomes.push({ eventId, status: "added" });
    } catch (error) {
      const message = messageOf(error);
      io.stderr.write(`Could not add file event ${eventId} to case ${caseNumber}: ${message}\n`);
      outcomes.push({ eventId, status: "failed", error: message });
    }
  }
  return outcomes;
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
