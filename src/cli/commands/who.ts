/**
 * `alert-rule-users who ALIAS_OR_USER_ID...` (docs/contract.md §9.2): where a person is, live. Aliases
 * match case-insensitively (trimmed), user IDs exactly, in inclusion and exclusion lists alike.
 * Where a cdktf app is (./cdktf.json, or --app), each match also says which RuleUserLists declare
 * it, so offboarding "remove alice everywhere" is one edit per listed construct.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { whoRun } from "../../io/workflow";
import { UsageError } from "../../io/door-words";
import type { WhoMatch } from "../../core/live/who";
import { CONNECTION_HELP, intFlag, parse } from "../args";
import type { Io } from "../io";
import { cliReporter } from "../reporter";
import { READ_OPTIONS, SYNTH_OPTIONS, readSettings, sessionSettings, synthSettings } from "../run-flags";
import { renderTable } from "../table";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, formatOf, writeJson } from "../service-command";
import type { Command } from "../io";
import { listLabel } from "./rules";

/** The flags of the read-only commands that join the app's declarations when it is there (who, report). */
export const APP_FLAGS_HELP = `  --app CMD           synthesize this app (default: the "app" of ./cdktf.json, when present)
  --output DIR        synth output directory (default: cdktf.out)
  --skip-synth        read an existing --output instead of synthesizing
  --stack NAME        only this stack's declarations (repeatable)
  --no-app            do not look at the app, even where ./cdktf.json is
  --parallelism N     lists read at once (default 4)
  --page-size N       rule-metadata search page size (default 100)`;

/** Whether to read the app: --app or --skip-synth given, or ./cdktf.json there; never with --no-app. */
export function wantsApp(values: { app?: string | undefined; "skip-synth"?: boolean | undefined; "no-app"?: boolean | undefined }, io: Io): boolean {
  return values["no-app"] !== true && (values.app !== undefined || values["skip-synth"] === true || existsSync(join(io.cwd, "cdktf.json")));
}

export const whoCommand: Command = {
  name: "who",
  summary: "Find the rule lists a person is in, live, by alias or user ID",
  help: `Usage: alert-rule-users who ALIAS_OR_USER_ID... [--format table|json] [flags]

Reads every rule of the tenant, live (one rule-metadata search, one query-users per rule with an
editable list), and prints every list entry each query matches: an alias matches any alias of an
entry case-insensitively (trimmed), a user ID matches exactly; inclusion and exclusion lists alike.
Sends no write call.

Run where a cdktf app is (./cdktf.json, or with --app), it also synthesizes the app and says, per
match, which RuleUserList constructs declare that person for that rule ("declared"); people
declared for a rule but not in its live list are listed too, with "live": false. To remove someone
everywhere, edit each listed construct, then plan and apply.

Flags:
${APP_FLAGS_HELP}
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "matches": [{ "query", "ruleId", "ruleName", "listType", "userId", "aliases" }] }
(userId null for entries without an ID), in query order, then by rule name; with an app, each
match also has "declared" (construct paths) and "live".
Exit codes: 0 success (also when nothing matches), 1 error.

Examples:
  alert-rule-users who alice@example.com 908712345678901234
  alert-rule-users who Alice@Example.com --format json | jq -r '.matches[].declared[]?' | sort -u
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse(
      "who",
      argv,
      { ...TRIAGE_OPTIONS, ...SYNTH_OPTIONS, "no-app": { type: "boolean" }, ...READ_OPTIONS },
      true,
    );
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const queries = positionals.map((q) => q.trim());
    if (queries.length === 0 || queries.some((q) => q === "")) {
      throw new UsageError("who: give one or more aliases or user IDs, e.g. 'alert-rule-users who alice@example.com'.");
    }
    const format = formatOf("who", values.format, io);
    const parallelism = intFlag("who", "parallelism", values.parallelism, 4, 1, 64);
    const pageSize = intFlag("who", "page-size", values["page-size"], 100, 1, 500);
    const withApp = wantsApp(values, io);
    const matches = await whoRun(
      { session: sessionSettings(values, io, readSettings(parallelism, pageSize)), queries, synth: withApp ? synthSettings(values, io) : undefined },
      cliReporter(io),
    );

    for (const query of queries) {
      if (!matches.some((m) => m.query === query)) io.stderr.write(`No list has ${JSON.stringify(query)}.\n`);
    }
    if (format === "json") {
      writeJson(io, { matches });
      return 0;
    }
    io.stdout.write(renderTable(headers(withApp), matches.map((m) => row(m, withApp)), { empty: "No matches." }));
    return 0;
  },
};

function headers(withApp: boolean): string[] {
  return ["QUERY", "RULE", "RULE ID", "LIST", "USER ID", "ALIASES", ...(withApp ? ["DECLARED BY"] : [])];
}

function row(m: WhoMatch, withApp: boolean): unknown[] {
  const cells: unknown[] = [m.query, m.ruleName, m.ruleId, listLabel(m.listType), m.userId ?? "(no user ID)", m.aliases.join(", ")];
  if (withApp) {
    const declared = m.declared ?? [];
    cells.push((declared.length === 0 ? "(not declared)" : declared.join(", ")) + (m.live === false ? " [not in the live list]" : ""));
  }
  return cells;
}
