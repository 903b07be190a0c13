/**
 * The provider block → the one session of this provider process (src/io/workflow/connect.ts): one
 * rate limiter and one token source for every resource Terraform asks about, however many at once.
 */
import type { OpenSession, SessionRequest } from "../io/workflow";
import { RuleLookup, TerraformRun, openSession } from "../io/workflow";
import { UNKNOWN, type Diagnostic, type ObjectValue } from "./protocol";
import { lockedArgumentErrors } from "./locked";
import { isOffline } from "./offline";

/** The environment variables the provider block's arguments stand for (docs/contract.md §11.1). */
const ARGUMENT_VARIABLES = {
  url: "ALERTS_API_URL",
  tenant_id: "ALERTS_TENANT_ID",
  token: "ALERTS_API_TOKEN",
  token_command: "ALERTS_API_TOKEN_COMMAND",
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
}

/** Messages of the connection settings, in the provider block's words. */
function inProviderWords(message: string): string {
  return message
    .replace(/, or pass --base-url URL/g, ", or set url in the provider block")
    .replace(/, or pass --tenant-id ID/g, ", or set tenant_id in the provider block")
    .replace(/, or pass --token-file FILE, or give a command that prints one \(ALERTS_API_TOKEN_COMMAND or --token-command CMD\)/g, ", or set token_command (ALERTS_API_TOKEN_COMMAND) to a command that prints one")
    .replace(/--base-url/g, "url")
    .replace(/--token-command/g, "token_command");
}

/**
 * The session request of a provider block: each argument set overrides its environment variable;
 * a token set in the block drops a token command of the environment and the other way round, so
 * that the block decides (two sources in the environment alone are still refused, as in the CLI).
 */
export function sessionRequest(config: ObjectValue, env: NodeJS.ProcessEnv, cwd: string, onWarning: (m: string) => void, log: (line: string) => void): SessionRequest | Diagnostic[] {
  const unknown = Object.keys(ARGUMENT_VARIABLES).concat("max_rps").filter((name) => config[name] === UNKNOWN);
  if (unknown.length > 0) {
    return unknown.map((name) => ({ severity: "error", summary: "Provider argument not known yet", detail: `${name} depends on a value known only after apply; the provider needs it to read the lists at plan time. Set it from a variable or the environment.`, attribute: [name] }));
  }
  const overlay: Record<string, string | undefined> = { ...env };
  for (const [argument, variable] of Object.entries(ARGUMENT_VARIABLES)) {
    const value = config[argument];
    if (typeof value === "string" && value.trim() !== "") overlay[variable] = value;
  }
  if (typeof config["token"] === "string" && config["token"] !== "") delete overlay[ARGUMENT_VARIABLES.token_command];
  if (typeof config["token_command"] === "string" && config["token_command"] !== "") delete overlay[ARGUMENT_VARIABLES.token];
  const maxRps = config["max_rps"];
  if (maxRps !== null && maxRps !== undefined && !(typeof maxRps === "number" && Number.isFinite(maxRps) && maxRps > 0 && maxRps <= 100_000)) {
    return [{ severity: "error", summary: "Invalid max_rps", detail: `max_rps takes a number of requests a second above 0 (at most 100000), e.g. 2 or 0.5; got ${JSON.stringify(maxRps)}.`, attribute: ["max_rps"] }];
  }
  return {
    env: overlay,
    cwd,
    ...(typeof maxRps === "number" ? { maxRps: { rps: maxRps, given: `max_rps = ${maxRps}` } } : {}),
    timeoutGiven: "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS",
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
 * and `token_command` (src/provider/locked.ts); an offline one opens no session (src/provider/offline.ts).
 */
function beforeSession(config: ObjectValue, env: NodeJS.ProcessEnv): { run: null; offline: boolean; diagnostics: Diagnostic[] } | null {
  const refused = lockedArgumentErrors(config, env);
  if (refused.length > 0) return { run: null, offline: false, diagnostics: refused };
  return isOffline(env) ? { run: null, offline: true, diagnostics: [] } : null;
}

/** Opens the session of a provider block, or says (in the block's words) what is missing. */
export async function configureRun(config: ObjectValue, env: NodeJS.ProcessEnv, cwd: string, signal: AbortSignal, log: (line: string) => void): Promise<{ run: ProviderRun | null; offline?: boolean; diagnostics: Diagnostic[] }> {
  const decided = beforeSession(config, env);
  if (decided !== null) return decided;
  const warnings: Diagnostic[] = [];
  const request = sessionRequest(config, env, cwd, (message) => warnings.push({ severity: "warning", summary: "Provider configuration", detail: inProviderWords(message) }), log);
  if (Array.isArray(request)) return { run: null, diagnostics: request };
  try {
    const opened = await openSession(request);
    const lookup = new RuleLookup(opened);
    // Every plan of this process, the applies' own included, resolves its rules through the one
    // lookup: the resources Terraform applies at once share their searches as their plans do.
    const session: OpenSession = { ...opened, lookupRules: (references) => Promise.all(references.map((reference) => lookup.lookup(reference))) };
    return { run: { session, lookup, signal, planned: new Map(), terraform: TerraformRun.current(env) }, diagnostics: warnings };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { run: null, diagnostics: [...warnings, { severity: "error", summary: "The alertrules provider cannot connect", detail: inProviderWords(message) }] };
  }
}
