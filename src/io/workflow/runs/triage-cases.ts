/**
 * The `cases` commands, composed: create a case, attach file events to one. Each opens the triage
 * session, makes its calls, closes it, and returns what the front door prints.
 */
import type { Case, CreateCaseInput, TriageClient } from "../../../api";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import type { RunReporter } from "../session/reporter";
import { withTriageClient } from "../session/triage-session";
import { messageOf } from "../../../shared/text";

/** What became of one file event attached to a case. */
export interface FileEventOutcome {
  readonly eventId: string;
  readonly status: "added" | "failed";
  readonly error?: string;
}

/**
 * Attaches each event to the case in turn, recording each outcome (a failure does not stop the
 * others); each failure is told to `reporter` as it happens.
 */
export async function attachAll(client: TriageClient, caseNumber: number, eventIds: readonly string[], reporter: RunReporter): Promise<FileEventOutcome[]> {
  const outcomes: FileEventOutcome[] = [];
  for (const eventId of eventIds) {
    try {
      await client.addFileEventToCase(caseNumber, eventId);
      outcomes.push({ eventId, status: "added" });
    } catch (error) {
      const message = messageOf(error);
      reporter.say(`Could not add file event ${eventId} to case ${caseNumber}: ${message}`);
      outcomes.push({ eventId, status: "failed", error: message });
    }
  }
  return outcomes;
}

/** `cases create`: the case, created once (never repeated after it may have reached the service). */
export async function caseCreateRun(request: { readonly session: SessionSettings | InvalidSettings; readonly case: CreateCaseInput }, reporter: RunReporter): Promise<Case> {
  return withTriageClient(request.session, reporter, (client) => client.createCase(request.case));
}

export interface CaseAddFileEventsRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** Checked by the door (`checkCaseNumber`). */
  readonly caseNumber: number;
  /** Checked by the door (`checkEventId`), once each. */
  readonly eventIds: readonly string[];
}

/** `cases add-file-events`: one outcome per event, in order. */
export async function caseAddFileEventsRun(request: CaseAddFileEventsRequest, reporter: RunReporter): Promise<FileEventOutcome[]> {
  return withTriageClient(request.session, reporter, (client) => attachAll(client, request.caseNumber, request.eventIds, reporter));
}
