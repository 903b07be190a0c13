/**
 * What the commands that read the service and print data share (rules, who, and the triage
 * commands alerts, cases, file-events): the service flags, subcommand dispatch with help, the
 * `--format table|json` choice and JSON output as exactly one document.
 */
import { shownJson } from "../core/render";
import { UsageError } from "../io/door-words";
import { CONNECTION_OPTIONS, oneOf } from "./args";
import type { Command, Io } from "./io";
import { RATE_OPTIONS } from "./run-flags";

export const FORMATS = ["table", "json"] as const;
export type Format = (typeof FORMATS)[number];

/** Flags every triage subcommand takes: the connection, the pacing, --format and --help. */
export const TRIAGE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...RATE_OPTIONS,
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const TRIAGE_FLAGS_HELP = `  --format FORMAT     table (default on a terminal) or json (default otherwise)
  --max-rps N         never send more than N requests a second (default: no cap; the
                      client slows down by itself on the service's 429s)
  --timeout SECONDS   give up on a request after this long and retry it (default 30)
  --run-deadline SECONDS  end the run by then, whatever the service answers (default: none;
                      also ALERT_RULE_USERS_RUN_DEADLINE_SECONDS)
  --base-url URL, --tenant-id ID, --token-file FILE, --token-command CMD
  -h, --help`;

/** table on a TTY, json otherwise, unless --format says. */
export function formatOf(command: string, value: string | undefined, io: Io): Format {
  return oneOf(command, "format", value, FORMATS, io.stdout.isTTY === true ? "table" : "json");
}

/** Writes one JSON document (and nothing else) to stdout. */
export function writeJson(io: Io, document: unknown): void {
  // what the service said, as data: the same document, nothing in it that would draw on a terminal
  io.stdout.write(`${shownJson(document, 2)}\n`);
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
