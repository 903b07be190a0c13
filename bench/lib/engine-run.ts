/**
 * Runs our engine against a fresh in-process simulator exactly as `alert-rule-users apply
 * --auto-approve` does: observe → buildPlan → the applicability checks → applyPlan, with a real
 * RuleListClient over HTTP. Counts calls on both sides and checks the tenant converged.
 */
import { RateLimiter, RuleListClient } from "../../src/api";
import { applyPlan } from "../../src/io/execute";
import { aliasKey, checkPlanIsApplicable } from "../../src/core";
import type { Plan } from "../../src/core/engine/plan-schema";
import { observe } from "../../src/io/observe";
import { buildPlan } from "../../src/core/engine/build-plan";
import type { RequestLogEntry, SimRule } from "../../src/simulator";
import { callBound, equalsBound, type CallBound, type OperationCounts } from "./bound";
import type { ExpectedChanges, GeneratedTenant } from "./tenant";
import { hostSimulator, type ExtraFaults, type HostedSimulator, type SimulatorMode } from "./simulator-host";
import { timed, timedSync } from "./timing";
import { TOOL_VERSION } from "../../src/io/version";

export interface EngineRunOptions {
  readonly parallelism: number;
  readonly latencyMs: number;
  /** @default 100 (the CLI default) */
  readonly pageSize?: number;
  /** @default 100 (the CLI default) */
  readonly batchSize?: number;
  /** The simulator's rate limit, requests a second. @default - none */
  readonly rateLimitRps?: number | undefined;
  /** The client's `--max-rps`. @default - none: the limiter adapts to 429s by itself, as the CLI's does */
  readonly maxRps?: number | undefined;
  /** The simulator's faults besides latency and rate limit (every Nth 429, 503s, lost answers). @default - none */
  readonly faults?: ExtraFaults | undefined;
}

export interface EngineRun {
  readonly parallelism: number;
  readonly latencyMs: number;
  readonly simulator: SimulatorMode;
  /** Logical calls by operation, as the client counted them. */
  readonly calls: OperationCounts;
  /** HTTP attempts by operation (calls plus retries). */
  readonly attempts: OperationCounts;
  /** Requests by operation, as the simulator received them (429s included). */
  readonly serverRequests: OperationCounts;
  /** Requests the simulator answered 429. */
  readonly rateLimited: number;
  /** The simulator's rate limit, when it had one. */
  readonly rateLimitRps: number | undefined;
  /** Every request as the simulator saw it (arrival in ms since the run started, status). */
  readonly requestLog: ReadonlyArray<{ readonly atMs: number; readonly status: number }>;
  /** The client's rate limiter at the end: the rate it sent at, and how often it was cut. */
  readonly limiter: { readonly rps: number | undefined; readonly cuts: number; readonly throttles: number };
  readonly totalCalls: number;
  readonly bound: CallBound;
  readonly callsEqualBound: boolean;
  readonly wallMs: number;
  readonly phases: { readonly observeMs: number; readonly planMs: number; readonly applyMs: number };
  readonly lowerBoundMs: number;
  /** Apply reported every rule applied and verified, and the simulator holds the declared lists. */
  readonly converged: boolean;
  /** Differences between the plan summary and the generated change set (empty when they agree). */
  readonly planMismatches: string[];
  readonly planSummary: Plan["summary"];
}

/** Runs `fn` against a fresh simulator seeded with the tenant (see simulator-host.ts for where it runs). */
export async function withSimulator<T>(
  tenant: GeneratedTenant,
  latencyMs: number,
  fn: (sim: HostedSimulator) => Promise<T>,
  rateLimitRps?: number,
  faults?: ExtraFaults,
): Promise<T> {
  const sim = await hostSimulator(tenant.seed, latencyMs, undefined, rateLimitRps, faults);
  try {
    return await fn(sim);
  } finally {
    await sim.stop();
  }
}

