/** `alerts show`: full details of alerts, or one alert's aggregate. */
import { alertsShowRun } from "../../../io/workflow";
import { UsageError } from "../../../io/door-words";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, writeJson, type Subcommand } from "../../service-command";
import { cliReporter } from "../../reporter";
import { aggregateJson, detailsJson, triageSession } from "../output";
import { alertIds } from "./alert-ids";
import { renderAggregate, renderDetails } from "./render";

export const showCommand: Subcommand = {
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
    const shown = await alertsShowRun({ session: triageSession(values, io), ids, aggregate: values.aggregate === true }, cliReporter(io));
    if (shown.kind === "aggregate") {
      if (format === "json") writeJson(io, { alert: aggregateJson(shown.alert) });
      else io.stdout.write(renderAggregate(shown.alert));
      return 0;
    }
    if (format === "json") writeJson(io, { alerts: shown.alerts.map(detailsJson) });
    else io.stdout.write(shown.alerts.map(renderDetails).join("\n"));
    return 0;
  },
};
