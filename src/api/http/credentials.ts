/**
 * Where the bearer token of a run comes from (docs/contract.md §10.2): a static token (ALERTS_API_TOKEN,
 * --token-file), or a token command (ALERTS_API_TOKEN_COMMAND, --token-command) that is run with
 * `sh -c` and prints a bare token or `{"token", "expiresAt" | "expiresIn"}`.
 *
 * A command's token is cached in memory and fetched again ahead of its expiry (when less than a
 * tenth of its life, and at most 60 s, remains) and once after a 401 (the transport then sends
 * the refused request again, once). One fetch at a time: every request that needs a new token
 * while the command runs waits for that run (single flight). Every token the command returns is
 * registered for redaction before anything else sees it; its stdout is never shown, its stderr
 * only on failure and redacted.
 */
import { spawn } from "node:child_process";
import { z } from "zod";
import { CredentialError } from "./errors";
import { redactString, registerSecret } from "./redact";

/** A source of the bearer token, shared by every request of a run. */
export interface TokenSource {
  /** Names the source in messages, e.g. `ALERTS_API_TOKEN`, `--token-file FILE`, `the token command (ALERTS_API_TOKEN_COMMAND)`. */
  readonly origin: string;
  /** A token to send now (fetched first, or again when it is about to expire). */
  token(): Promise<string>;
  /**
   * `refused` was answered 401: a token to send the request again with, or null when this source
   * has no other (a static token).
   */
  renew(refused: string): Promise<string | null>;
}

/** A token that stays the same for the whole run. */
export class StaticToken implements TokenSource {
  readonly origin: string;
  readonly #token: string;

  constructor(token: string, origin: string) {
    this.#token = token;
    this.origin = origin;
  }

  token(): Promise<string> {
    return Promise.resolve(this.#token);
  }

  renew(): Promise<string | null> {
    return Promise.resolve(null);
  }

  toJSON(): Record<string, unknown> {
    return { origin: this.origin };
  }
}

export const ENV_TOKEN_COMMAND = "ALERTS_API_TOKEN_COMMAND";
/** How long the token command may run, in seconds (default 30). */
export const ENV_TOKEN_COMMAND_TIMEOUT_SECONDS = "ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS";
export const DEFAULT_TOKEN_COMMAND_TIMEOUT_MS = 30_000;
/** Renewal ahead of expiry: when less than this part of the token's life remains ... */
const RENEW_FRACTION = 0.1;
/** ... and at most this long before expiry. */
const MAX_RENEW_AHEAD_MS = 60_000;
/** The most stdout read from the command (a token, or a small JSON document). */
const MAX_STDOUT_BYTES = 64 * 1024;
/** The end of the command's stderr shown on failure. */
const STDERR_TAIL_CHARS = 2000;

/** What a finished run of the command gave. */
export interface CommandOutput {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The system error when `sh` could not be started (ENOENT, EACCES). */
  readonly spawnError?: string | undefined;
}

export type RunCommand = (command: string, options: { env: Readonly<Record<string, string | undefined>>; cwd: string | undefined; timeoutMs: number }) => Promise<CommandOutput>;

export interface TokenCommandOptions {
  /** The shell command line. */
  readonly command: string;
  /** Where it was given: `ALERTS_API_TOKEN_COMMAND` or `--token-command`. */
  readonly given: string;
  /** The command's environment. @default - none but PATH */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly cwd?: string | undefined;
  /** @default 30000, or ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS of `env` */
  readonly timeoutMs?: number | undefined;
  /** @default - Date.now */
  readonly now?: (() => number) | undefined;
  /** @default - `sh -c command` (src/api/http/credentials.ts runShell) */
  readonly run?: RunCommand | undefined;
}

interface CachedToken {
  readonly token: string;
  /** When it was fetched and when it expires (ms since the epoch); no expiry for a bare token. */
  readonly fetchedAt: number;
  readonly expiresAt: number | undefined;
}

/** What the command may print as JSON. */
const commandOutputSchema = z.object({
  token: z.string().trim().min(1),
  expiresAt: z.string().optional(),
  expiresIn: z.number().positive().optional(),
});

/** A token from a command, cached and fetched again ahead of expiry and after a 401. */
export class TokenCommand implements TokenSource {
  readonly origin: string;
  readonly #command: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #cwd: string | undefined;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #run: RunCommand;
  #current: CachedToken | null = null;
  #inflight: Promise<CachedToken> | null = null;
  #runs = 0;

