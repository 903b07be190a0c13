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
 * only on failure, redacted (also of what its stdout held in that run, parsed or not, and of
 * anything written like a token field) and stripped of escape sequences and control characters.
 *
 * A renewal ahead of expiry that fails while the cached token is still valid is not fatal: the
 * cached token goes on serving (a warning, once), and the command is tried again later. The
 * command runs in its own process group with an environment built from an allow-list
 * ({@link tokenCommandEnvironment}, on src/shared/child-env.ts); at its time limit, or at the run's deadline when that comes
 * first, the whole group is killed and the run ends, even when a child it left behind (in a
 * session of its own) still holds its output open.
 */
import { spawn } from "node:child_process";
import { z } from "zod";
import { CredentialError } from "./errors";
import { BASE_ALLOW_LIST, childEnvironment, type AllowedVariable } from "../../shared/child-env";
import { REDACTED, redactString, registerSecret } from "./redact";

/** A source of the bearer token, shared by every request of a run. */
export interface TokenSource {
  /** Names the source in messages, e.g. `ALERTS_API_TOKEN`, `--token-file FILE`, `the token command (ALERTS_API_TOKEN_COMMAND)`. */
  readonly origin: string;
  /** A token to send now (fetched first, or again when it is about to expire). */
  token(): Promise<string>;
  /**
   * `refused` was answered 401: a token to send the request again with, and whether it was
   * fetched for this renewal (false: another request had already fetched it), or null when this
   * source has no other (a static token).
   */
  renew(refused: string): Promise<{ readonly token: string; readonly fetched: boolean } | null>;
  /**
   * `refused` was answered 401 and the request that sent it renews after its wait: until then,
   * {@link token} hands it to no one (it fetches a new one). @default - nothing to do
   */
  markRefused?(refused: string): void;
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

  renew(): Promise<null> {
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

/** The deadline of the run (the transport's RunDeadline): a command's run ends by it too. */
export interface CommandDeadline {
  /** Milliseconds since the epoch, on the clock of `now`. */
  readonly at: number;
  readonly ms: number;
  /** The flag or variable that set it, for the message. */
  readonly source: string;
}

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
  /** The run's deadline (`--run-deadline`): no run of the command goes past it. @default - none */
  readonly deadline?: CommandDeadline | undefined;
  /** Told once when a renewal failed and the cached, still valid token goes on serving. @default - silent */
  readonly onWarning?: ((message: string) => void) | undefined;
}

/** After a renewal failed while the cached token is valid: try again after this long (or half of what is left of it, when less). */
const RENEWAL_RETRY_MS = 10_000;

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
  readonly #deadline: CommandDeadline | undefined;
  readonly #onWarning: ((message: string) => void) | undefined;
  #current: CachedToken | null = null;
  #inflight: Promise<CachedToken> | null = null;
  #runs = 0;
  /** After a failed renewal: no new run before this time (ms since the epoch). */
  #retryAt = -Infinity;
  #warned = false;
  /** Tokens answered 401: never handed out again. */
  readonly #refused = new Set<string>();

  constructor(options: TokenCommandOptions) {
    this.#command = options.command;
    this.#env = options.env ?? { PATH: process.env["PATH"] };
    this.#cwd = options.cwd;
    this.#timeoutMs = options.timeoutMs ?? tokenCommandTimeoutMs(this.#env);
    this.#now = options.now ?? Date.now;
    this.#run = options.run ?? runShell;
    this.#deadline = options.deadline;
    this.#onWarning = options.onWarning;
    this.origin = `the token command '${describeCommand(options.command)}' (${options.given})`;
  }

  /** How many times the command ran. */
  get runs(): number {
    return this.#runs;
  }

  markRefused(refused: string): void {
    this.#refused.add(refused);
  }

