/**
 * One session, opened in one place: the rate limiter, the connection, the token source, the
 * clients and the secrets of a run, from a plain request. The provider builds that request from
 * its block (src/provider/configure.ts) and calls {@link openSession}; the CLI hands plain
 * {@link SessionSettings} to a command's run (src/io/workflow/session/reported-session.ts opens it).
 * Nothing else assembles a client.
 */
import {
  DEFAULT_RETRY_POLICY,
  ENV_REQUEST_DEADLINE_SECONDS,
  ENV_RUN_DEADLINE_SECONDS,
  RUN_DEADLINE_FLAG,
  RateLimiter,
  RuleListClient,
  TriageClient,
  connectionSecrets,
  openTokenSource,
  paceBeyondDeadline,
  resolveConnection,
  resolveReadLimits,
} from "../../../api";
import { redactStrings } from "../../../api/http/redact";
import type { SendClock } from "../../../api/http/rate-limiter";
import type { ConnectionConfig, RequestHook, RetryPolicy, RunDeadline } from "../../../api";
import { UsageError } from "../../../errors";
import { applyPlan } from "../../execute";
import { readAgain } from "../../fresh-read";
import type { Session } from "./session";
import { DEFAULT_TIMEOUT_SECONDS } from "../../door-words";
import type { SettingWords } from "../../../shared/field-names";

/** What a front door asks for, as plain data: where the service is, how to get the token, and how to pace. */
export interface SessionSettings {
  /** The environment the connection falls back to (ALERTS_API_URL, ALERTS_API_TOKEN, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths (a token file) and the token command run. */
  readonly cwd: string;
  /** Overrides ALERTS_API_URL. @default - the environment */
  readonly baseUrl?: string | undefined;
  /** Overrides ALERTS_TENANT_ID. @default - the environment */
  readonly tenantId?: string | undefined;
  /** An absolute path to read the token from. @default - the environment or a token command */
  readonly tokenFile?: string | undefined;
  /** Overrides ALERTS_API_TOKEN_COMMAND. @default - the environment */
  readonly tokenCommand?: string | undefined;
  /** How long one HTTP attempt may take. @default 30 */
  readonly timeoutSeconds?: number | undefined;
  /** Never more than this many requests a second; how it was given, for messages. @default - no cap, adapts to 429s */
  readonly maxRps?: { readonly rps: number; readonly given: string } | undefined;
  /** The deadline of the whole run in seconds, from `--run-deadline`. @default - ALERT_RULE_USERS_RUN_DEADLINE_SECONDS, else none */
  readonly runDeadlineSeconds?: number | undefined;
  /** What the timeout was given as, for messages. @default "--timeout" */
  readonly timeoutGiven?: string | undefined;
  /** The front door's words for the connection's settings, which messages name them by. @default - the CLI's flags */
  readonly words?: SettingWords | undefined;
  readonly engine: { readonly parallelism: number; readonly pageSize: number; readonly batchSize: number };
  /** The retry policy. @default - DEFAULT_RETRY_POLICY (doctor asks for one attempt, to report a failure as it is) */
  readonly retry?: Partial<RetryPolicy> | undefined;
}

/**
 * Settings a front door could not make (a flag at fault): the workflow throws `invalid` where the
 * session would open, so that it stops the run at the same step as a failure to connect.
 */
export interface InvalidSettings {
  readonly invalid: unknown;
}

/** The settings, and who hears about the session: its warnings, every request's outcome, the progress of the long phases. */
export interface SessionRequest extends SessionSettings {
  /** Told about settings that work but are unsafe (a token file others can read). */
  readonly onWarning: (message: string) => void;
  /** Sees every request's outcome (a retry notice on a terminal, a log line in the provider). */
  readonly requestHook?: ((context: RequestContext) => RequestHook) | undefined;
  /** Progress of the long phases. @default - none */
  readonly onProgress?: Session["onProgress"];
  /**
   * The send clock of the connection's tenant, where several processes share one rate (the
   * provider's processes of one Terraform command). @default - the limiter's own
   */
  readonly sendClock?: ((connection: { readonly baseUrl: string; readonly tenantId: string }) => SendClock) | undefined;
}

/** What a request hook may use to describe a retry. */
export interface RequestContext {
  readonly baseUrl: string;
  readonly retryPolicy: RetryPolicy;
  readonly rateLimiter: RateLimiter;
}

