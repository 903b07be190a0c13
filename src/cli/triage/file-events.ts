/**
 * `alert-rule-users file-events search`: forensic search of file events (docs/contract.md §8).
 */
import { fileEventsSearchRun } from "../../io/workflow";
import { CONNECTION_HELP, parse } from "../args";
import { renderTable } from "../table";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, commandGroup, formatOf, helpRequested, writeJson, type Subcommand } from "../service-command";
import { cliReporter } from "../reporter";
import { triageSession } from "./output";

const searchCommand: Subcommand = {
  name: "search",
  summary: "Search file events by file name or path",
  help: `Usage: alert-rule-users file-events search [--file-name PATTERN] [--file-path PREFIX*] [flags]

Searches file events (one page of 100, newest first); the criteria combine with AND. Without
criteria every file event matches.

Flags:
  --file-name PATTERN   file name; * is a wildcard ("*.xlsx")
  --file-path PATH      file path; a trailing * matches everything under it ("C:/Users/alice/*")
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "fileEvents": [FILE_EVENT...], "totalCount": N }
Exit codes: 0 success, 1 error.
`,
  async run(argv, io) {
    const { values } = parse("file-events search", argv, {
      ...TRIAGE_OPTIONS,
      "file-name": { type: "string" },
      "file-path": { type: "string" },
    });
    if (helpRequested(values, io, this.help)) return 0;
    const format = formatOf("file-events search", values.format, io);
    const result = await fileEventsSearchRun({ session: triageSession(values, io), criteria: { fileName: values["file-name"], filePath: values["file-path"] } }, cliReporter(io));
    if (format === "json") {
      writeJson(io, { fileEvents: result.fileEvents, totalCount: result.totalCount });
    } else {
      io.stdout.write(
        renderTable(
          ["EVENT ID", "TIME", "NAME", "PATH", "USER"],
          result.fileEvents.map((e) => [e.eventId, e.eventTimestamp?.slice(0, 19).replace("T", " "), e.fileName, e.filePath, e.deviceUserName]),
          { empty: "No file events match.", maxCellWidth: 90 },
        ),
      );
      if (result.fileEvents.length < result.totalCount) io.stdout.write(`Showing ${result.fileEvents.length} of ${result.totalCount} file events.\n`);
    }
    return 0;
  },
};

export const fileEventsCommand = commandGroup(
  "file-events",
  "Search file events (forensic search)",
  "Forensic search of file events, to locate the files named in an alert.",
  [searchCommand],
);
