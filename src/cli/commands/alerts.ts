/**
 * `alert-rule-users alerts ...`: search, show, note, dismiss, reopen and escalate alert
 * notifications (design.md §8).
 */
import {
  ApiError,
  alertCriteriaGroups,
  checkDate,
  eventIdsOf,
  parseAlertFilter,
  type AlertDetails,
  type AlertDetailsAggregate,
  type AlertState,
  type AlertSummary,
  type ObservationData,
} from "../../api";
import { UsageError } from "../../errors";
import { CONNECTION_HELP, parse } from "../args";
import type { Io } from "../io";
import { cell, renderFields, renderTable } from "../table";
import {
  TRIAGE_FLAGS_HELP,
  TRIAGE_OPTIONS,
  aggregateJson,
  attachAll,
  commandGroup,
  detailsJson,
  formatOf,
  renderCase,
  renderOutcomes,
  triageClient,
  writeJson,
  type Subcommand,
} from "../triage";

const SEVERITIES = ["High", "Medium", "Low"] as const;
const STATES = ["Open", "Dismissed"] as const;

function titleCase(command: string, flag: string, value: string | undefined, allowed: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined) throw new UsageError(`${command}: --${flag} must be one of ${allowed.join(", ")}; got '${value}'.`);
  return found;
}

function helpRequested(values: { help?: boolean | undefined }, io: Io, help: string): boolean {
  if (values.help !== true) return false;
  io.stdout.write(help);
  return true;
}

function alertIds(command: string, positionals: readonly string[], min = 1): string[] {
  if (positionals.length < min) throw new UsageError(`${command}: give the alert ID${min > 1 ? "s" : ""}. Run 'alert-rule-users ${command} --help' for usage.`);
  const empty = positionals.find((id) => id.trim() === "");
  if (empty !== undefined) throw new UsageError(`${command}: an alert ID must not be empty.`);
  return [...new Set(positionals)];
}

function renderSummaries(alerts: readonly AlertSummary[]): string {
  return renderTable(
    ["ID", "CREATED", "SEVERITY", "STATE", "ACTOR", "RULE"],
    alerts.map((a) => [a.id, a.createdAt.slice(0, 19).replace("T", " "), a.severity, a.state, a.actor, a.name]),
    { empty: "No alerts match." },
  );
}

function renderData(data: ObservationData): string {
  if (data.kind === "unknown") return `  data: ${cell(JSON.stringify(data.raw), 200)}\n`;
  const a = data.activity;
  const head = renderFields([
    ["  Activity", `${a.firstActivityAt} .. ${a.lastActivityAt}`],
    ["  Exposure", a.exposureTypes.join(", ")],
    ["  Files", `${a.fileCount} (${a.totalFileSize} bytes)`],
  ]);
  const files = renderTable(["  EVENT ID", "NAME", "PATH", "CATEGORY"], a.files.map((f) => [`  ${f.eventId}`, f.name, f.path, f.category]), { maxCellWidth: 90, empty: "  (no files)" });
  return head + files;
}

function renderAlertHead(alert: AlertSummary | AlertDetails | AlertDetailsAggregate): string {
  return renderFields([
    ["Alert", alert.id],
    ["Rule", `${alert.name} (${alert.ruleId})`],
    ["Severity", alert.severity],
    ["State", alert.state],
    ["Actor", alert.actor],
    ["Target", alert.target],
    ["Created", alert.createdAt],
  ]);
}

function renderDetails(alert: AlertDetails): string {
  const observations = alert.observations.map((o) => `Observation ${o.id} (${o.type}, ${o.observedAt})\n${renderData(o.data)}`);
  return `${renderAlertHead(alert)}${observations.join("")}`;
}

function renderAggregate(alert: AlertDetailsAggregate): string {
  const o = alert.observation;
  return `${renderAlertHead(alert)}Aggregate observation (${o.type}, ${o.observedAt})\n${renderData(o.data)}`;
}

