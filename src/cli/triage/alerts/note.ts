/** `alerts note`: sets an alert's note. */
import { alertNoteRun } from "../../../io/workflow";
import { UsageError } from "../../../io/door-words";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, type Subcommand } from "../../service-command";
import { cliReporter } from "../../reporter";
import { triageSession } from "../output";
import { alertIds } from "./alert-ids";

export const noteCommand: Subcommand = {
  name: "note",
  summary: "Set an alert's note (replaces the previous note)",
  help: `Usage: alert-rule-users alerts note ALERT_ID --note TEXT [flags]

Sets the note of an alert; a new note replaces any existing one. The state does not change.
Prints nothing on stdout (a confirmation goes to stderr); --format is accepted and ignored.

Flags:
  --note TEXT         the note (required)
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

Exit codes: 0 success, 1 error (also an unknown alert ID).
`,
  async run(argv, io) {
    const { values, positionals } = parse("alerts note", argv, { ...TRIAGE_OPTIONS, note: { type: "string" } }, true);
    if (helpRequested(values, io, this.help)) return 0;
    const ids = alertIds("alerts note", positionals);
    if (ids.length > 1) throw new UsageError("alerts note: takes exactly one alert ID.");
    if (values.note === undefined) throw new UsageError("alerts note: --note TEXT is required.");
    formatOf("alerts note", values.format, io);
    const [id = ""] = ids;
    await alertNoteRun({ session: triageSession(values, io), id, note: values.note }, cliReporter(io));
    io.stderr.write(`Set the note of alert ${id}.\n`);
    return 0;
  },
};
