/** `alerts escalate`: a case for an alert, with every file event the alert names. */
import { escalateRun } from "../../../io/workflow";
import { UsageError } from "../../../io/door-words";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, writeJson, type Subcommand } from "../../service-command";
import { cliReporter } from "../../reporter";
import { renderCase, renderOutcomes, triageSession } from "../output";
import { alertIds } from "./alert-ids";

export const escalateCommand: Subcommand = {
  name: "escalate",
  summary: "Open a case for an alert and attach every file event it names",
  help: `Usage: alert-rule-users alerts escalate ALERT_ID --case-name NAME [--description T] [--assignee UID] [flags]

Reads the alert's observations, creates a case (status OPEN), then attaches every file event the
observations name (each observed file's eventId), reporting each. The case is created once: if
the create request fails after it may have reached the service, it is not repeated (look for the
case before running escalate again).

Flags:
  --case-name NAME    name of the new case (required)
  --description T     case description
  --assignee UID      user UID of the assignee
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "case": CASE, "fileEvents": [{ "eventId", "status": "added" | "failed", "error"? }] }
Exit codes: 0 case created and every file event added, 1 otherwise.
`,
  async run(argv, io) {
    const { values, positionals } = parse(
      "alerts escalate",
      argv,
      { ...TRIAGE_OPTIONS, "case-name": { type: "string" }, description: { type: "string" }, assignee: { type: "string" } },
      true,
    );
    if (helpRequested(values, io, this.help)) return 0;
    const ids = alertIds("alerts escalate", positionals);
    if (ids.length > 1) throw new UsageError("alerts escalate: takes exactly one alert ID.");
    const name = values["case-name"];
    if (name === undefined || name.trim() === "") throw new UsageError("alerts escalate: --case-name NAME is required.");
    const format = formatOf("alerts escalate", values.format, io);
    const [id = ""] = ids;
    const { created, outcomes } = await escalateRun(
      { session: triageSession(values, io), alertId: id, case: { name, description: values.description, assignee: values.assignee } },
      cliReporter(io),
    );

    if (format === "json") writeJson(io, { case: created, fileEvents: outcomes });
    else io.stdout.write(`${renderCase(created)}\n${renderOutcomes(outcomes)}`);
    return outcomes.every((o) => o.status === "added") ? 0 : 1;
  },
};
