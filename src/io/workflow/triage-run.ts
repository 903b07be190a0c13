/**
 * The triage commands (alerts, cases, file-events), composed: the session is opened here, the
 * command's calls run on its triage client, and the session is closed.
 */
import type { TriageClient } from "../../api";
import type { InvalidSettings, SessionSettings } from "./connect";
import { withSession } from "./reported-session";
import type { RunReporter } from "./reporter";

/** Opens the session of `settings`, runs `work` with its triage client, and closes the session. */
export async function triageRun<T>(settings: SessionSettings | InvalidSettings, reporter: RunReporter, work: (client: TriageClient) => Promise<T>): Promise<T> {
  return withSession(settings, reporter, (session) => work(session.triage()));
}
