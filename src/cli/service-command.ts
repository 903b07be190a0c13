/**
 * What the triage commands (alerts, cases, file-events) share: subcommand dispatch with help,
 * the `--format table|json` choice, JSON output as exactly one document, the client, and how
 * alerts, cases and attach outcomes are turned into output.
 */
import {
  TriageClient,
  observationDataJson,
  type AlertDetails,
  type AlertDetailsAggregate,
  type Case,
} from "../api";
import { AlertRuleUsersError, UsageError } from "../errors";
import { CONNECTION_OPTIONS, oneOf } from "./args";
import type { Command, Io } from "./io";
import { RATE_OPTIONS, connect, type ConnectionFlags } from "./run-flags";
import { renderFields, renderTable } from "./table";

export const FORMATS = ["table", "json"] as const;
export type Format = (typeof FORMATS)[number];

/** Flags every triage subcommand takes: the connection, --format and --help. */
export const TRIAGE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...RATE_OPTIONS,
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const TRIAGE_FLAGS_HELP = `  --format FORMAT     table (default on a terminal) or json (default otherwise)
  --max-rps N         never send more than N requests a second (default: no cap; the
                      client slows down by itself on the service's 429s)
  --run-deadline SECONDS  end the run by then, whatever the service answers (default: none;
                      also ALERT_RULE_USERS_RUN_DEADLINE_SECONDS)
  --base-url URL, --tenant-id ID, --token-file FILE
  -h, --help`;

/** table on a TTY, json otherwise, unless --format says. */
export function formatOf(command: string, value: string | undefined, io: Io): Format {
  return oneOf(command, "format", value, FORMATS, io.stdout.isTTY === true ? "table" : "json");
}

/** Writes one JSON document (and nothing else) to stdout. */
export function writeJson(io: Io, document: unknown): void {
  io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}

export function triageClient(flags: ConnectionFlags & { readonly "max-rps"?: string | undefined }, io: Io): TriageClient {
  return TriageClient.from(connect(flags, io).client);
}

/** Writes the help and says so when --help was given; the subcommand then returns 0. */
export function helpRequested(values: { help?: boolean | undefined }, io: Io, help: string): boolean {
  if (values.help !== true) return false;
  io.stdout.write(help);
  return true;
}

export interface Subcommand {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  run(argv: string[], io: Io): Promise<number>;
}

/** A command made of subcommands: `alert-rule-users <name> <subcommand> [flags]`. */
export function commandGroup(name: string, summary: string, description: string, subcommands: readonly Subcommand[]): Command {
  const width = Math.max(...subcommands.map((s) => s.name.length));
  const help = `Usage: alert-rule-users ${name} <subcommand> [flags]

${description}

Subcommands:
${subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join("\n")}

Run 'alert-rule-users ${name} <subcommand> --help' for a subcommand's flags.
`;
  return {
    name,
    summary,
    help,
    async run(argv: string[], io: Io): Promise<number> {
      const [first, ...rest] = argv;
      if (first === "--help" || first === "-h" || first === "help") {
        io.stdout.write(help);
        return 0;
      }
      if (first === undefined) {
        io.stderr.write(help);
        return 1;
      }
      const sub = subcommands.find((s) => s.name === first);
      if (sub === undefined) {
        throw new UsageError(`${name}: unknown subcommand '${first}'. Subcommands: ${subcommands.map((s) => s.name).join(", ")}. Run 'alert-rule-users ${name} --help'.`);
      }
      return sub.run(rest, io);
    },
  };
}

/** The message of an error for per-item outcomes (never a token: errors are built redacted). */
export function messageOf(error: unknown): string {
  if (error instanceof AlertRuleUsersError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------- output shapes

/** An alert's details with each observation's `data` as the parsed JSON document. */
export function detailsJson(alert: AlertDetails): unknown {
  return { ...alert, observations: alert.observations.map((o) => ({ ...o, data: observationDataJson(o.data) })) };
}

export function aggregateJson(alert: AlertDetailsAggregate): unknown {
  return { ...alert, observation: { ...alert.observation, data: observationDataJson(alert.observation.data) } };
}

export interface FileEventOutcome {
  readonly eventId: string;
  readonly status: "added" | "failed";
  readonly error?: string;
}

/** Attaches each event to the case in turn, recording each outcome (a failure does not stop the others). */
export async function attachAll(client: TriageClient, caseNumber: number, eventIds: readonly string[], io: Io): Promise<FileEventOutcome[]> {
  const outcomes: FileEventOutcome[] = [];
  for (const eventId of eventIds) {
    try {
      await client.addFileEventToCase(caseNumber, eventId);
      outcomes.push({ eventId, status: "added" });
    } catch (error) {
      const message = messageOf(error);
      io.stderr.write(`Could not add file event ${eventId} to case ${caseNumber}: ${message}\n`);
      outcomes.push({ eventId, status: "failed", error: message });
    }
  }
  return outcomes;
}

export function renderOutcomes(outcomes: readonly FileEventOutcome[]): string {
  return renderTable(
    ["EVENT ID", "STATUS", "ERROR"],
    outcomes.map((o) => [o.eventId, o.status, o.error ?? ""]),
    { empty: "No file events.", maxCellWidth: 90 },
  );
}

export function renderCase(c: Case): string {
  return renderFields([
    ["Case", c.number],
    ["Name", c.name],
    ["Status", c.status],
    ["Description", c.description],
    ["Findings", c.findings],
    ["Subject", c.subject === null ? null : `${c.subject}${c.subjectUsername === null ? "" : ` (${c.subjectUsername})`}`],
    ["Assignee", c.assignee === null ? null : `${c.assignee}${c.assigneeUsername === null ? "" : ` (${c.assigneeUsername})`}`],
    ["Created", `${c.createdAt} by ${c.createdByUsername}`],
    ["Updated", `${c.updatedAt} by ${c.lastModifiedByUsername}`],
  ]);
}
