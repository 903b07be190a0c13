/**
 * `report` (docs/contract.md §10.3): reads every editable rule's live list (one metadata search, one
 * query-users per editable rule, no write), the app's declarations when asked, and writes the
 * HTML page and the CSV that the pure core renders. Each file is written atomically.
 */
import { dirname, relative } from "node:path";
import type { AccessReport } from "../../../core/report/access-report";
import { buildAccessReport } from "../../../core/report/access-report";
import type { DesiredList } from "../../../core/engine/desired";
import { renderReportCsv } from "../../../core/render/report-csv";
import { renderReportHtml } from "../../../core/render/report-html";
import { redactString } from "../../../api/http/redact";
import { writeFileAtomic } from "../../../shared/atomic-write";
import { TOOL_VERSION } from "../../version";
import { readDesired } from "./declared";
import { readLiveRules } from "./live";
import type { Session, SynthSettings } from "../session/session";

/**
 * The report as of `now` (`yyyy-MM-ddTHH:mm:ssZ`). With `synth`, the app is synthesized (or its
 * output read) first, so a broken app fails before any request.
 */
export async function readAccessReport(session: Session, synth: SynthSettings | undefined, now: string): Promise<AccessReport> {
  const declared: DesiredList[] | undefined = synth === undefined ? undefined : await readDesired(synth);
  const rules = await readLiveRules(session, "report");
  return buildAccessReport({ rules, declared, now, tenantId: session.connection.tenantId });
}

export interface AccessReportFiles {
  readonly html?: string | undefined;
  readonly csv?: string | undefined;
}

/**
 * Writes the files asked for; `generatedAt` is shown on the page when it is not the report's `now`.
 * With both files, the page names the CSV (by its path from the page's directory). Redacted like
 * every other output (src/api/http/redact.ts, every form of the token, the plan key and `secrets`):
 * what the service answered (rule names, aliases) may echo a secret, and the files are kept as
 * artifacts.
 */
export async function writeAccessReport(report: AccessReport, files: AccessReportFiles, generatedAt: string, secrets: readonly string[] = []): Promise<void> {
  const csvFile = files.html === undefined || files.csv === undefined ? undefined : relative(dirname(files.html), files.csv);
  if (files.html !== undefined) {
    const html = renderReportHtml(report, { generatedAt, toolVersion: TOOL_VERSION, ...(csvFile === undefined ? {} : { csvFile }) });
    await writeFileAtomic(files.html, redactString(html, secrets));
  }
  if (files.csv !== undefined) await writeFileAtomic(files.csv, redactString(renderReportCsv(report), secrets));
}
