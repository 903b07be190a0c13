/** The table output of `alerts search` and `alerts show`: alert summaries, details and their observations. */
import type { AlertDetails, AlertDetailsAggregate, AlertSummary, ObservationData } from "../../../api";
import { cell, renderFields, renderTable } from "../../table";

/** Alerts in a table; a NOTE column when one of them has a note (the service returns it). */
export function renderSummaries(alerts: readonly AlertSummary[]): string {
  const notes = alerts.some((a) => typeof a.note === "string" && a.note !== "");
  return renderTable(
    ["ID", "CREATED", "SEVERITY", "STATE", "ACTOR", "RULE", ...(notes ? ["NOTE"] : [])],
    alerts.map((a) => [a.id, a.createdAt.slice(0, 19).replace("T", " "), a.severity, a.state, a.actor, a.name, ...(notes ? [cell(a.note ?? "", 40)] : [])]),
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
    // the note, when the service returns one (alerts note sets it)
    ...(alert.note === undefined || alert.note === null ? [] : [["Note", alert.note] as const]),
  ]);
}

export function renderDetails(alert: AlertDetails): string {
  const observations = alert.observations.map((o) => `Observation ${cell(o.id, 100)} (${cell(o.type, 100)}, ${cell(o.observedAt, 100)})\n${renderData(o.data)}`);
  return `${renderAlertHead(alert)}${observations.join("")}`;
}

export function renderAggregate(alert: AlertDetailsAggregate): string {
  const o = alert.observation;
  return `${renderAlertHead(alert)}Aggregate observation (${cell(o.type, 100)}, ${cell(o.observedAt, 100)})\n${renderData(o.data)}`;
}
