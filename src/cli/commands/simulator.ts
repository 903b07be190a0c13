/**
 * `alert-rule-users simulator`: serves the local simulator of the alert service until SIGINT or
 * SIGTERM; `simulator token` mints a token at a running simulator's OAuth endpoint. Behaviour
 * spec: src/simulator/README.md.
 */
import { parseArgs } from "node:util";
import { checkBaseUrl, ConfigError, ENV_BASE_URL, ENV_CLIENT_ID, ENV_CLIENT_SECRET, ENV_TOKEN, messageOf, UsageError } from "../../io/door-words";
import { withTwoDashes } from "../args";
import { CLI_IN_APP } from "../hints";
import { DEFAULT_SIMULATOR_TOKEN, OAUTH_PATH, loadSeedFile, startSimulator, type FaultOptions, type SimulatorOptions } from "../../simulator";
import { ConsoleError, consoleAddUser, consoleRemoveUser } from "../../simulator";

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
  "token-ttl": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function helpText(env: NodeJS.ProcessEnv | undefined): string {
  const token = defaultTokenText(env);
  return `Usage: alert-rule-users simulator [flags]
       alert-rule-users simulator token [--url URL]
       alert-rule-users simulator users add RULE USER_ID ALIAS... [--url URL] [--tenant-id ID]
       alert-rule-users simulator users remove RULE USER_ID [--url URL] [--tenant-id ID]

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
  --token-ttl S             accept only tokens minted at the OAuth endpoint (POST /v1/oauth,
                            HTTP Basic: any client ID, the --token as the client secret), each
                            valid S seconds; without it the --token is accepted too and minted
                            tokens live 900 s
  -h, --help

Subcommands:
  token [--url URL]         mints a token at the simulator at URL (default: ALERTS_API_URL) and
                            prints {"token": "...", "expiresAt": "<ISO 8601>"}: a token command.
                            Client ID and secret: ${ENV_CLIENT_ID} and ${ENV_CLIENT_SECRET}
                            (default: the built-in simulator client and token)
  users add RULE USER_ID ALIAS...
  users remove RULE USER_ID
                            what someone does in the console, to try drift: adds the user (with
                            its aliases) to the list of RULE (its ID or exact name), or removes
                            it, at the simulator at URL (default: ALERTS_API_URL; the token of
                            ALERTS_API_TOKEN, else the built-in one; the tenant of --tenant-id or
                            ALERTS_TENANT_ID). Refuses any server that is not a simulator.

Stopping it: Ctrl+C, or SIGTERM to its process. Started through npm (npx, npm exec, npm run), it
also stops when that npm process ends, so 'npx --no alert-rule-users simulator &' and later
'kill $!' (which ends npm) stop it too.

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
      throw usage(`--seed-file: ${messageOf(error)}`);
    }
  }
  const token = nonEmpty("token", values.token);
  if (token !== undefined) options.token = token;
  const tenantId = nonEmpty("tenant-id", values["tenant-id"]);
  if (tenantId !== undefined) options.tenantId = tenantId;
  const ttl = values["token-ttl"];
  if (ttl !== undefined) {
    const n = wholeNumber("token-ttl", ttl, 86_400);
    if (n === 0) throw usage("--token-ttl takes a whole number of seconds from 1 to 86400, got '0'");
    if (n !== undefined) options.tokenTtlSeconds = n;
  }
  return { help: false, options };
}

/** How often a simulator started through npm looks whether its parent is still there. */
const PARENT_POLL_MS = 500;

/**
 * Until SIGINT or SIGTERM, or, for a simulator started through npm (`npm_command` in its
 * environment: npx, npm exec, npm run), until the process that started it ends: npm does not pass
 * a SIGTERM on to its child, so `kill $!` after `npx … simulator &` would otherwise leave the
 * simulator serving, its port taken. Says why it stopped.
 */
function untilStopped(env: NodeJS.ProcessEnv | undefined): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const watch = env?.["npm_command"] !== undefined ? setInterval(() => process.ppid !== parent && stop(`its parent process (pid ${parent}: it was started through npm) ended`), PARENT_POLL_MS) : null;
    watch?.unref();
    const onSignal = (signal: NodeJS.Signals): void => stop(`Received ${signal}`);
    const stop = (why: string): void => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (watch !== null) clearInterval(watch);
      resolve(why);
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
    if (argv[0] === "token") return mintCommand(argv.slice(1), io);
    if (argv[0] === "users") return usersCommand(argv.slice(1), io);
    const parsed = simulatorOptionsFromArgs(argv);
    if (parsed.help) {
      io.stdout.write(helpText(io.env));
      return 0;
    }
    const sim = await startSimulator({ ...parsed.options, log: (line) => io.stderr.write(`${line}\n`) }).catch((error: unknown) => {
      throw listenError(error, parsed.options) ?? error;
    });
    const stopped = untilStopped(io.env);
    const tokenLine =
      parsed.options.tokenTtlSeconds !== undefined
        ? `  export ALERTS_API_TOKEN_COMMAND="${CLI_IN_APP} simulator token --url ${sim.url}"   # tokens live ${parsed.options.tokenTtlSeconds} s`
        : parsed.options.token === undefined
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
    const why = await stopped;
    io.stderr.write(`${why}; stopping the simulator.\n`);
    await sim.stop();
    return 0;
  },
};

/** The client ID `simulator token` sends when ALERTS_CLIENT_ID is not set (the simulator takes any). */
export const DEFAULT_SIMULATOR_CLIENT_ID = "local-simulator-client";

