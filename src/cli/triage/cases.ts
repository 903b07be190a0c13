/**
 * `alert-rule-users cases ...`: create a case, attach file events to a case (docs/contract.md §8).
 */
import { caseAddFileEventsRun, caseCreateRun } from "../../io/workflow";
import { UsageError } from "../../io/door-words";
import { checkCaseNumber, checkEventId } from "../../api/triage/validate";
import { CONNECTION_HELP, parse } from "../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, commandGroup, formatOf, helpRequested, writeJson, type Subcommand } from "../service-command";
import { cliReporter } from "../reporter";
import { renderCase, renderOutcomes, triageSession } from "./output";

const createCommand: Subcommand = {
  name: "create",
  summary: "Create a case (status OPEN)",
  help: `Usage: alert-rule-users cases create --name NAME [--description T] [--findings T] [--subject UID] [--assignee UID] [flags]

Creates an investigation case; fields not given are sent as null. The request is sent once and
never repeated after it may have reached the service (case creation is not idempotent).

Flags:
  --name NAME         case name (required)
  --description T     description
  --findings T        findings
  --subject UID       user UID of the subject
  --assignee UID      user UID of the assignee
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: the case object.
Exit codes: 0 success, 1 error.
`,
  async run(argv, io) {
    const { values } = parse("cases create", argv, {
      ...TRIAGE_OPTIONS,
      name: { type: "string" },
      description: { type: "string" },
      findings: { type: "string" },
      subject: { type: "string" },
      assignee: { type: "string" },
    });
    if (helpRequested(values, io, this.help)) return 0;
    if (values.name === undefined || values.name.trim() === "") throw new UsageError("cases create: --name NAME is required.");
    const format = formatOf("cases create", values.format, io);
    const created = await caseCreateRun(
      {
        session: triageSession(values, io),
        case: { name: values.name, description: values.description, findings: values.findings, subject: values.subject, assignee: values.assignee },
      },
      cliReporter(io),
    );
    io.stderr.write(`Created case ${created.number}.\n`);
    if (format === "json") writeJson(io, created);
    else io.stdout.write(renderCase(created));
    return 0;
  },
};

const addFileEventsCommand: Subcommand = {
  name: "add-file-events",
  summary: "Attach file events to a case",
  help: `Usage: alert-rule-users cases add-file-events CASE_NUMBER EVENT_ID... [flags]

Attaches each file event to the case (one request per event; attaching an event twice is
harmless) and reports each. The case number and every event ID are checked before any request.

Flags:
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "fileEvents": [{ "eventId", "status": "added" | "failed", "error"? }] }
Exit codes: 0 every event added, 1 otherwise.
`,
  async run(argv, io) {
    const { values, positionals } = parse("cases add-file-events", argv, TRIAGE_OPTIONS, true);
    if (helpRequested(values, io, this.help)) return 0;
    const [rawNumber, ...rawEvents] = positionals;
    if (rawNumber === undefined || rawEvents.length === 0) {
      throw new UsageError("cases add-file-events: give a case number and at least one event ID. Run 'alert-rule-users cases add-file-events --help'.");
    }
    const caseNumber = checkCaseNumber(rawNumber);
    const eventIds = [...new Set(rawEvents.map(checkEventId))];
    const format = formatOf("cases add-file-events", values.format, io);
    const outcomes = await caseAddFileEventsRun({ session: triageSession(values, io), caseNumber, eventIds }, cliReporter(io));
    if (format === "json") writeJson(io, { fileEvents: outcomes });
    else io.stdout.write(renderOutcomes(outcomes));
    return outcomes.every((o) => o.status === "added") ? 0 : 1;
  },
};

export const casesCommand = commandGroup(
  "cases",
  "Create investigation cases and attach file events to them",
  "Investigation cases: create one, and attach file events (from an alert's observed files or a\nfile-event search) to it.",
  [createCommand, addFileEventsCommand],
);
