/**
 * The bounds of every read, so that no answer of the service can make a run endless (docs/contract.md
 * §9.3): the largest response body read (64 MiB), the overall deadline of one request with its
 * retries and waits, the most results a paged search may bring, and (when set) the deadline of
 * the whole run. Each can be changed through
 * the environment; the errors that these limits raise name the variable.
 */
import { ConfigError } from "../../errors";
import { ReadLimitError } from "./errors";
import { FLAG_WORDS, type SettingWords } from "../../shared/field-names";

export const ENV_MAX_BODY_MIB = "ALERT_RULE_USERS_MAX_BODY_MIB";
export const ENV_REQUEST_DEADLINE_SECONDS = "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS";
export const ENV_MAX_SEARCH_RESULTS = "ALERT_RULE_USERS_MAX_SEARCH_RESULTS";
/** The deadline of the whole run (every request, retries and waits); `--run-deadline` overrides it. Unset: none. */
export const ENV_RUN_DEADLINE_SECONDS = "ALERT_RULE_USERS_RUN_DEADLINE_SECONDS";
/** The flag of the run's deadline. */
export const RUN_DEADLINE_FLAG = "--run-deadline";
/** Longest run deadline accepted: a week, in seconds. */
export const MAX_RUN_DEADLINE_SECONDS = 604_800;

export interface ReadLimits {
  /** Largest response body read; a larger one stops the request (not retried). @default 64 MiB */
  readonly maxBodyBytes: number;
  /** Overall deadline of one request: every attempt and every wait between them. @default 300000 (5 min) */
  readonly requestDeadlineMs: number;
  /** Most results one paged search may bring. @default 20000 */
  readonly maxSearchResults: number;
  /** Deadline of the whole run: no request goes on past it. @default - none */
  readonly runDeadlineMs?: number | undefined;
}

export const MiB = 1024 * 1024;

export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({
  maxBodyBytes: 64 * MiB,
  requestDeadlineMs: 300_000,
  maxSearchResults: 20_000,
});

/** `1.5 s`, `300 s`: a duration in ms as the messages show it. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** `64 MiB`, `512 KiB`, `100 bytes`. */
export function byteSize(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** A response body over the cap `maxBodyBytes`: the request stops there and is not repeated. */
export function bodyTooLargeError(operation: string, ruleId: string | undefined, maxBodyBytes: number): ReadLimitError {
  return new ReadLimitError({
    operation,
    ruleId,
    limit: "body-size",
    what: `the response body is larger than ${byteSize(maxBodyBytes)}; reading stopped there, and the request is not repeated`,
    fix: `If an answer this large is expected, raise ${ENV_MAX_BODY_MIB} (MiB); otherwise the service is misbehaving.`,
  });
}

/**
 * The limits from the environment (ALERT_RULE_USERS_MAX_BODY_MIB, ..._REQUEST_DEADLINE_SECONDS,
 * ..._MAX_SEARCH_RESULTS, ..._RUN_DEADLINE_SECONDS), the defaults where unset. One ConfigError
 * lists every bad value.
 */
export function resolveReadLimits(env: Readonly<Record<string, string | undefined>>): ReadLimits {
  const problems: string[] = [];
  const read = (name: string, fallback: number, max: number, unit: string): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      problems.push(`${name} must be a whole number of ${unit} from 1 to ${max}, got '${raw}'; fix or unset it (default ${fallback}).`);
      return fallback;
    }
    return Number(raw);
  };
  let limits: ReadLimits = {
    maxBodyBytes: read(ENV_MAX_BODY_MIB, DEFAULT_READ_LIMITS.maxBodyBytes / MiB, 4096, "MiB") * MiB,
    requestDeadlineMs: read(ENV_REQUEST_DEADLINE_SECONDS, DEFAULT_READ_LIMITS.requestDeadlineMs / 1000, 86_400, "seconds") * 1000,
    maxSearchResults: read(ENV_MAX_SEARCH_RESULTS, DEFAULT_READ_LIMITS.maxSearchResults, 10_000_000, "results"),
  };
  const runDeadline = env[ENV_RUN_DEADLINE_SECONDS]?.trim();
  if (runDeadline !== undefined && runDeadline !== "") {
    const ok = /^\d+$/.test(runDeadline) && Number(runDeadline) >= 1 && Number(runDeadline) <= MAX_RUN_DEADLINE_SECONDS;
    if (ok) limits = { ...limits, runDeadlineMs: Number(runDeadline) * 1000 };
    else problems.push(`${ENV_RUN_DEADLINE_SECONDS} must be a whole number of seconds from 1 to ${MAX_RUN_DEADLINE_SECONDS}, got '${runDeadline}'; fix or unset it (default: no run deadline).`);
  }
  if (problems.length > 0) throw new ConfigError(`Read limits are invalid:\n- ${problems.join("\n- ")}`);
  return limits;
}

/**
 * Why a pace of `maxRps` requests a second cannot work with a request deadline of
 * `requestDeadlineMs` (one request would have to wait longer for its turn than the whole deadline
 * allows), or null when it can. `flag` is how the pace was given (`--max-rps 0.0001`); `words`, the
 * front door's names for its settings.
 */
export function paceBeyondDeadline(maxRps: number, requestDeadlineMs: number, flag: string, deadlineSource: string, words: SettingWords = FLAG_WORDS): string | null {
  const intervalMs = 1000 / maxRps;
  if (intervalMs < requestDeadlineMs) return null;
  // The slowest pace that fits, rounded up to 4 decimals (so that it is above the bound).
  const slowest = Math.ceil((1000 / requestDeadlineMs) * 10_000) / 10_000;
  return (
    `${flag} sends one request every ${seconds(intervalMs)}, longer than the deadline of one request (${seconds(requestDeadlineMs)}, ${deadlineSource}): ` +
    `not one request could be sent and retried within it. Use ${words.names.maxRps}${words.assign}${slowest} or more, or raise ${words.raiseRequestDeadline}.`
  );
}
