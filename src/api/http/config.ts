/**
 * Connection settings (docs/contract.md §3, §10.2): base URL, bearer token and tenant ID, from the
 * environment (`ALERTS_API_URL`, `ALERTS_API_TOKEN`, `ALERTS_TENANT_ID`), with `--base-url` /
 * `--tenant-id` overriding it. The token comes from exactly one of `--token-file`,
 * `ALERTS_API_TOKEN` or a token command (`--token-command` / `ALERTS_API_TOKEN_COMMAND`,
 * src/api/http/credentials.ts); it is never a flag value.
 */
import { readFileSync, statSync } from "node:fs";
import { ConfigError, UsageError } from "../../errors";
import { ENV_TOKEN_COMMAND, ENV_TOKEN_COMMAND_TIMEOUT_SECONDS, StaticToken, TokenCommand, tokenCommandEnvironment, tokenCommandTimeoutMs, type CommandDeadline, type RunCommand, type TokenSource } from "./credentials";
import { redactString, registerSecret } from "./redact";
import { FLAG_WORDS, type SettingWords } from "../../shared/field-names";

export interface ConnectionConfig {
  /** http(s) URL without credentials and without trailing slash. */
  readonly baseUrl: string;
  /** The static token (ALERTS_API_TOKEN or --token-file); absent when a token command gives it. */
  readonly token?: string;
  readonly tenantId: string;
  /** The token command and where it was given; present exactly when `token` is absent. */
  readonly tokenCommand?: { readonly command: string; readonly given: string };
}

export const ENV_BASE_URL = "ALERTS_API_URL";
export const ENV_TOKEN = "ALERTS_API_TOKEN";
export const ENV_TENANT_ID = "ALERTS_TENANT_ID";
export { ENV_TOKEN_COMMAND };
/**
 * The client secret of the vendor's OAuth client-credentials flow, as the README's token command
 * reads it: a secret, redacted wherever it appears when it is in the environment.
 */
export const ENV_CLIENT_SECRET = "ALERTS_CLIENT_SECRET";
/** The client ID of that flow (not a secret, but of no use to an app being synthesized). */
export const ENV_CLIENT_ID = "ALERTS_CLIENT_ID";

/**
 * Every environment variable that carries a credential or what makes one: the token, the token
 * command, its timeout, and the OAuth client of the README's token command. One list, for code
 * that must keep them from processes that do not talk to the service (the synth child).
 */
export const CREDENTIAL_ENV_VARS: readonly string[] = Object.freeze([
  ENV_TOKEN,
  ENV_TOKEN_COMMAND,
  ENV_TOKEN_COMMAND_TIMEOUT_SECONDS,
  ENV_CLIENT_ID,
  ENV_CLIENT_SECRET,
]);

/** Registers the secrets of the environment for redaction: the token and the OAuth client secret. */
export function registerEnvironmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets = [env[ENV_TOKEN]?.trim(), env[ENV_CLIENT_SECRET]?.trim()].filter((s): s is string => s !== undefined && s !== "");
  for (const secret of secrets) registerSecret(secret);
  return secrets;
}

export interface ResolveConnectionOptions {
  /** Usually process.env. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--base-url`; overrides ALERTS_API_URL. */
  readonly baseUrl?: string | undefined;
  /** `--tenant-id`; overrides ALERTS_TENANT_ID. */
  readonly tenantId?: string | undefined;
  /** `--token-file`; the token is read from it (trimmed). */
  readonly tokenFile?: string | undefined;
  /** `--token-command`; overrides ALERTS_API_TOKEN_COMMAND. */
  readonly tokenCommand?: string | undefined;
  /** @default - fs.readFileSync(path, "utf8") */
  readonly readFile?: ((path: string) => string) | undefined;
  /** The permission bits of the token file. @default - fs.statSync(path).mode; none on Windows */
  readonly fileMode?: ((path: string) => number | undefined) | undefined;
  /** Told about settings that work but are unsafe (a token file others can read). @default - ignored */
  readonly onWarning?: ((message: string) => void) | undefined;
  /** The front door's words for its settings, which every message names them by. @default - the CLI's flags (FLAG_WORDS) */
  readonly words?: SettingWords | undefined;
}

/**
 * Resolves the connection settings. Throws one ConfigError listing every missing or invalid
 * setting, each with how to set it; messages never contain the token.
 */
