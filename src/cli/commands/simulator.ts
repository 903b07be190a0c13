/**
 * `alert-rule-users simulator`: serves the local simulator of the alert service until SIGINT or
 * SIGTERM. Behaviour spec: src/simulator/README.md.
 */
import { parseArgs } from "node:util";
import { ENV_TOKEN } from "../../api";
import { UsageError } from "../../errors";
import { withTwoDashes } from "../args";
import { DEFAULT_SIMULATOR_TOKEN, loadSeedFile, startSimulator, type FaultOptions, type SimulatorOptions } from "../../simulator";

/** What this command writes to (process.stdout / process.stderr, or anything with `write`). */
export interface SimulatorCommandIo {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** The environment, to tell whether ALERTS_API_TOKEN holds the default token. @default - none */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/**
 * How help and the start banner name the default token. The CLI's output streams redact the
 * value of ALERTS_API_TOKEN wherever it appears, so when that variable holds the default token
 * itself, printing it would show "[REDACTED]": say where the value is instead.
 */
function defaultTokenText(env: NodeJS.ProcessEnv | undefined): { readonly inline: string; exportLine(comment: string): string } {
  if (env?.[ENV_TOKEN]?.trim() === DEFAULT_SIMULATOR_TOKEN) {
    return {
      inline: `the built-in simulator token, which your ${ENV_TOKEN} already holds`,
      exportLine: () => `  # ${ENV_TOKEN}: already set to the default simulator token`,
    };
  }
  return { inline: DEFAULT_SIMULATOR_TOKEN, exportLine: (comment) => `  export ${ENV_TOKEN}=${DEFAULT_SIMULATOR_TOKEN}   # ${comment}` };
}

const OPTIONS = {
  port: { type: "string" },
  data: { type: "string" },
  "seed-file": { type: "string" },
  token: { type: "string" },
  "tenant-id": { type: "string" },
  "latency-ms": { type: "string" },
  "fail-rate": { type: "string" },
  "lost-response-rate": { type: "string" },
  "rate-limit-every": { type: "string" },
  "rate-limit-rps": { type: "string" },
  "retry-after": { type: "string" },
  "fault-seed": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function helpText(env: NodeJS.ProcessEnv | undefined): string {
  const token = defaultTokenText(env);
  return `Usage: alert-rule-users simulator [flags]

Serves a local simulator of the whole alert service (rules and their user lists, alerts, cases,
file events) on 127.0.0.1 until interrupted (Ctrl+C). Every request needs the bearer token; the
tenant is seeded from the sample tenant, a --seed-file, or the --data file when it exists.

Flags:
  --port N                  port to listen on (default: 0, a free port)
  --data FILE               persist the state to FILE (loaded from it when it exists; rewritten
                            atomically after every change)
  --seed-file FILE          tenant seed (default: examples/sample-tenant.json)
  --token T                 bearer token to require (default: ${token.inline})
  --tenant-id ID            tenant ID to serve (default: the seed's)
  --latency-ms MS           delay before each answer
  --fail-rate F             probability 0..1 of answering 503 before applying anything
  --lost-response-rate F    probability 0..1 that a write is applied but answered 502
  --rate-limit-rps R        a token bucket of R requests a second (burst R) shared by every
                            client; beyond it 429 with a truthful Retry-After (seconds, rounded
                            up) and Retry-After-Ms
  --rate-limit-every N      every Nth request answers 429
  --retry-after S           Retry-After seconds of a 429 (default: 1)
  --fault-seed N            seed of the fault draws (same seed, same requests: same faults)
  -h, --help

Then, in another shell:
  export ALERTS_API_URL=<the URL printed>
  export ALERTS_TENANT_ID=<the tenant printed>
${token.exportLine("or the token given with --token")}

Exit codes: 0 stopped by Ctrl+C (SIGINT) or SIGTERM after serving (interrupted on purpose), 1 a bad
flag, an unreadable --seed-file or --data file, or a port it cannot listen on (nothing served).
`;
}

function usage(message: string): UsageError {
  return new UsageError(`simulator: ${message}. Run 'alert-rule-users simulator --help' for the flags it takes.`);
}

function wholeNumber(flag: string, value: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n > max) throw usage(`--${flag} takes a whole number from 0 to ${max}, got '${value}'`);
  return n;
}

function probability(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw usage(`--${flag} takes a probability from 0 to 1, got '${value}'`);
  return n;
}

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1_000_000) throw usage(`--${flag} takes a number of requests a second above 0 (e.g. 2 or 0.5), got '${value}'`);
  return n;
}

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "" || /\s/.test(value)) throw usage(`--${flag} must be non-empty and without spaces`);
  return value;
}