  constructor(options: TokenCommandOptions) {
    this.#command = options.command;
    this.#env = options.env ?? { PATH: process.env["PATH"] };
    this.#cwd = options.cwd;
    this.#timeoutMs = options.timeoutMs ?? tokenCommandTimeoutMs(this.#env);
    this.#now = options.now ?? Date.now;
    this.#run = options.run ?? runShell;
    this.origin = `the token command '${describeCommand(options.command)}' (${options.given})`;
  }

  /** How many times the command ran. */
  get runs(): number {
    return this.#runs;
  }

  async token(): Promise<string> {
    // A run under way means the cached token is due or was refused: wait for the new one.
    if (this.#inflight !== null) return (await this.#inflight).token;
    const current = this.#current;
    if (current !== null && !this.#due(current)) return current.token;
    return (await this.#fetch()).token;
  }

  async renew(refused: string): Promise<string | null> {
    if (this.#inflight !== null) return (await this.#inflight).token;
    const current = this.#current;
    // Another request already fetched a newer token: send with that one.
    if (current !== null && current.token !== refused && !this.#due(current)) return current.token;
    return (await this.#fetch()).token;
  }

  toJSON(): Record<string, unknown> {
    return { origin: this.origin };
  }

  /** Renew when less than a tenth of the token's life, and at most 60 s, remains. */
  #due(cached: CachedToken): boolean {
    if (cached.expiresAt === undefined) return false;
    const ahead = Math.min((cached.expiresAt - cached.fetchedAt) * RENEW_FRACTION, MAX_RENEW_AHEAD_MS);
    return this.#now() >= cached.expiresAt - ahead;
  }

  /** One run at a time: callers that arrive while the command runs share its result. */
  #fetch(): Promise<CachedToken> {
    this.#inflight ??= this.#runOnce().finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  async #runOnce(): Promise<CachedToken> {
    this.#runs += 1;
    const fetchedAt = this.#now();
    const output = await this.#run(this.#command, { env: this.#env, cwd: this.#cwd, timeoutMs: this.#timeoutMs });
    const cached = readCommandOutput(output, fetchedAt, this.#timeoutMs, this.origin);
    this.#current = cached;
    return cached;
  }
}

/** The timeout of the token command from the environment (ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS), or 30 s. */
export function tokenCommandTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[ENV_TOKEN_COMMAND_TIMEOUT_SECONDS]?.trim();
  if (raw === undefined || raw === "") return DEFAULT_TOKEN_COMMAND_TIMEOUT_MS;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || n <= 0 || n > 3600) {
    throw new CredentialError(`${ENV_TOKEN_COMMAND_TIMEOUT_SECONDS} must be a number of seconds above 0 (at most 3600), got '${raw}'; fix or unset it (default 30).`);
  }
  return Math.round(n * 1000);
}

/**
 * The token (and its expiry) from what the command printed; a CredentialError otherwise. Every
 * token read is registered for redaction first. Messages never quote stdout; stderr is shown
 * (its end, redacted) when the command failed.
 */
export function readCommandOutput(output: CommandOutput, fetchedAt: number, timeoutMs: number, origin: string): CachedToken {
  const fail = (what: string, withStderr: boolean): CredentialError => {
    const tail = withStderr ? stderrTail(output.stderr) : "";
    return new CredentialError(`${origin} ${what}.${tail === "" ? "" : ` Its stderr:\n${tail}`}`);
  };
  if (output.spawnError !== undefined) throw fail(`could not be started (${output.spawnError}); check that sh is on PATH`, false);
  if (output.timedOut) throw fail(`did not finish within ${timeoutMs / 1000} s and was stopped; make it faster, or raise ${ENV_TOKEN_COMMAND_TIMEOUT_SECONDS}`, true);
  if (output.exitCode !== 0) {
    const how = output.exitCode === null ? `was killed by ${output.signal ?? "a signal"}` : `exited with status ${output.exitCode}`;
    throw fail(`${how}; run it by hand to see why (its output is never shown, only its stderr)`, true);
  }
  const text = output.stdout.trim();
  if (text === "") throw fail("printed nothing; it must print the bearer token, or JSON {\"token\": \"...\", \"expiresAt\": \"<ISO 8601>\"}", true);
  if (!text.startsWith("{")) {
    if (/[\s\u0000-\u001f\u007f]/.test(text)) {
      throw fail("printed more than one word; it must print the bearer token alone (one line, no spaces), or JSON {\"token\": \"...\", \"expiresAt\": \"...\"}", true);
    }
    registerSecret(text);
    return { token: text, fetchedAt, expiresAt: undefined };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail("printed text that starts with '{' but is not valid JSON; it must print {\"token\": \"...\", \"expiresAt\": \"<ISO 8601>\"} (or \"expiresIn\": seconds), or the bare token", true);
  }
  // Whatever a token-like field holds is a secret, whether or not the rest is valid.
  if (typeof json === "object" && json !== null) {
    for (const key of ["token", "access_token"]) {
      const value = (json as Record<string, unknown>)[key];
      if (typeof value === "string") registerSecret(value.trim());
    }
  }
  const parsed = commandOutputSchema.safeParse(json);
  if (!parsed.success) {
    const vendor = typeof json === "object" && json !== null && "access_token" in json;
    throw fail(
      vendor
        ? "printed an OAuth answer ({\"access_token\", \"expires_in\"}); map it to the tool's form, e.g. | jq '{token: .access_token, expiresIn: .expires_in}'"
        : `printed JSON that is not {"token": "<non-empty string>", "expiresAt": "<ISO 8601>"} or {"token", "expiresIn": <seconds above 0>}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`).join("; ")}`,
      false,
    );
  }
  const { token, expiresAt, expiresIn } = parsed.data;
  if (/[\s\u0000-\u001f\u007f]/.test(token)) throw fail("printed a token with whitespace or control characters in it; a bearer token is one word", false);
  let expires: number | undefined;
  if (expiresAt !== undefined) {
    expires = /^\d{4}-\d{2}-\d{2}T/.test(expiresAt) ? Date.parse(expiresAt) : Number.NaN;
    if (Number.isNaN(expires)) throw fail(`printed an expiresAt that is not an ISO 8601 instant ('${expiresAt.slice(0, 40)}'); write it like 2026-11-24T15:00:00Z`, false);
  } else if (expiresIn !== undefined) {
    expires = fetchedAt + expiresIn * 1000;
  }
  if (expires !== undefined && expires <= fetchedAt) {
    throw fail(`printed a token that has already expired (expiresAt ${new Date(expires).toISOString()}); check the command, and this machine's clock`, false);
  }
  return { token, fetchedAt, expiresAt: expires };
}

/** The command as messages show it: one line, at most 80 characters, registered secrets removed. */
function describeCommand(command: string): string {
  const line = redactString(command.replace(/\s+/g, " ").trim());
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function stderrTail(stderr: string): string {
  const text = redactString(stderr.trim());
  if (text === "") return "";
  const tail = text.length > STDERR_TAIL_CHARS ? `...${text.slice(-STDERR_TAIL_CHARS)}` : text;
  return tail
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/**
 * Runs `sh -c command` in its own process group, stdin closed; on timeout the whole group is
 * killed (a `sleep` the shell started included). Reads at most 64 KiB of stdout.
 */
export const runShell: RunCommand = (command, { env, cwd, timeoutMs }) =>
  new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], {
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const finish = (result: CommandOutput): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stdout.length < MAX_STDOUT_BYTES) stdout += chunk;
    });
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4 * STDERR_TAIL_CHARS);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish({ exitCode: null, signal: null, stdout, stderr, timedOut, spawnError: error.code ?? error.message });
    });
    child.on("close", (exitCode, signal) => {
      finish({ exitCode, signal, stdout, stderr, timedOut });
    });
  });
