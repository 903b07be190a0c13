/** `alerts dismiss` and `alerts reopen`: set the state of alerts in one request. */
import type { AlertState } from "../../../api";
import { alertStateRun } from "../../../io/workflow";
import { CONNECTION_HELP, parse } from "../../args";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, helpRequested, type Subcommand } from "../../service-command";
import { cliReporter } from "../../reporter";
import { triageSession } from "../output";
import { alertIds } from "./alert-ids";

/** The subcommand that sets alerts to `state`: dismiss (RESOLVED) or reopen (OPEN). */
export function stateCommand(name: "dismiss" | "reopen", state: AlertState): Subcommand {
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
      await alertStateRun({ session: triageSession(values, io), ids, state, note: values.note }, cliReporter(io));
      io.stderr.write(`${verb} ${ids.length} alert${ids.length === 1 ? "" : "s"}: ${ids.join(", ")}.\n`);
      return 0;
    },
  };
}