export function resolveConnection(options: ResolveConnectionOptions): ConnectionConfig {
  const words = options.words ?? FLAG_WORDS;
  const url = resolveBaseUrl(options, words);
  const source = resolveTokenSource(options, words);
  const tenantId = nonEmpty(options.tenantId) ?? nonEmpty(options.env[ENV_TENANT_ID]);
  const problems = [
    ...(url.problem === undefined ? [] : [url.problem]),
    ...source.problems,
    ...(tenantId === undefined
      ? [`${ENV_TENANT_ID} is not set: set the environment variable ${ENV_TENANT_ID} to the tenant ID, or ${words.give.tenantId}.`]
      : []),
  ];

  // From here on every redaction in the process removes it, in every form (src/api/http/redact.ts).
  registerSecret(source.token);
  const secrets = source.token === undefined ? [] : [source.token];
  if (source.ways.length > 1) {
    const twoWays = `The token is given ${source.ways.length} ways: ${source.ways.join(" and ")}. Give exactly one: ${words.oneToken}; unset or drop the others.`;
    // Alone, a usage error; beside other problems, one of the list (all reported at once).
    if (problems.length === 0) throw new UsageError(redactString(twoWays, secrets));
    problems.unshift(twoWays);
  }
  const { baseUrl } = url;
  const { token, tokenCommand } = source;
  if (problems.length > 0 || baseUrl === undefined || (token === undefined && tokenCommand === undefined) || tenantId === undefined) {
    throw new ConfigError(redactString(`Connection settings are incomplete:\n- ${problems.join("\n- ")}`, secrets));
  }
  return token !== undefined ? { baseUrl, token, tenantId } : { baseUrl, tenantId, tokenCommand: tokenCommand! };
}

/** The service's base URL from the door's setting (`--base-url`) or ALERTS_API_URL, checked; or what is wrong with it. */
function resolveBaseUrl(options: ResolveConnectionOptions, words: SettingWords): { readonly baseUrl?: string; readonly problem?: string } {
  const rawUrl = nonEmpty(options.baseUrl) ?? nonEmpty(options.env[ENV_BASE_URL]);
  if (rawUrl === undefined) {
    return { problem: `${ENV_BASE_URL} is not set: set the environment variable ${ENV_BASE_URL} to the service's base URL, or ${words.give.baseUrl}.` };
  }
  const checked = checkBaseUrl(rawUrl);
  if (checked.ok) return { baseUrl: checked.url };
  return { problem: `${nonEmpty(options.baseUrl) !== undefined ? words.names.baseUrl : ENV_BASE_URL} is invalid: ${checked.reason}` };
}

/** Where the token comes from: its one source (the first given, by precedence), every way it was given, and what is wrong. */
interface TokenSourceChoice {
  readonly token?: string;
  readonly tokenCommand?: ConnectionConfig["tokenCommand"];
  /** How the token was given (`--token-file F`, ALERTS_API_TOKEN, the command), in the order of precedence. */
  readonly ways: readonly string[];
  readonly problems: readonly string[];
}

/**
 * One source of the token: `--token-file`, else ALERTS_API_TOKEN, else a token command. The
 * environment's token is registered for redaction at once; a token read from a file, by the caller.
 */
function resolveTokenSource(options: ResolveConnectionOptions, words: SettingWords): TokenSourceChoice {
  const tokenFile = nonEmpty(options.tokenFile);
  const envToken = nonEmpty(options.env[ENV_TOKEN]);
  const flagCommand = nonEmpty(options.tokenCommand);
  const command = flagCommand ?? nonEmpty(options.env[ENV_TOKEN_COMMAND]);
  const commandGiven = flagCommand !== undefined ? words.names.tokenCommand : ENV_TOKEN_COMMAND;
  const ways = [
    ...(tokenFile === undefined ? [] : [`${words.names.token} ${tokenFile}`]),
    ...(envToken === undefined ? [] : [ENV_TOKEN]),
    ...(command === undefined ? [] : [commandGiven]),
  ];
  registerSecret(envToken);
  if (tokenFile !== undefined) {
    const read = readToken(tokenFile, options.readFile);
    if (!read.ok) return { ways, problems: [read.reason] };
    const warning = tokenFileExposure(tokenFile, options.fileMode ?? defaultFileMode);
    if (warning !== null) options.onWarning?.(warning);
    return singleLine(read.token, `${words.names.token} ${tokenFile}`, ways);
  }
  if (envToken !== undefined) return singleLine(envToken, ENV_TOKEN, ways);
  if (command !== undefined) return { tokenCommand: { command, given: commandGiven }, ways, problems: [] };
  return {
    ways,
    problems: [
      `${ENV_TOKEN} is not set: set the environment variable ${ENV_TOKEN} to the bearer token, or ${words.give.token}.`,
    ],
  };
}

/** The token, unless it holds whitespace or control characters (then why, naming where it came from). */
function singleLine(token: string, from: string, ways: readonly string[]): TokenSourceChoice {
  if (!/[\s\u0000-\u001f\u007f]/.test(token)) return { token, ways, problems: [] };
  return { ways, problems: [`The token (from ${from}) contains whitespace or control characters; it must be a single line without spaces.`] };
}

