/**
 * Child process of the plan-at-scale scenario (run with --expose-gc): builds in-memory
 * declarations and observations of N rules × M users (one alias each, about 10% changed), each
 * through a JSON round trip as if read from the synthesized JSON and from query-users, then times
 * buildPlan alone and reads the peak RSS of the diff. Prints one JSON document on stdout.
 */
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredList, RuleObservation } from "../../src/core";
import { generateTenant } from "./tenant";
import { collectGarbage, lifetimeMaxRss, procStatusBytes, resetPeakRss, timedSync } from "./timing";
import { TOOL_VERSION } from "../../src/io/version";

export interface DiffChildInput {
  readonly rules: number;
  readonly usersPerRule: number;
}

export interface DiffChildOutput {
  readonly rules: number;
  readonly declaredAliases: number;
  readonly observedAliases: number;
  readonly diffMs: number;
  /** CPU time (user + system) of the diff: close to diffMs unless other processes took the CPU. */
  readonly diffCpuMs: number;
  readonly rssBeforeDiff: number | null;
  /** Peak RSS between just before and just after buildPlan (VmHWM after a reset), or null. */
  readonly peakRssDuringDiff: number | null;
  readonly peakResetWorked: boolean;
  readonly heapUsedBeforeDiff: number;
  readonly heapUsedAfterDiff: number;
  /** Heap in use after a full GC with the plan still referenced. */
  readonly heapRetainedWithPlan: number;
  readonly lifetimeMaxRss: number;
  readonly gcAvailable: boolean;
  readonly summary: unknown;
}

/**
 * The inputs, one rule at a time so that generating them leaves little garbage behind (the RSS
 * before the diff is then close to what holding the inputs costs, as in the CLI).
 */
function inputs(input: DiffChildInput): { declarations: DesiredList[]; observations: RuleObservation[]; declaredAliases: number; observedAliases: number } {
  const declarations: DesiredList[] = [];
  const observations: RuleObservation[] = [];
  let declaredAliases = 0;
  let observedAliases = 0;
  for (let r = 0; r < input.rules; r++) {
    const tenant = generateTenant({
      rules: 1,
      usersPerRule: input.usersPerRule,
      aliasesPerUser: 1,
      change: { kind: "mixed", fraction: 0.1 },
      seed: 20_250_404 + r,
    });
    const rule = tenant.seed.rules[0];
    if (rule === undefined) throw new Error("the generator made no rule");
    // Fresh strings and objects, as JSON.parse gives them to the CLI: nothing shared between sides.
    declarations.push(...(JSON.parse(JSON.stringify(tenant.declarations)) as DesiredList[]));
    const response = JSON.parse(JSON.stringify(rule.users ?? [])) as Array<{ userIdFromAuthority: string; userAliasList: string[] }>;
    observations.push({
      kind: "found",
      rule: { observerRuleId: rule.metadata.observerRuleId, name: `${rule.metadata.name} #${r}`, isSystem: false, ruleSource: "Alerting" },
      list: { usersToAlertOn: rule.usersToAlertOn, entries: response.map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })) },
    });
    declaredAliases += tenant.declaredAliases;
    observedAliases += response.reduce((n, u) => n + u.userAliasList.length, 0);
  }
  return { declarations, observations, declaredAliases, observedAliases };
}

function main(): void {
  const input = JSON.parse(process.argv[2] ?? "{}") as DiffChildInput;
  const { declarations, observations, declaredAliases, observedAliases } = inputs(input);
  const gcAvailable = collectGarbage();
  const heapUsedBeforeDiff = process.memoryUsage().heapUsed;
  const rssBeforeDiff = procStatusBytes("VmRSS");
  const peakResetWorked = resetPeakRss();

  const cpuBefore = process.cpuUsage();
  const { value: plan, ms: diffMs } = timedSync(() =>
    buildPlan({ toolVersion: TOOL_VERSION,
      declarations,
      observations,
      connection: { baseUrl: "http://127.0.0.1:1", tenantId: "bench" },
      createdAt: "2026-01-01T00:00:00.000Z",
    }),
  );

  const cpu = process.cpuUsage(cpuBefore);
  const diffCpuMs = (cpu.user + cpu.system) / 1000;
  const peakRssDuringDiff = peakResetWorked ? procStatusBytes("VmHWM") : null;
  const heapUsedAfterDiff = process.memoryUsage().heapUsed;
  collectGarbage();
  const heapRetainedWithPlan = process.memoryUsage().heapUsed;
  const output: DiffChildOutput = {
    rules: plan.rules.length,
    declaredAliases,
    observedAliases,
    diffMs,
    diffCpuMs,
    rssBeforeDiff,
    peakRssDuringDiff,
    peakResetWorked,
    heapUsedBeforeDiff,
    heapUsedAfterDiff,
    heapRetainedWithPlan,
    lifetimeMaxRss: lifetimeMaxRss(),
    gcAvailable,
    summary: plan.summary,
  };
  process.stdout.write(JSON.stringify(output) + "\n");
}

main();
