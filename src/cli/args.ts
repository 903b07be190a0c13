/**
 * Argument parsing on util.parseArgs (strict): unknown flags and bad values are UsageErrors that
 * name the flag and point at --help.
 */
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import { UsageError } from "../errors";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

type Parsed<T extends OptionSpec> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
>;

export function parse<T extends OptionSpec>(command: string, argv: string[], options: T, allowPositionals = false): Parsed<T> {
  let parsed: Parsed<T>;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, "") : String(err);
    // The token is never a flag value (it would show in process lists): say where it goes instead.
    const hint = /Unknown option '--token'/.test(message)
      ? " The token is never taken on the command line: set ALERTS_API_TOKEN, or pass --token-file FILE."
      : "";
    throw new UsageError(`${command}: ${message}.${hint} Run 'alert-rule-users ${command} --help' for the flags it takes.`);
  }
  if (!allowPositionals && parsed.positionals.length > 0) {
    throw new UsageError(`${command}: unexpected argument '${parsed.positionals[0] ?? ""}'. Run 'alert-rule-users ${command} --help' for usage.`);
  }
  return parsed;
}

/** A whole number flag value within [min, max]. */
export function intFlag(command: string, flag: string, value: string | undefined, fallback: number, min = 1, max = 10_000): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${command}: --${flag} takes a whole number, got '${value}'.`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${command}: --${flag} must be between ${min} and ${max}, got ${n}.`);
  return n;
}

export function oneOf<T extends string>(command: string, flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${command}: --${flag} must be one of ${allowed.join(", ")}; got '${value}'.`);
}

export const CONNECTION_OPTIONS = {
  "base-url": { type: "string" },
  "tenant-id": { type: "string" },
  "token-file": { type: "string" },
  "run-deadline": { type: "string" },
} as const satisfies OptionSpec;

export const CONNECTION_HELP = `Connection (environment, overridden by flags):
  ALERTS_API_URL       base URL of the service          (--base-url URL)
  ALERTS_API_TOKEN     bearer token; never a flag value (--token-file FILE)
  ALERTS_TENANT_ID     tenant ID                        (--tenant-id ID)
Read limits (environment): ALERT_RULE_USERS_MAX_BODY_MIB (default 64),
  ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS (300), ALERT_RULE_USERS_MAX_SEARCH_RESULTS (20000),
  ALERT_RULE_USERS_RUN_DEADLINE_SECONDS (none): the whole run's requests end by then
  (--run-deadline SECONDS)`;