  async token(): Promise<string> {
    const current = this.#current;
    // Due, but a renewal failed a moment ago and the cached token is still valid: use it.
    const usable = current !== null && !this.#refused.has(current.token);
    if (usable && this.#inflight === null && (!this.#due(current) || this.#now() < this.#retryAt)) return current.token;
    try {
      // A run under way means the cached token is due or was refused: wait for the new one.
      return (await (this.#inflight ?? this.#fetch())).token;
    } catch (error) {
      return this.#fallBack(current, error);
    }
  }

  async renew(refused: string): Promise<{ token: string; fetched: boolean }> {
    if (this.#inflight !== null) return { token: (await this.#inflight).token, fetched: true };
    const current = this.#current;
    // Another request already fetched a newer token: send with that one.
    if (current !== null && current.token !== refused && !this.#refused.has(current.token) && !this.#due(current)) return { token: current.token, fetched: false };
    return { token: (await this.#fetch()).token, fetched: true };
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

  /**
   * A renewal ahead of expiry failed: the cached token while it is still valid (a warning, once;
   * the command tried again after {@link RENEWAL_RETRY_MS} or half the time left), else the error.
   */
  #fallBack(cached: CachedToken | null, error: unknown): string {
    const now = this.#now();
    if (cached === null || cached.expiresAt === undefined || now >= cached.expiresAt || this.#refused.has(cached.token) || !(error instanceof CredentialError)) throw error;
    this.#retryAt = now + Math.min(RENEWAL_RETRY_MS, (cached.expiresAt - now) / 2);
    if (!this.#warned) {
      this.#warned = true;
      this.#onWarning?.(
        `renewing the token failed; the cached token (valid until ${new Date(cached.expiresAt).toISOString()}) is used meanwhile, and renewal is tried again later. ${error.message}`,
      );
    }
    return cached.token;
  }

  /** One run at a time: callers that arrive while the command runs share its result. */
  #fetch(): Promise<CachedToken> {
    this.#inflight ??= this.#runOnce().finally(() => {
      this.#inflight = null;
    });
    return this.#inflight;
  }

  async #runOnce(): Promise<CachedToken> {
    const fetchedAt = this.#now();
    // The run's deadline bounds the command too.
    const left = this.#deadline === undefined ? Infinity : this.#deadline.at - fetchedAt;
    const byRun = this.#deadline !== undefined && left < this.#timeoutMs;
    const timeoutMs = Math.min(this.#timeoutMs, left);
    if (timeoutMs <= 0) throw new CredentialError(`${this.origin} was not run: the run's deadline (${this.#deadline?.source ?? "--run-deadline"}) has passed.`);
    this.#runs += 1;
    const output = await this.#run(this.#command, { env: this.#env, cwd: this.#cwd, timeoutMs });
    const cached = readCommandOutput(output, fetchedAt, timeoutMs, this.origin, byRun ? this.#deadline?.source : undefined);
    this.#current = cached;
    this.#retryAt = -Infinity;
    return cached;
  }
}

/** Names the token command may add to its allow-list (comma- or space-separated). */
export const ENV_TOKEN_COMMAND_ENV = "ALERT_RULE_USERS_TOKEN_COMMAND_ENV";

/**
 * What a token command gets besides the base every child gets (src/shared/child-env.ts): proxies
 * and CA bundles (both cases), and the families token commands are documented to read: the tool's
 * own connection settings (`ALERTS_CLIENT_ID`, `ALERTS_TOKEN_URL`, ...), the usual secret stores
 * and cloud CLIs (Vault, AWS, Azure, Google Cloud), a GitHub Actions OIDC request.
 */
const TOKEN_COMMAND_ALLOW_LIST: readonly AllowedVariable[] = [
  ...BASE_ALLOW_LIST,
  "SHELL", "HOSTNAME", "XDG_RUNTIME_DIR",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
  "ALERTS_*", "VAULT_*", "AWS_*", "AZURE_*", "GOOGLE_*", "CLOUDSDK_*", "ACTIONS_ID_TOKEN_REQUEST_*",
];
/**
 * The one secret the tool knows of that the token command is documented to read (the README's
 * OAuth client-credentials example): the shared helper withholds every known secret, so it is put
 * back here, by name.
 */
const TOKEN_COMMAND_SECRET = "ALERTS_CLIENT_SECRET";
/** Never given to the token command: what makes Node print environments (the helper withholds the token, the command and the plan key). */
const TOKEN_COMMAND_WITHHELD = new Set(["NODE_OPTIONS", "NODE_DEBUG"]);

/**
 * The token command's environment, from an allow-list so that no secret the tool does not know of
 * reaches a command that runs none of the user's code (the shared helper
 * src/shared/child-env.ts `childEnvironment`): the base every child gets, the variables token
 * commands are documented to read (above), `ALERTS_CLIENT_SECRET`, and the names listed in
 * ALERT_RULE_USERS_TOKEN_COMMAND_ENV; never the static token, the plan key or the command line
 * itself. Names compare without case (Windows).
 */
export function tokenCommandEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const extra = (env[ENV_TOKEN_COMMAND_ENV] ?? "").split(/[\s,]+/).filter((name) => name !== "" && !TOKEN_COMMAND_WITHHELD.has(name.toUpperCase()));
  const base = childEnvironment([...TOKEN_COMMAND_ALLOW_LIST, ...extra], {}, env);
  for (const name of Object.keys(base)) if (TOKEN_COMMAND_WITHHELD.has(name.toUpperCase())) delete base[name];
  const secret = env[TOKEN_COMMAND_SECRET];
  return secret === undefined ? base : { ...base, [TOKEN_COMMAND_SECRET]: secret };
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
export function readCommandOutput(output: CommandOutput, fetchedAt: number, timeoutMs: number, origin: string, deadlineSource?: string): CachedToken {
  const fail: Fail = (what, withStderr) => {
    const tail = withStderr ? stderrTail(output.stderr, tokenCandidates(output.stdout)) : "";
    return new CredentialError(`${origin} ${what}.${tail === "" ? "" : ` Its stderr:\n${tail}`}`);
  };
  checkCommandRan(output, timeoutMs, deadlineSource, fail);
  const text = output.stdout.trim();
  if (text === "") throw fail("printed nothing; it must print the bearer token, or JSON {\"token\": \"...\", \"expiresAt\": \"<ISO 8601>\"}", true);
  if (text.startsWith("{")) return jsonCommandToken(text, fetchedAt, fail);
  if (/[\s\u0000-\u001f\u007f]/.test(text)) {
    throw fail("printed more than one word; it must print the bearer token alone (one line, no spaces), or JSON {\"token\": \"...\", \"expiresAt\": \"...\"}", true);
  }
  registerSecret(text);
  return { token: text, fetchedAt, expiresAt: undefined };
}

/** The error of a token command that failed: `what` it did, after its origin; its stderr's end too when `withStderr`. */
type Fail = (what: string, withStderr: boolean) => CredentialError;

/** Throws unless the command ran to a zero exit: not started, stopped at the run's deadline or its timeout, failed. */
function checkCommandRan(output: CommandOutput, timeoutMs: number, deadlineSource: string | undefined, fail: Fail): void {
  if (output.spawnError !== undefined) throw fail(`could not be started (${output.spawnError}); check that sh is on PATH`, false);
  if (output.timedOut && deadlineSource !== undefined) throw fail(`was stopped at the run's deadline (${deadlineSource}), after ${timeoutMs / 1000} s`, true);
  if (output.timedOut) throw fail(`did not finish within ${timeoutMs / 1000} s and was stopped (with every process it started in its group); make it faster, or raise ${ENV_TOKEN_COMMAND_TIMEOUT_SECONDS}`, true);
  if (output.exitCode !== 0) {
    const how = output.exitCode === null ? `was killed by ${output.signal ?? "a signal"}` : `exited with status ${output.exitCode}`;
    throw fail(`${how}; run it by hand to see why (its output is never shown, only its stderr)`, true);
  }
}

/**
 * The token and its expiry from the command's JSON answer. Whatever a token-like field holds is
 * registered for redaction first, whether or not the rest is valid.
 */
function jsonCommandToken(text: string, fetchedAt: number, fail: Fail): CachedToken {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail("printed text that starts with '{' but is not valid JSON; it must print {\"token\": \"...\", \"expiresAt\": \"<ISO 8601>\"} (or \"expiresIn\": seconds), or the bare token", true);
  }
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
  return { token, fetchedAt, expiresAt: expiryOf(expiresAt, expiresIn, fetchedAt, fail) };
}

/** When the token expires, from `expiresAt` or `expiresIn`; undefined when neither is given. Refuses one already past. */
function expiryOf(expiresAt: string | undefined, expiresIn: number | undefined, fetchedAt: number, fail: Fail): number | undefined {
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
  return expires;
}

/** The command as messages show it: one line, at most 80 characters, registered secrets removed. */
function describeCommand(command: string): string {
  const line = redactString(command.replace(/\s+/g, " ").trim());
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/**
 * What the command's stdout may hold of a token, parsed or not: the whole of it when it is one
 * word, the value of a `token` or `access_token` field (its quote unclosed too), and every long
 * run of token characters. Used to redact its stderr in that very run (`sh -x` prints `+ tok=...`
 * before the JSON that then fails to parse).
 */
function tokenCandidates(stdout: string): string[] {
  const text = stdout.trim();
  const found = new Set<string>();
  if (text !== "" && !/\s/.test(text)) found.add(text);
  for (const m of text.matchAll(/"(?:access_)?token"\s*:\s*"((?:[^"\\]|\\.)*)/gi)) if (m[1] !== undefined) found.add(m[1]);
  for (const m of text.matchAll(/[A-Za-z0-9\-._~+/=]{12,}/g)) found.add(m[0]);
  return [...found].filter((t) => t.length >= 4);
}

/** A value assigned to a name that says token, secret or password (`tok=...`, `"token": "..."`, `access_token: ...`). */
const TOKEN_FIELD = /((?:^|[^A-Za-z0-9])[A-Za-z_-]*(?:tok|token|secret|passw(?:or)?d|pwd)[A-Za-z0-9_-]*["']?\s*[:=]\s*["']?)[^\s"',;&]{4,}/gi;
/** ANSI CSI and OSC sequences, other ESC sequences, and the 8-bit CSI. */
const ESCAPE_SEQUENCES = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
/** Control characters but tab and line feed. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text safe to show on a terminal: escape sequences and control characters (not tab, line feed) removed. */
export function printableText(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, "").replace(CONTROL_CHARACTERS, "");
}

function stderrTail(stderr: string, fresh: readonly string[]): string {
  const text = redactString(printableText(stderr).trim(), fresh).replace(TOKEN_FIELD, `$1${REDACTED}`);
  if (text === "") return "";
  const tail = text.length > STDERR_TAIL_CHARS ? `...${text.slice(-STDERR_TAIL_CHARS)}` : text;
  return tail
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** After `sh` exited: how long its stdout may stay open (a child it left holding it) before the run ends anyway. */
const EXIT_GRACE_MS = 1000;

/**
 * Runs `sh -c command` in its own process group, stdin closed; at the time limit the whole group
 * is killed (a `sleep` the shell started included) and the run ends at once, even when a child in
 * a session of its own (`setsid`) still holds the output open: our ends of the pipes are closed.
 * Once `sh` has exited the run ends when its output closes, or {@link EXIT_GRACE_MS} later (the
 * group killed then too). Reads at most 64 KiB of stdout.
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
    let exited: { code: number | null; signal: string | null } | null = null;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // already gone
      }
    };
    const finish = (result: CommandOutput): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      finish({ exitCode: exited?.code ?? null, signal: exited?.signal ?? "SIGKILL", stdout, stderr, timedOut });
    }, timeoutMs);
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
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      grace = setTimeout(() => {
        killGroup();
        finish({ exitCode: code, signal, stdout, stderr, timedOut });
      }, EXIT_GRACE_MS);
    });
    child.on("close", (exitCode, signal) => {
      finish({ exitCode, signal, stdout, stderr, timedOut });
    });
  });
