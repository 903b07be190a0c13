/**
 * The provider block → the one session of this provider process (src/io/workflow/session/connect.ts): one
 * rate limiter and one token source for every resource Terraform asks about, however many at once.
 */
import type { OpenSession, SessionRequest } from "../io/workflow/session/connect";
import type { SendClock } from "../api/http/rate-limiter";
import { RuleLookup, openSession, readReviewedPlans } from "../io/workflow";
import { TerraformRun } from "../io/terraform-run";
import type { Plan } from "../core/engine/plan-schema";
import { BLOCK_WORDS, DEFAULT_TIMEOUT_SECONDS, MAX_RUN_DEADLINE_SECONDS, messageOf, parseDuration } from "../io/door-words";
import { UNKNOWN, type Diagnostic } from "./protocol";
import type { ProviderBlock } from "./framework/server";
import { isOffline } from "./framework/offline";
import { stringValue } from "./framework/values";
import { lockedArgumentErrors } from "./locked";
import { PROVIDER_ARGUMENTS, providerModel, type ProviderModel } from "./provider-model";

/** The environment variables the provider block's connection arguments stand for (docs/contract.md §11.1). */
const ARGUMENT_VARIABLES = {
  baseUrl: "ALERTS_API_URL",
  tenantId: "ALERTS_TENANT_ID",
  token: "ALERTS_API_TOKEN",
  tokenCommand: "ALERTS_API_TOKEN_COMMAND",
} as const;

/** The session of a configured provider, and the stop of Terraform's Ctrl-C. */
export interface ProviderRun {
  readonly session: OpenSession;
  readonly lookup: RuleLookup;
  readonly signal: AbortSignal;
  /** Rule ID → the declarations planned for it in this process (two resources for one rule are refused). */
  readonly planned: Map<string, Set<string>>;
  /** What the provider processes of this Terraform command share (src/io/terraform-run.ts). */
  readonly terraform: TerraformRun;
  /**
   * The reviewed plans every plan of a change is held against (ALERT_RULE_USERS_REVIEWED_PLANS: a
   * merge job, docs/provider-workflows.md); null when there is no review to hold plans against.
   */
  readonly reviewed: readonly Plan[] | null;
}

/**
 * The pacing arguments and the variables they stand for: the CLI's deadlines (in seconds,
 * src/api/http/read-limits.ts) and the provider's own ALERT_RULE_USERS_MAX_RPS.
 */
const PACING_VARIABLES = {
  maxRps: "ALERT_RULE_USERS_MAX_RPS",
  requestDeadline: "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS",
  runDeadline: "ALERT_RULE_USERS_RUN_DEADLINE_SECONDS",
} as const;

interface Pacing {
  readonly maxRps?: { readonly rps: number; readonly given: string };
  readonly requestSeconds?: number;
  readonly runSeconds?: number;
}