export async function runEngine(tenant: GeneratedTenant, options: EngineRunOptions): Promise<EngineRun> {
  const pageSize = options.pageSize ?? 100;
  const batchSize = options.batchSize ?? 100;
  return withSimulator(tenant, options.latencyMs, async (sim) => {
    // As the CLI builds it: one limiter for the run, adaptive, capped by --max-rps when given.
    const rateLimiter = new RateLimiter({ maxRps: options.maxRps });
    const client = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, rateLimiter });
    const connection = { baseUrl: client.baseUrl, tenantId: client.tenantId };

    const logBefore = (await sim.requestLog()).length;
    const started = performance.now();
    const observed = await timed(() => observe(client, tenant.declarations, { parallelism: options.parallelism, pageSize }));
    const planned = timedSync(() =>
      buildPlan({ toolVersion: TOOL_VERSION,
        declarations: tenant.declarations,
        observations: observed.value,
        connection,
        createdAt: new Date().toISOString(),
        batchSize,
      }),
    );
    const plan = planned.value;
    checkPlanIsApplicable(plan, {});
    const applied = await timed(() => applyPlan(plan, client, { parallelism: options.parallelism }));
    const wallMs = performance.now() - started;

    const snapshot = client.counter.snapshot();
    const calls: OperationCounts = {};
    const attempts: OperationCounts = {};
    for (const [op, count] of Object.entries(snapshot.byOperation)) {
      calls[op] = count.calls;
      attempts[op] = count.attempts;
    }
    const bound = callBound(plan, { pageSize, parallelism: options.parallelism });
    const serverRequests = await sim.requestCounts();
    const log = (await sim.requestLog()).slice(logBefore);
    const rateLimited = log.filter((e) => e.status === 429).length;
    const stateOk = mismatchedRules(await sim.rules(), tenant) === 0;
    const limiterState = rateLimiter.state();
    return {
      parallelism: options.parallelism,
      latencyMs: options.latencyMs,
      simulator: sim.mode,
      calls,
      attempts,
      serverRequests,
      rateLimited,
      rateLimitRps: options.rateLimitRps,
      requestLog: relativeLog(log),
      limiter: { rps: limiterState.rps, cuts: limiterState.cuts, throttles: limiterState.throttles },
      totalCalls: snapshot.calls,
      bound,
      // Calls equal the bound; every attempt but the 429s (retried) reached the service once.
      callsEqualBound:
        equalsBound(calls, bound.byOperation) &&
        equalsBound(served(serverRequests, log), calls) &&
        snapshot.attempts - snapshot.calls === rateLimited,
      wallMs,
      phases: { observeMs: observed.ms, planMs: planned.ms, applyMs: applied.ms },
      lowerBoundMs: bound.rounds.total * options.latencyMs,
      converged: applied.value.ok && stateOk,
      planMismatches: compareWithChangeSet(plan, tenant.expected),
      planSummary: plan.summary,
    };
  }, options.rateLimitRps, options.faults);
}

/** Requests the simulator served (answered other than 429), by operation. */
function served(requests: OperationCounts, log: readonly RequestLogEntry[]): OperationCounts {
  const out: OperationCounts = { ...requests };
  for (const entry of log) if (entry.status === 429) out[entry.operation] = (out[entry.operation] ?? 0) - 1;
  return Object.fromEntries(Object.entries(out).filter(([, n]) => n !== 0));
}

/**
 * The log with arrival times from the run's first request (ms), for plots. (The simulator's clock
 * is its own: on a worker thread its origin is not ours.)
 */
export function relativeLog(log: readonly RequestLogEntry[]): Array<{ atMs: number; status: number }> {
  const first = log[0]?.atMs ?? 0;
  return log.map((e) => ({ atMs: Math.round((e.atMs - first) * 10) / 10, status: e.status }));
}

/** The plan's changes, counted in the change set's terms (from `changes`, not the summary, whose wording may evolve). */
function compareWithChangeSet(plan: Plan, expected: ExpectedChanges): string[] {
  const changed = plan.rules.filter((r) => r.action === "update");
  const aliases = (users: ReadonlyArray<{ aliases: readonly string[] }>) => users.reduce((n, u) => n + u.aliases.length, 0);
  const total = (f: (r: (typeof changed)[number]) => number) => changed.reduce((n, r) => n + f(r), 0);
  const pairs: Array<[string, number, number]> = [
    ["rules to update", changed.length, expected.rulesToUpdate],
    ["users to add", total((r) => r.changes.addUsers.length), expected.usersToAdd],
    ["aliases to add", total((r) => aliases(r.changes.addUsers) + aliases(r.changes.addAliases)), expected.aliasesToAdd],
    ["aliases to remove from users who stay", total((r) => aliases(r.changes.removeAliases)), expected.aliasesToRemove],
    ["users to remove", total((r) => r.changes.removeUsers.length + r.changes.removeEntriesWithoutId.length), expected.usersToRemove],
  ];
  return pairs.filter(([, got, want]) => got !== want).map(([what, got, want]) => `${what}: plan ${got}, change set ${want}`);
}

/** A list as a set of "userId alias-key" pairs, for comparing states. */
function pairs(users: ReadonlyArray<{ userId: string | null; aliases: readonly string[] }>): Set<string> {
  return new Set(users.flatMap((u) => u.aliases.map((a) => `${u.userId ?? ""} ${aliasKey(a)}`)));
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/**
 * Rules of the simulator whose list differs from the end state the change set should produce:
 * the declaration for editable rules, the seed for system and all-users rules (never touched).
 */
export function mismatchedRules(rules: readonly SimRule[], tenant: GeneratedTenant): number {
  const byId = new Map(rules.map((r) => [r.metadata.observerRuleId, r]));
  let mismatched = 0;
  tenant.seed.rules.forEach((seedRule, i) => {
    const rule = byId.get(seedRule.metadata.observerRuleId);
    const declared = tenant.declarations[i];
    if (rule === undefined || declared === undefined) {
      mismatched += 1;
      return;
    }
    const editable = !seedRule.metadata.isSystem && seedRule.usersToAlertOn !== "ALL_USERS";
    const want = editable
      ? pairs(declared.users)
      : pairs((seedRule.users ?? []).map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })));
    const have = pairs(rule.users.map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })));
    if (!sameSet(want, have)) mismatched += 1;
  });
  return mismatched;
}
