/**
 * `alert-rule-users report --html FILE --csv FILE` (docs/contract.md §10.3): the access review. Every
 * editable rule's live list, joined with the app's declarations where the app is: who declared
 * each entry, drift, expiry (as of --now) and policy violations; as one self-contained HTML page
 * and/or CSV. One read of each rule; no write.
 */
import { resolve } from "node:path";
import { plural } from "../../core/render";
import { reportRun } from "../../io/workflow";
import { UsageError } from "../../io/door-words";
import type { AccessReportCounts } from "../../io/workflow/runs/read-runs";
import { CONNECTION_HELP, CONNECTION_OPTIONS, intFlag, parse } from "../args";
import type { Command, Io } from "../io";
import { checkOutputPath } from "../output-path";
import { cliReporter } from "../reporter";
import { CLOCK_OPTIONS, RATE_HELP, RATE_OPTIONS, READ_OPTIONS, SYNTH_OPTIONS, nowFlag, readSettings, sessionSettings, synthSettings } from "../run-flags";
import { APP_FLAGS_HELP, wantsApp } from "./who";

export const reportCommand: Command = {
  name: "report",
  summary: "Write the access report: who is in which rule list, declared by whom (HTML, CSV)",
  help: `Usage: alert-rule-users report [--html FILE] [--csv FILE] [flags]

Reads every rule of the tenant, live (one rule-metadata search, one query-users per rule with an
editable list; no write), and writes an access report: per list entry the rule, list type, user
ID and aliases. Run where a cdktf app is (./cdktf.json, or with --app), it also synthesizes the
app and says, per entry, which RuleUserList constructs declare it ("not declared" is drift, as is
a declared person missing from the live list; entries of rules the app declares nothing for are
"not managed by this app", counted apart), its expiresAt, whether it has expired or expires
within 14 days, and the RuleUserListPolicy checks it fails. With --skip-synth, an output older
than the app's sources gets a warning.

  --html FILE   one self-contained page: no network requests, readable without JavaScript (the
                rules, and a plain table of up to 5,000 entries, naming the CSV for the rest);
                with JavaScript, search by person, filters (rule, list type, drift, expiring,
                expired, not managed), sortable columns and counts per rule
  --csv FILE    RFC 4180, a header row, one row per list entry and alias; a value that starts
                with =, +, -, @, a tab or a carriage return is prefixed with ' (no formulas)
At least one of them is required; their directories must exist (checked before any request).

Flags:
${APP_FLAGS_HELP}
  --now yyyy-MM-ddTHH:mm:ssZ  the clock for expired and expiring (default: the system clock)
${RATE_HELP}
  --base-url URL, --tenant-id ID, --token-file FILE
  -h, --help

${CONNECTION_HELP}

Exit codes: 0 the files were written, 1 error (nothing is written when a list cannot be read).

Examples:
  alert-rule-users report --html access.html --csv access.csv
  alert-rule-users report --no-app --csv access.csv --now 2026-12-01T00:00:00Z
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("report", argv, {
      ...SYNTH_OPTIONS,
      ...CONNECTION_OPTIONS,
      ...RATE_OPTIONS,
      ...CLOCK_OPTIONS,
      html: { type: "string" },
      csv: { type: "string" },
      "no-app": { type: "boolean" },
      ...READ_OPTIONS,
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    if (values.html === undefined && values.csv === undefined) {
      throw new UsageError("report: say where to write the report: --html FILE, --csv FILE, or both (e.g. 'alert-rule-users report --html access.html').");
    }
    checkOutputPath("report", "html", values.html, io.cwd);
    checkOutputPath("report", "csv", values.csv, io.cwd);
    const now = nowFlag("report", values.now);
    const parallelism = intFlag("report", "parallelism", values.parallelism, 4, 1, 64);
    const pageSize = intFlag("report", "page-size", values["page-size"], 100, 1, 500);
    const withApp = wantsApp(values, io);
    const counts = await reportRun(
      {
        session: sessionSettings(values, io, readSettings(parallelism, pageSize)),
        synth: withApp ? synthSettings(values, io) : undefined,
        now,
        nowGiven: values.now !== undefined,
        files: {
          html: values.html === undefined ? undefined : resolve(io.cwd, values.html),
          csv: values.csv === undefined ? undefined : resolve(io.cwd, values.csv),
        },
      },
      cliReporter(io),
    );
    io.stdout.write(reportSummary(counts, [values.html, values.csv]));
    return 0;
  },
};

/**
 * What `report` says when done: the files, then the counts. Entries of rules the app declares
 * nothing for are counted apart from drift: the app does not manage those rules, so counting them
 * as drift would ask the reader to fix what is not theirs.
 */
function reportSummary(report: AccessReportCounts, written: readonly (string | undefined)[]): string {
  const counts = [
    plural(report.entries, "entry", "entries"),
    `in ${plural(report.rules, "rule")}`,
    ...(report.withDeclarations
      ? [
          `${report.drift} drift`,
          `${report.expiring} expiring within 14 days`,
          `${report.expired} expired`,
          `${report.unmanaged} in ${plural(report.unmanagedRules, "rule")} not managed by this app`,
        ]
      : ["declarations not read"]),
  ];
  return written.flatMap((file) => (file === undefined ? [] : [`Wrote ${file}\n`])).join("") + `${counts.join(", ")}.\n`;
}