/** max_rps, request_timeout and run_timeout of the block, else of the environment; every problem at once, each naming where the value came from. */
export function pacingOf(config: ProviderModel, env: NodeJS.ProcessEnv): Pacing | Diagnostic[] {
  const problems: Diagnostic[] = [];
  let maxRps: Pacing["maxRps"];
  const rpsValue = config.maxRps;
  const rpsEnv = env[PACING_VARIABLES.maxRps]?.trim();
  const rps = typeof rpsValue === "number" ? rpsValue : rpsValue === null ? (rpsEnv === undefined || rpsEnv === "" ? undefined : Number(rpsEnv)) : Number.NaN;
  const rpsGiven = rpsValue !== null ? `max_rps = ${JSON.stringify(rpsValue)}` : `${PACING_VARIABLES.maxRps}=${rpsEnv ?? ""}`;
  if (rps !== undefined) {
    if (Number.isFinite(rps) && rps > 0 && rps <= 100_000) maxRps = { rps, given: rpsGiven };
    else problems.push({ severity: "error", summary: "Invalid max_rps", detail: `${rpsGiven}: max_rps takes a number of requests a second above 0 (at most 100000), e.g. 2 or 0.5.`, ...(rpsGiven.startsWith("max_rps") ? { attribute: ["max_rps"] } : {}) });
  }
  const seconds = (argument: string, value: ProviderModel["requestDeadline"], max: number): number | undefined => {
    if (typeof value !== "string" || value.trim() === "") return undefined; // the environment's value is read (and checked) by the session
    const ms = parseDuration(value);
    if (ms === undefined || ms / 1000 > max) {
      problems.push({ severity: "error", summary: `Invalid ${argument}`, detail: `${argument} = ${JSON.stringify(value)} is not a duration of at most ${max} s: write a whole number and a unit, s, m, h or d ("90s", "5m", "2h").`, attribute: [argument] });
      return undefined;
    }
    return ms / 1000;
  };
  const requestSeconds = seconds(PROVIDER_ARGUMENTS.requestDeadline, config.requestDeadline, 86_400);
  const runSeconds = seconds(PROVIDER_ARGUMENTS.runDeadline, config.runDeadline, MAX_RUN_DEADLINE_SECONDS);
  if (problems.length > 0) return problems;
  return { ...(maxRps === undefined ? {} : { maxRps }), ...(requestSeconds === undefined ? {} : { requestSeconds }), ...(runSeconds === undefined ? {} : { runSeconds }) };
}

/**
 * The session request of a provider block: each argument set overrides its environment variable;
 * a token set in the block drops a token command of the environment and the other way round, so
 * that the block decides (two sources in the environment alone are still refused, as in the CLI).
 */
export function sessionRequest(
  config: ProviderModel,
  env: NodeJS.ProcessEnv,
  cwd: string,
  onWarning: (m: string) => void,
  log: (line: string) => void,
): SessionRequest | Diagnostic[] {
  const unknown = Object.entries(PROVIDER_ARGUMENTS).flatMap(([field, name]) => (config[field as keyof ProviderModel] === UNKNOWN ? [name] : []));
  if (unknown.length > 0) {
    return unknown.map((name) => ({ severity: "error", summary: "Provider argument not known yet", detail: `${name} depends on a value known only after apply; the provider needs it to read the lists at plan time. Set it from a variable or the environment.`, attribute: [name] }));
  }
  const overlay: Record<string, string | undefined> = { ...env };
  const given = (value: ProviderModel["baseUrl"]): string | undefined => {
    const text = stringValue(value);
    return text !== null && text.trim() !== "" ? text : undefined;
  };
  // url and token_command set in the block are passed as the CLI's flags are, so that a message
  // about them names the block's argument (BLOCK_WORDS), never the environment variable
  for (const argument of ["tenantId", "token"] as const) {
    const value = given(config[argument]);
    if (value !== undefined) overlay[ARGUMENT_VARIABLES[argument]] = value;
  }
  if (given(config.token) !== undefined) delete overlay[ARGUMENT_VARIABLES.tokenCommand];
  if (given(config.tokenCommand) !== undefined) {
    delete overlay[ARGUMENT_VARIABLES.token];
    delete overlay[ARGUMENT_VARIABLES.tokenCommand];
  }
  const pacing = pacingOf(config, env);
  if (Array.isArray(pacing)) return pacing;
  if (pacing.requestSeconds !== undefined) overlay[PACING_VARIABLES.requestDeadline] = String(pacing.requestSeconds);
  if (pacing.runSeconds !== undefined) overlay[PACING_VARIABLES.runDeadline] = String(pacing.runSeconds);
  const maxRps = pacing.maxRps;
  const url = given(config.baseUrl);
  const tokenCommand = given(config.tokenCommand);
  return {
    env: overlay,
    cwd,
    ...(url === undefined ? {} : { baseUrl: url }),
    ...(tokenCommand === undefined ? {} : { tokenCommand }),
    ...(maxRps === undefined ? {} : { maxRps }),
    // one attempt never outlasts a request_timeout shorter than the attempt's own default
    ...(pacing.requestSeconds !== undefined && pacing.requestSeconds < DEFAULT_TIMEOUT_SECONDS ? { timeoutSeconds: pacing.requestSeconds } : {}),
    timeoutGiven: PACING_VARIABLES.requestDeadline,
    words: BLOCK_WORDS,
    engine: { parallelism: 4, pageSize: 100, batchSize: 100 },
    onWarning,
    requestHook: ({ rateLimiter }) => (event) => {
      if (event.outcome !== "retry") return;
      const rps = event.status === 429 ? ` (sending at most ${(rateLimiter.state().rps ?? 0).toFixed(2)} requests/s from now on)` : "";
      log(`[WARN] ${event.operation}: ${event.status === undefined ? (event.failure ?? "no response") : `HTTP ${event.status}`}; retrying (attempt ${event.attempt + 1})${rps}`);
    },
  };
}

