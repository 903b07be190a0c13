/**
 * The flags plan, apply and import share, and what they turn into: synth settings, engine
 * settings and the settings of a session (plain data the workflow opens, src/io/workflow/).
 */
import { isAbsolute, resolve } from "node:path";
import { DEFAULT_TIMEOUT_SECONDS, isInstant, MAX_RUN_DEADLINE_SECONDS, UsageError } from "../io/door-words";
import type { InvalidSettings, SessionSettings } from "../io/workflow/session/connect";
import type { SynthSettings } from "../io/workflow/session/session";
import { intFlag } from "./args";
import type { Io } from "./io";

export const SYNTH_OPTIONS = {
  app: { type: "string" },
  output: { type: "string" },
  "skip-synth": { type: "boolean" },
  stack: { type: "string", multiple: true },
} as const;

/**
 * The pacing of requests, `--max-rps` and `--timeout`: taken by every command that talks to the
 * service (plan, apply, import, rules list, who and the triage commands), as the connection
 * options are (CONNECTION_OPTIONS in args.ts).
 */
export const RATE_OPTIONS = {
  "max-rps": { type: "string" },
  timeout: { type: "string" },
} as const;

export const RATE_HELP = `  --max-rps N            never send more than N requests a second (reads, writes and retries;
                         default: ALERT_RULE_USERS_MAX_RPS, else no cap, the client slows
                         down by itself on the service's 429s)
  --timeout SECONDS      give up on a request after this long and retry it (default 30)`;

export const ENGINE_OPTIONS = {
  parallelism: { type: "string" },
  "batch-size": { type: "string" },
  "page-size": { type: "string" },
  ...RATE_OPTIONS,
} as const;

/** The live reads' pacing, `--parallelism` and `--page-size`: the commands that read lists and plan nothing (import, report, rules list, who). */
export const READ_OPTIONS = {
  parallelism: { type: "string" },
  "page-size": { type: "string" },
} as const;

/** `--now`: the clock of plan and apply (expiries, policies). */
export const CLOCK_OPTIONS = {
  now: { type: "string" },
} as const;

export const NOW_HELP = `  --now yyyy-MM-ddTHH:mm:ssZ  the clock for expiries (expiresAt) and policies (default: the
                         system clock); the JSON plan records it as "now"`;

/**
 * The plan's clock: `--now` (checked: `yyyy-MM-ddTHH:mm:ssZ`, a real date and time, UTC) or the
 * system clock, to the second. The only place plan and apply read the clock for decisions.
 */
export function nowFlag(command: string, value: string | undefined, clock: () => Date = () => new Date()): string {
  if (value === undefined) return `${clock().toISOString().slice(0, 19)}Z`;
  if (!isInstant(value)) {
    throw new UsageError(
      `${command}: --now takes an instant written yyyy-MM-ddTHH:mm:ssZ (UTC), e.g. 2026-12-01T00:00:00Z; got '${value}'.`,
    );
  }
  return value;
}

export interface SynthFlags {
  readonly app?: string | undefined;
  readonly output?: string | undefined;
  readonly "skip-synth"?: boolean | undefined;
  readonly stack?: string[] | undefined;
}

export interface ConnectionFlags {
  readonly "base-url"?: string | undefined;
  readonly "tenant-id"?: string | undefined;
  readonly "token-file"?: string | undefined;
  readonly "token-command"?: string | undefined;
  readonly "run-deadline"?: string | undefined;
}

export interface EngineSettings {
  readonly parallelism: number;
  readonly batchSize: number;
  readonly pageSize: number;
}

export function engineSettings(
  command: string,
  flags: { parallelism?: string | undefined; "batch-size"?: string | undefined; "page-size"?: string | undefined },
): EngineSettings {
  return {
    parallelism: intFlag(command, "parallelism", flags.parallelism, 4, 1, 64),
    batchSize: intFlag(command, "batch-size", flags["batch-size"], 100, 1, 10_000),
    pageSize: intFlag(command, "page-size", flags["page-size"], 100, 1, 500),
  };
}

