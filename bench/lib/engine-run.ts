/**
 * Runs our engine against a fresh in-process simulator exactly as `alert-rule-users apply
 * --auto-approve` does: observe → buildPlan → the applicability checks → applyPlan, with a real
 * RuleListClient over HTTP. Counts calls on both sides and checks the tenant converged.
 */
import { RuleListClient } from "../../src/api";
import { applyPlan } from "../../src/io/execute";
import { aliasKey, checkPlanIsApplicable } from "../../src/core";
import type { Plan } from "../../src/core/plan-schema";
import { observe } from "../../src/io/observe";
import { buildPlan } from "../../src/core/build-plan";
import type { SimRule } from "../../src/simulator";
import { callBound, equalsBound, type CallBound, type OperationCounts } from "./bound";
import type { ExpectedChanges, GeneratedTenant } from "./tenant";
import { hostSimulator, type HostedSimulator, type SimulatorMode } from "./simulator-host";
import { timed, timedSync } from "./timing";
import { TOOL_VERSION } from "../../src/io/version";

export interface EngineRunOptions {
  readonly parallelism: number;
  readonly latencyMs: number;
  /** @default 100 (the CLI default) */
  readonly pageSize?: number;
  /** @default 100 (the CLI default) */
  readonly batchSize?: number;
}

export interface EngineRun {
  readonly parallelism: number;
  readonly latencyMs: number;
  readonly simulator: SimulatorMode;
  /** Logical calls by operation, as the client counted them. */
  readonly calls: OperationCounts;
  /** HTTP attempts by operation (calls plus retries). */
  readonly attempts: OperationCounts;
  /** Requests by operation, as the simulator received them. */
  readonly serverRequests: OperationCounts;
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
export async function withSimulator<T>(tenant: GeneratedTenant, latencyMs: number, fn: (sim: HostedSimulator) => Promise<T>): Promise<T> {
  const sim = await hostSimulator(tenant.seed, latencyMs);
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
    const client = new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId });
    const connection = { baseUrl: client.baseUrl, tenantId: client.tenantId };

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
    const stateOk = mismatchedRules(await sim.rules(), tenant) === 0;
    return {
      parallelism: options.parallelism,
      latencyMs: options.latencyMs,
      simulator: sim.mode,
      calls,
      attempts,
      serverRequests,
      totalCalls: snapshot.calls,
      bound,
      callsEqualBound: equalsBound(calls, bound.byOperation) && equalsBound(attempts, calls) && equalsBound(serverRequests, calls),
      wallMs,
      phases: { observeMs: observed.ms, planMs: planned.ms, applyMs: applied.ms },
      lowerBoundMs: bound.rounds.total * options.latencyMs,
      converged: applied.value.ok && stateOk,
      planMismatches: compareWithChangeSet(plan, tenant.expected),
      planSummary: plan.summary,
    };
  });
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