/**
 * What the job's environment decides before any session: a locked provider refuses `url`, `token`
 * and `token_command` (src/provider/locked.ts); an offline one opens no session (src/provider/framework/offline.ts).
 */
function beforeSession(config: ProviderModel, env: NodeJS.ProcessEnv): { run: null; offline: boolean; diagnostics: Diagnostic[] } | null {
  const refused = lockedArgumentErrors(config, env);
  if (refused.length > 0) return { run: null, offline: false, diagnostics: refused };
  return isOffline(env) ? { run: null, offline: true, diagnostics: [] } : null;
}

/** Opens the session of a provider block, or says (in the block's words) what is missing. */
export async function configureRun(config: ProviderModel, env: NodeJS.ProcessEnv, cwd: string, signal: AbortSignal, log: (line: string) => void): Promise<{ run: ProviderRun | null; offline?: boolean; diagnostics: Diagnostic[] }> {
  const decided = beforeSession(config, env);
  if (decided !== null) return decided;
  let reviewed: Plan[] | null;
  try {
    reviewed = readReviewedPlans(env);
  } catch (err) {
    return { run: null, diagnostics: [{ severity: "error", summary: "The reviewed plans cannot be read", detail: messageOf(err) }] };
  }
  const warnings: Diagnostic[] = [];
  let terraform: TerraformRun;
  try {
    terraform = TerraformRun.current(env);
  } catch (err) {
    return { run: null, diagnostics: [{ severity: "error", summary: "Unsafe run directory", detail: messageOf(err) }] };
  }
  const request = sessionRequest(config, env, cwd, (message) => warnings.push({ severity: "warning", summary: "Provider configuration", detail: message }), log);
  if (Array.isArray(request)) return { run: null, diagnostics: request };
  try {
    // one send clock per tenant for every provider process of this command: max_rps bounds them
    // together, and a limit one of them learns from the service's 429s paces the others at once
    let clock: SendClock | undefined;
    const opened = await openSession({ ...request, sendClock: ({ tenantId }) => (clock = terraform.sendClock(tenantId)) });
    const learned = clock?.peek().learned;
    if (learned !== undefined) {
      opened.rateLimiter.startFrom(learned);
      log(`[INFO] starting at the service's limit measured earlier in this Terraform command: ${learned.limit.toFixed(2)} requests/s`);
    }
    // Every plan of this process resolves its rules through the one lookup: the resources
    // Terraform plans at once share their searches.
    const lookup = new RuleLookup(opened, () => terraform.declaredRules());
    return { run: { session: opened, lookup, signal, planned: new Map(), terraform, reviewed }, diagnostics: warnings };
  } catch (err) {
    const message = messageOf(err);
    return { run: null, diagnostics: [...warnings, { severity: "error", summary: "The alertrules provider cannot connect", detail: message }] };
  }
}

/** The provider block as the server configures it: its model, and the run a configuration opens (offline: none). */
export function providerBlock(env: NodeJS.ProcessEnv, cwd: string, log: (line: string) => void): ProviderBlock<ProviderModel, ProviderRun> {
  return {
    model: providerModel,
    async configure(config, stop) {
      const { run, offline, diagnostics } = await configureRun(config, env, cwd, stop, log);
      return { run: offline === true ? { kind: "offline" } : run === null ? { kind: "unconfigured" } : { kind: "online", run }, diagnostics };
    },
  };
}