export interface OpenTokenSourceOptions {
  /** The token command's environment (the CLI's own). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string | undefined;
  /** @default - `sh -c` */
  readonly run?: RunCommand | undefined;
  /** @default - Date.now */
  readonly now?: (() => number) | undefined;
  /** The run's deadline: no run of the command goes past it. @default - none */
  readonly runDeadline?: CommandDeadline | undefined;
  /** Told when a renewal failed and the cached token goes on serving. @default - silent */
  readonly onWarning?: ((message: string) => void) | undefined;
}

/**
 * The token source of a resolved connection. For a token command the first token is fetched
 * now, so that a failing command is an error before any request (and any write) is sent.
 */

export async function openTokenSource(config: ConnectionConfig, options: OpenTokenSourceOptions): Promise<TokenSource> {
  if (config.token !== undefined) return new StaticToken(config.token, `${ENV_TOKEN} (or --token-file)`);
  if (config.tokenCommand === undefined) throw new ConfigError(`No token: set ${ENV_TOKEN}, pass --token-file FILE, or give ${ENV_TOKEN_COMMAND}.`);
  // The command gets an environment built from an allow-list (its client ID and secret, say), never
  // the plan key (src/api/http/credentials.ts tokenCommandEnvironment).
  const env = tokenCommandEnvironment(options.env);
  const source = new TokenCommand({
    ...config.tokenCommand,
    env,
    timeoutMs: tokenCommandTimeoutMs(options.env),
    cwd: options.cwd,
    run: options.run,
    now: options.now,
    deadline: options.runDeadline,
    onWarning: options.onWarning,
  });
  await source.token();
  return source;
}

/**
 * The secrets of a connection to pass to a redaction: its static token. A token command's tokens
 * are registered as they arrive (src/api/http/credentials.ts), so every redaction removes them.
 */
export function connectionSecrets(config: ConnectionConfig): string[] {
  return config.token === undefined ? [] : [config.token];
}

/** A token-free description of a connection, for output, logs and plan files. */
export function describeConnection(config: ConnectionConfig): { baseUrl: string; tenantId: string } {
  return { baseUrl: config.baseUrl, tenantId: config.tenantId };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** Checks a base URL: http or https, no credentials, no query or fragment; trailing slashes removed. */
export function checkBaseUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  registerUrlPassword(raw);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `'${withoutCredentials(raw)}' is not a URL; expected something like https://alerts.example.com.` };
  }
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    return {
      ok: false,
      reason: `the URL contains credentials; remove them (${url.origin}) and put the token in ${ENV_TOKEN} or a --token-file.`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `'${withoutCredentials(raw)}' uses ${url.protocol.replace(/:$/, "")}; only http and https are supported.` };
  }
  if (url.search !== "" || url.hash !== "") {
    return { ok: false, reason: `'${url.origin}${url.pathname}' must not have a query string or fragment.` };
  }
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
}

/**
 * The URL without whatever stands between `//` and the last `@`: a password may hold `/`, `@`
 * or `#` (unencoded, which also makes the URL unparsable), so nothing there is shown.
 */
function withoutCredentials(raw: string): string {
  return raw.replace(/\/\/.*@/s, "//");
}

/** Registers the password of a URL (as written and decoded) as a secret, parsable or not. */
export function registerUrlPassword(raw: string | undefined): void {
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/(.*)@/is.exec(raw?.trim() ?? "")?.[1];
  if (userinfo === undefined || !userinfo.includes(":")) return;
  const password = userinfo.slice(userinfo.indexOf(":") + 1);
  registerSecret(password);
  try {
    registerSecret(decodeURIComponent(password));
  } catch {
    // not valid percent-encoding: the password as written is registered
  }
}

function defaultFileMode(path: string): number | undefined {
  if (process.platform === "win32") return undefined;
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}

/** A warning when the group or others may read the token file (never says anything of its content). */
export function tokenFileExposure(path: string, fileMode: (path: string) => number | undefined): string | null {
  const mode = fileMode(path);
  if (mode === undefined || (mode & 0o044) === 0) return null;
  const who = (mode & 0o004) !== 0 ? "every user of this machine" : "its group";
  const octal = (mode & 0o777).toString(8).padStart(4, "0");
  return `--token-file ${path} can be read by ${who} (mode ${octal}); restrict it to its owner: chmod 600 ${path}`;
}

function readToken(path: string, readFile: ((path: string) => string) | undefined): { ok: true; token: string } | { ok: false; reason: string } {
  let text: string;
  try {
    text = (readFile ?? ((p: string) => readFileSync(p, "utf8")))(path);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "unreadable";
    return { ok: false, reason: `--token-file ${path} cannot be read (${code}); check the path and its permissions.` };
  }
  const token = text.trim();
  if (token === "") return { ok: false, reason: `--token-file ${path} is empty; write the bearer token into it.` };
  return { ok: true, token };
}