/** Builds the simulator options from the command line; throws UsageError naming the flag. */
export function simulatorOptionsFromArgs(argv: string[]): { help: true } | { help: false; options: SimulatorOptions } {
  let values;
  try {
    ({ values } = parseArgs({ args: withTwoDashes(argv, OPTIONS, (message) => new Error(message.replace(/\.$/, ""))), options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw usage(error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, "") : String(error));
  }
  if (values.help === true) return { help: true };

  const faults: FaultOptions = {};
  const latencyMs = wholeNumber("latency-ms", values["latency-ms"], 600_000);
  const failRate = probability("fail-rate", values["fail-rate"]);
  const lostResponseRate = probability("lost-response-rate", values["lost-response-rate"]);
  const rateLimitEvery = wholeNumber("rate-limit-every", values["rate-limit-every"]);
  const rateLimitRps = positiveNumber("rate-limit-rps", values["rate-limit-rps"]);
  const retryAfterSeconds = wholeNumber("retry-after", values["retry-after"], 86_400);
  const seed = wholeNumber("fault-seed", values["fault-seed"], 0xffffffff);
  if (latencyMs !== undefined) faults.latencyMs = latencyMs;
  if (failRate !== undefined) faults.failRate = failRate;
  if (lostResponseRate !== undefined) faults.lostResponseRate = lostResponseRate;
  if (rateLimitEvery !== undefined) faults.rateLimitEvery = rateLimitEvery;
  if (rateLimitRps !== undefined) faults.rateLimitRps = rateLimitRps;
  if (retryAfterSeconds !== undefined) faults.retryAfterSeconds = retryAfterSeconds;
  if (seed !== undefined) faults.seed = seed;

  const options: SimulatorOptions = { faults };
  const port = wholeNumber("port", values.port, 65535);
  if (port !== undefined) options.port = port;
  const data = values.data;
  if (data !== undefined) {
    if (data.trim() === "") throw usage("--data needs a file name");
    options.dataFile = data;
  }
  const seedFile = values["seed-file"];
  if (seedFile !== undefined) {
    if (seedFile.trim() === "") throw usage("--seed-file needs a file name");
    try {
      options.seed = loadSeedFile(seedFile);
    } catch (error) {
      throw usage(`--seed-file: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const token = nonEmpty("token", values.token);
  if (token !== undefined) options.token = token;
  const tenantId = nonEmpty("tenant-id", values["tenant-id"]);
  if (tenantId !== undefined) options.tenantId = tenantId;
  return { help: false, options };
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

/** A port that cannot be listened on, as a usage error naming the port and the way out; else null. */
function listenError(error: unknown, options: SimulatorOptions): UsageError | null {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
  const where = `${options.host ?? "127.0.0.1"}:${options.port ?? 0}`;
  if (code === "EADDRINUSE") {
    return new UsageError(
      `simulator: port ${options.port ?? 0} is already in use (${where}). Stop what listens there (a simulator still running? 'lsof -i :${options.port ?? 0}' shows it), or pass another --port, or --port 0 for any free port.`,
    );
  }
  if (code === "EACCES") {
    return new UsageError(`simulator: not allowed to listen on port ${options.port ?? 0} (${where}); ports below 1024 need privileges: pass --port 1024 or above, or --port 0 for any free port.`);
  }
  return null;
}

export const simulatorCommand = {
  name: "simulator" as const,
  summary: "Serve a local simulator of the alert service (for trying changes and for tests)",
  help: helpText(undefined),
  async run(argv: string[], io: SimulatorCommandIo): Promise<number> {
    const parsed = simulatorOptionsFromArgs(argv);
    if (parsed.help) {
      io.stdout.write(helpText(io.env));
      return 0;
    }
    const sim = await startSimulator({ ...parsed.options, log: (line) => io.stderr.write(`${line}\n`) }).catch((error: unknown) => {
      throw listenError(error, parsed.options) ?? error;
    });
    const stopped = untilSignal();
    const tokenLine =
      parsed.options.token === undefined
        ? defaultTokenText(io.env).exportLine("the default simulator token")
        : "  export ALERTS_API_TOKEN=...   # the token you gave with --token";
    io.stderr.write(
      [
        `Simulator listening on ${sim.url}`,
        `Tenant: ${sim.tenantId}`,
        ...(parsed.options.dataFile === undefined ? ["State: in memory (use --data FILE to keep it)"] : [`State: ${parsed.options.dataFile}`]),
        "Point the CLI at it:",
        `  export ALERTS_API_URL=${sim.url}`,
        `  export ALERTS_TENANT_ID=${sim.tenantId}`,
        tokenLine,
        "Press Ctrl+C to stop.",
        "",
      ].join("\n"),
    );
    const signal = await stopped;
    io.stderr.write(`Received ${signal}; stopping the simulator.\n`);
    await sim.stop();
    return 0;
  },
};