/**
 * `--max-rps N`: a number of requests a second above 0 (0.5 is one request every 2 s), or
 * undefined when not given.
 */
export function maxRpsFlag(command: string, value: string | undefined, from = "--max-rps"): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const n = /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(Number.isFinite(n) && n > 0 && n <= 100_000)) {
    throw new UsageError(
      `${command}: ${from} takes a number of requests a second above 0 (at most 100000), e.g. 2 or 0.5; got '${value}'.`,
    );
  }
  return n;
}

/** The CLI's `--max-rps` when the flag is not given: the variable the provider's `max_rps` reads (src/provider/configure.ts). */
export const ENV_MAX_RPS = "ALERT_RULE_USERS_MAX_RPS";

/**
 * The pace of a run: `--max-rps`, else ALERT_RULE_USERS_MAX_RPS (as the provider reads it; empty
 * is unset), else none; with how it was given, for messages.
 */
export function maxRpsOf(command: string, flag: string | undefined, env: NodeJS.ProcessEnv): { rps: number; given: string } | undefined {
  if (flag !== undefined) {
    const rps = maxRpsFlag(command, flag);
    return rps === undefined ? undefined : { rps, given: `--max-rps ${flag.trim()}` };
  }
  const fromEnv = env[ENV_MAX_RPS];
  if (fromEnv === undefined || fromEnv.trim() === "") return undefined;
  const rps = maxRpsFlag(command, fromEnv, ENV_MAX_RPS);
  return rps === undefined ? undefined : { rps, given: `${ENV_MAX_RPS}=${fromEnv.trim()}` };
}

/**
 * The session a command asks for (src/io/workflow/session/connect.ts), from the connection and rate flags:
 * `--timeout SECONDS` bounds each HTTP attempt (an attempt that takes longer is abandoned and
 * retried like a 5xx); `--max-rps N` caps the one rate limiter of the run. Plain data: the
 * workflow opens the session. A flag at fault comes back as `invalid`, thrown by the workflow
 * where the session opens (the step at which these flags were always checked).
 */
export function sessionSettings(
  flags: ConnectionFlags & { readonly timeout?: string | undefined; readonly "max-rps"?: string | undefined },
  io: Io,
  settings: EngineSettings,
): SessionSettings | InvalidSettings {
  try {
    const timeoutSeconds = intFlag("alert-rule-users", "timeout", flags.timeout, DEFAULT_TIMEOUT_SECONDS, 1, 3600);
    const maxRps = maxRpsOf("alert-rule-users", flags["max-rps"], io.env);
    const runDeadline = flags["run-deadline"] === undefined ? undefined : intFlag("alert-rule-users", "run-deadline", flags["run-deadline"], 0, 1, MAX_RUN_DEADLINE_SECONDS);
    return {
      env: io.env,
      cwd: io.cwd,
      baseUrl: flags["base-url"],
      tenantId: flags["tenant-id"],
      tokenFile: flags["token-file"] === undefined ? undefined : resolve(io.cwd, flags["token-file"]),
      tokenCommand: flags["token-command"],
      timeoutSeconds,
      maxRps,
      runDeadlineSeconds: runDeadline,
      engine: settings,
    };
  } catch (invalid) {
    return { invalid };
  }
}

/** The engine settings of commands that only read (rules, who, import, report, triage). */
export function readSettings(parallelism: number, pageSize: number): EngineSettings {
  return { parallelism, pageSize, batchSize: 100 };
}

/** Where to synthesize and read the declaration, from the synth flags. */
export function synthSettings(flags: SynthFlags, io: Io): SynthSettings {
  const output = flags.output ?? "cdktf.out";
  return {
    app: flags.app,
    outdir: isAbsolute(output) ? output : resolve(io.cwd, output),
    cwd: io.cwd,
    env: io.env,
    skipSynth: flags["skip-synth"] === true,
    stacks: flags.stack ?? [],
  };
}