const searchCommand: Subcommand = {
  name: "search",
  summary: "Search alert notifications",
  help: `Usage: alert-rule-users alerts search [flags]

Searches alert notifications. The flags combine with AND; --filter takes any term and operator
of the interface ("TERM OPERATOR VALUE"), repeatable. Without --all-pages one page (20 alerts,
newest first) is read; totalCount counts every match.

Flags:
  --actor S               Actor Is S (username or cloud alias)
  --severity LEVEL        High, Medium or Low
  --state STATE           Open or Dismissed
  --rule-name S           RuleName Is S
  --since yyyy-MM-dd      DateObserved On or after
  --until yyyy-MM-dd      DateObserved On or before
  --filter "TERM OPERATOR VALUE"
                          terms: DateObserved (On, On or after, On or before), Actor, RuleName,
                          Description (Is, Is not, Contains, Does not contain), Severity,
                          AlertState (Is, Is not), AlertID (Is)
  --all-pages             read every page
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "alerts": [ALERT_SUMMARY...], "totalCount": N }
Exit codes: 0 success, 1 error.

Examples:
  alert-rule-users alerts search --severity High --state Open
  alert-rule-users alerts search --filter "Actor Contains alice" --filter "DateObserved On or after 2026-01-01" --all-pages
`,
  async run(argv, io) {
    const { values } = parse("alerts search", argv, {
      ...TRIAGE_OPTIONS,
      actor: { type: "string" },
      severity: { type: "string" },
      state: { type: "string" },
      "rule-name": { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      filter: { type: "string", multiple: true },
      "all-pages": { type: "boolean" },
    });
    if (helpRequested(values, io, this.help)) return 0;
    const format = formatOf("alerts search", values.format, io);
    const since = values.since === undefined ? undefined : checkDate("--since", values.since);
    const until = values.until === undefined ? undefined : checkDate("--until", values.until);
    if (since !== undefined && until !== undefined && since > until) throw new UsageError(`alerts search: --since ${since} is after --until ${until}.`);
    const groups = alertCriteriaGroups({
      actor: values.actor,
      severity: titleCase("alerts search", "severity", values.severity, SEVERITIES),
      state: titleCase("alerts search", "state", values.state, STATES),
      ruleName: values["rule-name"],
      since,
      until,
      filters: (values.filter ?? []).map(parseAlertFilter),
    });
    const client = triageClient(values, io);
    const result = values["all-pages"] === true ? await client.queryAllAlerts(groups) : await client.queryAlerts(groups);
    if (format === "json") {
      writeJson(io, { alerts: result.alerts, totalCount: result.totalCount });
    } else {
      io.stdout.write(renderSummaries(result.alerts));
      if (result.alerts.length < result.totalCount) {
        io.stdout.write(`Showing ${result.alerts.length} of ${result.totalCount} alerts; add --all-pages for all.\n`);
      }
    }
    return 0;
  },
};

const showCommand: Subcommand = {
  name: "show",
  summary: "Show alerts with their observations and files",
  help: `Usage: alert-rule-users alerts show ALERT_ID... [--aggregate] [flags]

Shows the full details of alerts: one observation per activity, with the files involved (their
event IDs can be attached to a case). With --aggregate (one alert only), the observations are
merged into one.

Flags:
  --aggregate         merge the alert's observations into one
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "alerts": [ALERT_DETAILS...] }, or { "alert": ALERT_DETAILS_AGGREGATE } with
--aggregate; each observation's "data" is the parsed JSON document.
Exit codes: 0 success, 1 error (also an unknown alert ID).
`,
  async run(argv, io) {
    const { values, positionals } = parse("alerts show", argv, { ...TRIAGE_OPTIONS, aggregate: { type: "boolean" } }, true);
    if (helpRequested(values, io, this.help)) return 0;
    const ids = alertIds("alerts show", positionals);
    const format = formatOf("alerts show", values.format, io);
    if (values.aggregate === true && ids.length > 1) throw new UsageError("alerts show: --aggregate takes exactly one alert ID.");
    const client = triageClient(values, io);
    if (values.aggregate === true) {
      const alert = await client.queryDetailsAggregate(ids[0] ?? "");
      if (format === "json") writeJson(io, { alert: aggregateJson(alert) });
      else io.stdout.write(renderAggregate(alert));
      return 0;
    }
    const alerts = await client.queryDetails(ids);
    if (format === "json") writeJson(io, { alerts: alerts.map(detailsJson) });
    else io.stdout.write(alerts.map(renderDetails).join("\n"));
    return 0;
  },
};

const noteCommand: Subcommand = {
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
    await triageClient(values, io).addNote(id, values.note);
    io.stderr.write(`Set the note of alert ${id}.\n`);
    return 0;
  },
};

function stateCommand(name: "dismiss" | "reopen", state: AlertState): Subcommand {
  const verb = name === "dismiss" ? "Dismissed" : "Reopened";
  return {
    name,
    summary: name === "dismiss" ? "Dismiss alerts (state RESOLVED)" : "Reopen alerts (state OPEN)",
    help: `Usage: alert-rule-users alerts ${name} ALERT_ID... [--note TEXT] [flags]

Sets every listed alert to ${state} in one request${name === "dismiss" ? " (the filter calls it Dismissed)" : ""}; the note,
when given, is sent with the request and replaces each alert's note. If any ID is unknown the
service refuses the request. Prints nothing on stdout; --format is accepted and ignored.

Flags:
  --note TEXT         note sent with the request
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

Exit codes: 0 success, 1 error.
`,
    async run(argv, io) {
      const { values, positionals } = parse(`alerts ${name}`, argv, { ...TRIAGE_OPTIONS, note: { type: "string" } }, true);
      if (helpRequested(values, io, this.help)) return 0;
      const ids = alertIds(`alerts ${name}`, positionals);
      formatOf(`alerts ${name}`, values.format, io);
      await triageClient(values, io).updateState(ids, state, values.note);
      io.stderr.write(`${verb} ${ids.length} alert${ids.length === 1 ? "" : "s"}: ${ids.join(", ")}.\n`);
      return 0;
    },
  };
}

const escalateCommand: Subcommand = {
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
    const client = triageClient(values, io);

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
    const outcomes = await attachAll(client, created.number, eventIds, io);

    if (format === "json") writeJson(io, { case: created, fileEvents: outcomes });
    else io.stdout.write(`${renderCase(created)}\n${renderOutcomes(outcomes)}`);
    return outcomes.every((o) => o.status === "added") ? 0 : 1;
  },
};

export const alertsCommand = commandGroup(
  "alerts",
  "Search, show, annotate, dismiss, reopen and escalate alert notifications",
  "Triage of alert notifications: search them, read their observations and files, set a note,\ndismiss or reopen them, and escalate one into a case with its file events.",
  [searchCommand, showCommand, noteCommand, stateCommand("dismiss", "RESOLVED"), stateCommand("reopen", "OPEN"), escalateCommand],
);
