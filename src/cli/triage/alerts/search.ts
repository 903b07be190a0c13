/** `alerts search`: alert notifications matching flags and filters, one page or all. */
import { alertsSearchRun } from "../../../io/workflow";
import { titleCase, UsageError } from "../../../io/door-words";
import { alertCriteriaGroups, parseAlertFilter } from "../../../api/triage/filters";
import { checkDate } from "../../../api/triage/validate";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, writeJson, type Subcommand } from "../../service-command";
import { cliReporter } from "../../reporter";
import { triageSession } from "../output";
import { renderSummaries } from "./render";

const SEVERITIES = ["High", "Medium", "Low"] as const;
const STATES = ["Open", "Dismissed"] as const;

/** The entry of `allowed` that --flag names in any case; undefined when the flag is absent. */
function anyCase(flag: string, value: string | undefined, allowed: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  const found = titleCase(value, allowed);
  if (found === undefined) throw new UsageError(`alerts search: --${flag} must be one of ${allowed.join(", ")}; got '${value}'.`);
  return found;
}

export const searchCommand: Subcommand = {
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
      severity: anyCase("severity", values.severity, SEVERITIES),
      state: anyCase("state", values.state, STATES),
      ruleName: values["rule-name"],
      since,
      until,
      filters: (values.filter ?? []).map(parseAlertFilter),
    });
    const result = await alertsSearchRun({ session: triageSession(values, io), groups, allPages: values["all-pages"] === true }, cliReporter(io));
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