/** A connected run: the workflow's Session plus what the front door may show or hand on. */
export interface OpenSession extends Session {
  /** The limiter every request of the session goes through (its state, for progress lines). */
  readonly rateLimiter: RateLimiter;
  /** The triage client on the same transport (same limiter, token and deadlines). */
  readonly triage: () => TriageClient;
  /** The secrets of this connection, for redactions that take a list (a static token; a command's tokens are registered as they arrive). */
  readonly secrets: readonly string[];
}

/**
 * Resolves the connection and builds the clients. Every attempt of the run goes through one rate
 * limiter: capped by `maxRps` when given, slowing down by itself on the service's 429s always
 * (src/api/http/rate-limiter.ts). A token command is run here for the first token, so that a
 * failing one stops the run before any request. Secrets are registered for redaction by
 * resolveConnection and the token source, once.
 */
export async function openSession(request: SessionRequest): Promise<OpenSession> {
  const timeoutSeconds = request.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const connection: ConnectionConfig = resolveConnection({
    env: request.env,
    baseUrl: request.baseUrl,
    tenantId: request.tenantId,
    tokenFile: request.tokenFile,
    tokenCommand: request.tokenCommand,
    onWarning: request.onWarning,
    words: request.words,
  });
  const rateLimiter = new RateLimiter({ maxRps: request.maxRps?.rps, clock: request.sendClock?.({ baseUrl: connection.baseUrl, tenantId: connection.tenantId }) });
  // The body cap, the overall deadline of a request and the most results of a search (src/api/http/read-limits.ts).
  const limits = resolveReadLimits(request.env);
  const onRequest = request.requestHook?.({ baseUrl: connection.baseUrl, retryPolicy: DEFAULT_RETRY_POLICY, rateLimiter });
  // The overall deadline always leaves room for one whole attempt of the timeout.
  const requestDeadlineMs = Math.max(limits.requestDeadlineMs, timeoutSeconds * 1000);
  if (request.maxRps !== undefined) {
    const deadlineGiven = requestDeadlineMs > limits.requestDeadlineMs ? (request.timeoutGiven ?? "--timeout") : ENV_REQUEST_DEADLINE_SECONDS;
    const tooSlow = paceBeyondDeadline(request.maxRps.rps, requestDeadlineMs, request.maxRps.given, deadlineGiven, request.words);
    if (tooSlow !== null) throw new UsageError(`alert-rule-users: ${tooSlow}`);
  }
  const runDeadline = runDeadlineOf(request.runDeadlineSeconds, limits.runDeadlineMs);
  const tokenSource = await openTokenSource(connection, { env: request.env, cwd: request.cwd, runDeadline, onWarning: request.onWarning });
  const client = new RuleListClient({
    ...connection,
    tokenSource,
    ...limits,
    requestDeadlineMs,
    runDeadline,
    timeoutMs: timeoutSeconds * 1000,
    ...(request.retry === undefined ? {} : { retry: request.retry }),
    ...(onRequest === undefined ? {} : { onRequest }),
    rateLimiter,
  });
  return {
    ...connectedSession(client, { baseUrl: connection.baseUrl, tenantId: connection.tenantId }, request.engine, request.onProgress),
    rateLimiter,
    triage: () => TriageClient.from(client),
    secrets: connectionSecrets(connection),
  };
}

/**
 * The session of a connected client: its settings, and its reads, sends and redactions bound to
 * the client, the parallelism and the progress of this run.
 */
export function connectedSession(
  client: RuleListClient,
  connection: Session["connection"],
  engine: SessionSettings["engine"],
  onProgress?: Session["onProgress"],
): Session {
  return {
    client,
    connection,
    ...engine,
    ...(onProgress === undefined ? {} : { onProgress }),
    readAgain: (rules) => readAgain(client, rules, engine.parallelism),
    send: (plan, options) =>
      applyPlan(plan, client, { ...options, parallelism: engine.parallelism, onProgress: (done, total) => onProgress?.("apply", done, total) }),
    redact: (value, secrets = []) => redactStrings(value, secrets),
  };
}

/**
 * The deadline of the run: `seconds` (from `--run-deadline`), else ALERT_RULE_USERS_RUN_DEADLINE_SECONDS,
 * counted from now (when the session opens); undefined when neither is given.
 */
export function runDeadlineOf(seconds: number | undefined, envMs: number | undefined, now: number = Date.now()): RunDeadline | undefined {
  if (seconds !== undefined) return { at: now + seconds * 1000, ms: seconds * 1000, source: RUN_DEADLINE_FLAG };
  return envMs === undefined ? undefined : { at: now + envMs, ms: envMs, source: ENV_RUN_DEADLINE_SECONDS };
}
