/** The `file-events search` command, composed: opens the triage session, searches, closes it. */
import type { FileEventSearchInput, FileEventSearchResponse } from "../../../api";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import type { RunReporter } from "../session/reporter";
import { withTriageClient } from "../session/triage-session";

/** `file-events search`: one page of the matching file events, and how many match in all. */
export async function fileEventsSearchRun(request: { readonly session: SessionSettings | InvalidSettings; readonly criteria: FileEventSearchInput }, reporter: RunReporter): Promise<FileEventSearchResponse> {
  return withTriageClient(request.session, reporter, (client) => client.searchFileEvents(request.criteria));
}
