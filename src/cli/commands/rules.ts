/**
 * `alert-rule-users rules list` (docs/contract.md §9.2): every rule of the tenant, live, with its list
 * type and the number of entries in its list.
 */
import { rulesRun } from "../../io/workflow";
import { CONNECTION_HELP, intFlag, parse } from "../args";
import { cliReporter } from "../reporter";
import { READ_OPTIONS, readSettings, sessionSettings } from "../run-flags";
import { renderTable } from "../table";
import { TRIAGE_FLAGS_HELP, TRIAGE_OPTIONS, commandGroup, formatOf, helpRequested, writeJson, type Subcommand } from "../service-command";

const listCommand: Subcommand = {
  name: "list",
  summary: "Every rule of the tenant: list type, entries, system rule, source, enabled",
  help: `Usage: alert-rule-users rules list [--format table|json] [flags]

Reads every rule of the tenant, live: one rule-metadata search (every page) and one query-users
per rule with an editable list (system rules, whose lists are kept by the Departing Employee and
High Risk Employee lists, are not read). Sends no write call.

Flags:
  --parallelism N     lists read at once (default 4)
  --page-size N       rule-metadata search page size (default 100)
${TRIAGE_FLAGS_HELP}

${CONNECTION_HELP}

JSON output: { "rules": [{ "ruleId", "name", "listType", "users", "isSystem", "ruleSource",
"isEnabled" }] }, by name. listType is the rule's usersToAlertOn (SPECIFIED_USERS: inclusion list,
ALL_USERS_NOT_SPECIFIED: exclusion list, ALL_USERS); users is the number of entries (user bags)
in the list. Both are null for system rules.
Exit codes: 0 success, 1 error (also when a list could not be read: no partial answer).

Example:
  alert-rule-users rules list --format json | jq -r '.rules[] | select(.listType == "ALL_USERS_NOT_SPECIFIED") | .name'
`,
  async run(argv, io) {
    const { values } = parse("rules list", argv, { ...TRIAGE_OPTIONS, ...READ_OPTIONS });
    if (helpRequested(values, io, this.help)) return 0;
    const format = formatOf("rules list", values.format, io);
    const parallelism = intFlag("rules list", "parallelism", values.parallelism, 4, 1, 64);
    const pageSize = intFlag("rules list", "page-size", values["page-size"], 100, 1, 500);
    const rows = await rulesRun({ session: sessionSettings(values, io, readSettings(parallelism, pageSize)) }, cliReporter(io));
    if (format === "json") {
      writeJson(io, { rules: rows });
      return 0;
    }
    io.stdout.write(
      renderTable(
        ["RULE ID", "NAME", "LIST", "USERS", "SYSTEM", "SOURCE", "ENABLED"],
        rows.map((r) => [r.ruleId, r.name, listLabel(r.listType), r.users ?? "-", r.isSystem ? "yes" : "no", r.ruleSource, r.isEnabled ? "yes" : "no"]),
        { empty: "No rules in this tenant." },
      ),
    );
    return 0;
  },
};

/** The list type in words, for tables. */
export function listLabel(listType: string | null): string {
  switch (listType) {
    case "SPECIFIED_USERS":
      return "inclusion";
    case "ALL_USERS_NOT_SPECIFIED":
      return "exclusion";
    case "ALL_USERS":
      return "all users";
    default:
      return "-";
  }
}

export const rulesCommand = commandGroup(
  "rules",
  "List the tenant's alert rules and their user lists, live",
  "Reads the alert rules of the tenant. Sends no write call.",
  [listCommand],
);