/**
 * `simulator token [--url URL]`: mints a token at the simulator's OAuth endpoint (client
 * credentials from ALERTS_CLIENT_ID / ALERTS_CLIENT_SECRET, the simulator's defaults otherwise)
 * and prints `{"token", "expiresAt"}`, the form a token command prints.
 */
async function mintCommand(argv: string[], io: SimulatorCommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { url: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`simulator token: ${error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, "") : String(error)}. Run 'alert-rule-users simulator --help'.`);
  }
  if (values.help === true) {
    io.stdout.write(helpText(io.env));
    return 0;
  }
  const env = io.env ?? {};
  const raw = values.url ?? env[ENV_BASE_URL];
  if (raw === undefined || raw.trim() === "") throw new UsageError(`simulator token: give the simulator's URL with --url URL (or set ${ENV_BASE_URL}).`);
  const checked = checkBaseUrl(raw.trim());
  if (!checked.ok) throw new UsageError(`simulator token: --url is invalid: ${checked.reason}`);
  const clientId = env[ENV_CLIENT_ID]?.trim() || DEFAULT_SIMULATOR_CLIENT_ID;
  const clientSecret = env[ENV_CLIENT_SECRET]?.trim() || DEFAULT_SIMULATOR_TOKEN;
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(`${checked.url}${OAUTH_PATH}`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : messageOf(error);
    throw new ConfigError(`simulator token: could not reach ${checked.url}${OAUTH_PATH} (${cause}); is the simulator running there?`);
  }
  const text = await response.text();
  if (response.status !== 200) {
    throw new ConfigError(
      `simulator token: the simulator answered ${response.status} at ${OAUTH_PATH}` +
        (response.status === 401 ? `; set ${ENV_CLIENT_SECRET} to the simulator's --token (the default is the built-in token).` : "."),
    );
  }
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ConfigError(`simulator token: the answer of ${OAUTH_PATH} is not JSON.`);
  }
  if (typeof body.access_token !== "string" || typeof body.expires_in !== "number") {
    throw new ConfigError(`simulator token: the answer of ${OAUTH_PATH} has no access_token and expires_in.`);
  }
  // The expiry counted from before the request: never later than the simulator's own.
  io.stdout.write(`${JSON.stringify({ token: body.access_token, expiresAt: new Date(started + body.expires_in * 1000).toISOString() })}\n`);
  return 0;
}

/** `simulator users add RULE USER_ID ALIAS...` and `simulator users remove RULE USER_ID` (src/simulator/console.ts). */
async function usersCommand(argv: string[], io: SimulatorCommandIo): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: { url: { type: "string" }, "tenant-id": { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: true }));
  } catch (error) {
    throw new UsageError(`simulator users: ${error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, "") : String(error)}. Run 'alert-rule-users simulator --help'.`);
  }
  if (values.help === true) {
    io.stdout.write(helpText(io.env));
    return 0;
  }
  const [action, rule, userId, ...aliases] = positionals;
  const shape = "simulator users add RULE USER_ID ALIAS... or simulator users remove RULE USER_ID";
  if (action !== "add" && action !== "remove") throw new UsageError(`simulator users: ${action === undefined ? "say add or remove" : `'${action}' is not add or remove`}: ${shape}.`);
  if (rule === undefined || rule.trim() === "" || userId === undefined || userId.trim() === "" || /\s/.test(userId)) {
    throw new UsageError(`simulator users ${action}: give the rule (its ID or exact name) and a user ID without spaces: ${shape}.`);
  }
  if (action === "add" && (aliases.length === 0 || aliases.some((a) => a.trim() === ""))) throw new UsageError(`simulator users add: give the user's aliases (at least one, none empty): ${shape}.`);
  if (action === "remove" && aliases.length > 0) throw new UsageError(`simulator users remove: takes the rule and the user ID only (got ${aliases.join(" ")} too): every alias of the user is removed.`);
  const env = io.env ?? {};
  const raw = values.url ?? env[ENV_BASE_URL];
  if (raw === undefined || raw.trim() === "") throw new UsageError(`simulator users: give the simulator's URL with --url URL (or set ${ENV_BASE_URL}).`);
  const checked = checkBaseUrl(raw.trim());
  if (!checked.ok) throw new UsageError(`simulator users: the URL is invalid: ${checked.reason}`);
  const tenantId = values["tenant-id"]?.trim() || env["ALERTS_TENANT_ID"]?.trim();
  if (tenantId === undefined || tenantId === "") throw new UsageError("simulator users: give the tenant with --tenant-id ID (or set ALERTS_TENANT_ID): the simulator prints it when it starts.");
  const target = { url: checked.url, token: env[ENV_TOKEN]?.trim() || DEFAULT_SIMULATOR_TOKEN, tenantId };
  try {
    const change = action === "add" ? await consoleAddUser(target, rule, userId, aliases) : await consoleRemoveUser(target, rule, userId);
    io.stdout.write(
      `${action === "add" ? `Added user ${userId} (${aliases.join(", ")}) to` : `Removed user ${userId} from`} '${change.ruleName}' (${change.ruleId}): its list has ${change.userCount} user${change.userCount === 1 ? "" : "s"} now.\n` +
        "A change outside your declarations, as in the console: the next plan shows it.\n",
    );
    return 0;
  } catch (error) {
    if (error instanceof ConsoleError) throw new ConfigError(`simulator users ${action}: ${error.message}`);
    throw error;
  }
}
