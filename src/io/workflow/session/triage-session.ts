/**
 * The session of a triage command (alerts, cases, file-events): opened from the door's settings,
 * its triage client given to the command's calls, and closed. Private to the workflow: a door
 * calls the command's function (triage-alerts.ts, triage-cases.ts, triage-file-events.ts).
 */
import type { TriageClient } from "../../../api";
import type { InvalidSettings, SessionSettings } from "./connect";
import { withSession } from "./reported-session";
import type { RunReporter } from "./reporter";

/** Opens the session of `settings`, runs `work` with its triage client, and closes the session. */
export async function withTriageClient<T>(settings: SessionSettings | InvalidSettings, reporter: RunReporter, work: (client: TriageClient) => Promise<T>): Promise<T> {
  return withSession(settings, reporter, (session) => work(session.triage()));
}
