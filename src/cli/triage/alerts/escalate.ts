/** `alerts escalate`: a case for an alert, with every file event the alert names. */
import { ApiError, eventIdsOf } from "../../../io/workflow";
import { UsageError } from "../../../errors";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, writeJson, type Subcommand } from "../../service-command";
import { attachAll, renderCase, renderOutcomes, triage } from "../output";
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
    const { created, outcomes } = await triage(values, io, async (client) => {
      const [alert] = await client.queryDetails([id]);
      if (alert === undefined) throw new UsageError(`alerts escalate: the service returned no alert ${id}.`);
      const eventIds = eventIdsOf(alert);
      let created;
      try {
        created = await client.createCase({ name, description: values.description, assignee: values.assignee });
      } catch (error) {
        if (error instanceof ApiError && (error.status === undefined || error.status >= 500)) {
          io.stderr.write("Warning: the case may have been created although the request failed; look for it before running escalate again.\n");
        }
        throw error;
      }
      io.stderr.write(`Created case ${created.number} ("${created.name}"); adding ${eventIds.length} file event${eventIds.length === 1 ? "" : "s"}.\n`);
      return { created, outcomes: await attachAll(client, created.number, eventIds, io) };
    });

    if (format === "json") writeJson(io, { case: created, fileEvents: outcomes });
    else io.stdout.write(`${renderCase(created)}\n${renderOutcomes(outcomes)}`);
    return outcomes.every((o) => o.status === "added") ? 0 : 1;
  },
};
