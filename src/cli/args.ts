/**
 * Argument parsing on util.parseArgs (strict): unknown flags and bad values are UsageErrors that
 * name the flag and point at --help.
 */
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import { UsageError } from "../io/door-words";
import { didYouMean } from "../core/render";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

type Parsed<T extends OptionSpec> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: true }>
>;

export function parse<T extends OptionSpec>(command: string, argv: string[], options: T, allowPositionals = false): Parsed<T> {
  let parsed: Parsed<T>;
  const args = withTwoDashes(argv, options, (message) => new UsageError(`${command}: ${message} Run 'alert-rule-users ${command} --help' for the flags it takes.`));
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    // (not `instanceof Error`: util.parseArgs' TypeError may come from another realm, as under jest)
    const message = typeof err === "object" && err !== null && "message" in err ? String(err.message).replace(/\. To specify a positional argument.*$/s, "") : String(err);
    // The token is never a flag value (it would show in process lists): say where it goes instead.
    const hint = /Unknown option '--token'/.test(message)
      ? " The token is never taken on the command line: set ALERTS_API_TOKEN, or pass --token-file FILE, or --token-command CMD (a command that prints it)."
      : unknownOptionHint(message, options);
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
  "token-command": { type: "string" },
  "run-deadline": { type: "string" },
} as const satisfies OptionSpec;

export const CONNECTION_HELP = `Connection (environment, overridden by flags):
  ALERTS_API_URL       base URL of the service          (--base-url URL)
  ALERTS_API_TOKEN     bearer token; never a flag value (--token-file FILE)
  ALERTS_TENANT_ID     tenant ID                        (--tenant-id ID)
  ALERTS_API_TOKEN_COMMAND  a command (run with sh -c) that prints the token, or JSON
                       {"token","expiresAt"} / {"token","expiresIn"}; run again before the token
                       expires and once after a 401            (--token-command CMD)
  Give the token exactly one way: --token-file, ALERTS_API_TOKEN or a token command.
Read limits (environment): ALERT_RULE_USERS_MAX_BODY_MIB (default 64),
  ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS (300), ALERT_RULE_USERS_MAX_SEARCH_RESULTS (20000),
  ALERT_RULE_USERS_RUN_DEADLINE_SECONDS (none): the whole run's requests end by then
  (--run-deadline SECONDS)`;

/**
 * Terraform habits: `-out FILE`, `-out=FILE`, `-detailed-exitcode`, `-no-color` are this CLI's long
 * options written with one dash. Returns `argv` with each such token given its second dash, so
 * that util.parseArgs does not read `-out` as the short flags `-o -u -t`. Left alone: a token that
 * is the value of the option before it, everything after `--`, and real short flags (`-h`). A
 * one-dash word that is no option is refused whole (`Unknown option '-frobnicate'`), with the
 * long option it resembles, rather than by its first letter.
 */
export function withTwoDashes(argv: readonly string[], options: OptionSpec, refuse: (message: string) => Error): string[] {
  const out: string[] = [];
  const shorts = new Map(Object.entries(options).flatMap(([, o]) => (o.short === undefined ? [] : [[o.short, o] as const])));
  let valueNext = false;
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i]!;
    if (valueNext) {
      out.push(token);
      valueNext = false;
      continue;
    }
    if (token === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const dashes = token.startsWith("--") ? 2 : token.startsWith("-") && token.length > 1 ? 1 : 0;
    const [name = "", ...rest] = token.slice(dashes).split("=");
    const hasValue = rest.length > 0;
    if (dashes === 2) {
      valueNext = options[name]?.type === "string" && !hasValue;
      out.push(token);
    } else if (dashes === 1 && name.length > 1 && Object.hasOwn(options, name)) {
      valueNext = options[name]!.type === "string" && !hasValue;
      out.push(`-${token}`);
    } else if (dashes === 1 && name.length > 1 && ![...name].every((c) => shorts.get(c)?.type === "boolean")) {
      throw refuse(`Unknown option '-${name}'.${didYouMean(name, Object.keys(options), (near) => `--${near}`)}`);
    } else {
      valueNext = dashes === 1 && name.length === 1 && shorts.get(name)?.type === "string" && !hasValue;
      out.push(token);
    }
  }
  return out;
}

/** " Did you mean --X?" for util.parseArgs' "Unknown option '--x'" (a typo of a flag this command takes), else "". */
function unknownOptionHint(message: string, options: OptionSpec): string {
  const unknown = /Unknown option '--([^'=]+)'/.exec(message)?.[1];
  return unknown === undefined ? "" : didYouMean(unknown, Object.keys(options), (near) => `--${near}`);
}
