/**
 * The window left by docs/contract.md §9.3 (docs/guarantees.md): remove-all-users is sent only right
 * after a read of its rule that matches the plan; how long after? Applies N rebuilds one at a time
 * against the in-process simulator and, from the simulator's request log, measures for each
 * rebuild the time from the arrival of that read to the arrival of remove-all-users, minus the
 * latency the simulator adds to the read. It is a measurement, not a test: it prints and exits 0.
 * With MAX_RPS the client's sends are capped as by `--max-rps` (the rate limiter's wait comes
 * before the read, so the window should not grow with the interval, at 1 a second and below too).
 * With SIMULATOR_RPS the simulator limits every client to that many requests a second (a burst of
 * as many: below 2, a read and a write back to back are refused), and PARALLELISM rules are
 * applied at once (a service limit just under --max-rps is where the window grows: 1.5 against
 * --max-rps 2, 4 workers). Only the
 * remove-all-users the service acted on are measured, each from the last read of its rule before it;
 * the rebuilds given up (not sent) are counted.
 *
 *   npm run build && node dist/bench/remove-all-window.js [N] [LATENCY_MS] [MAX_RPS] [SIMULATOR_RPS] [PARALLELISM]
 */
import { RateLimiter, RuleListClient } from "../src/api";
import { buildPlan } from "../src/core/engine/build-plan";
import { WRITE_OPERATIONS, WRITE_OPERATION_LIST } from "../src/core/engine/operations";
import type { DesiredList } from "../src/core/engine/desired";
import { applyPlan } from "../src/io/execute";
import { observe } from "../src/io/observe";
import { startSimulator, type TenantSeed } from "../src/simulator";

const STAMP = "2026-01-05T10:00:00.0000000Z";
/** The operations read again right before each attempt (the table's `guarded`): the window measured is theirs. */
const GUARDED = new Set<string>(WRITE_OPERATION_LIST.filter((operation) => WRITE_OPERATIONS[operation].guarded));

async function measure(count: number, latencyMs: number, maxRps: number | undefined, simulatorRps: number | undefined, parallelism: number): Promise<{ gaps: number[]; notSent: number }> {
  const rules: TenantSeed["rules"] = Array.from({ length: count }, (_, i) => ({
    metadata: {
      id: `meta-${i}`,
      observerRuleId: `rule-${i}`,
      name: `Rule ${i}`,
      description: "window",
      severity: "MEDIUM",
      type: "FED_ENDPOINT_EXFILTRATION",
      isSystem: false,
      isEnabled: true,
      ruleSource: "Alerting",
      createdAt: STAMP,
      modifiedAt: STAMP,
      createdBy: "bench@example.com",
      modifiedBy: "bench@example.com",
    },
    usersToAlertOn: "SPECIFIED_USERS",
    // an entry without ID: the list is rebuilt (remove-all-users, then add-users)
    users: [
      { userIdFromAuthority: `u${i}`, userAliasList: [`u${i}@example.com`] },
      { userIdFromAuthority: null, userAliasList: [`n${i}@example.com`] },
    ],
  }));
  const sim = await startSimulator({ port: 0, seed: { tenantId: "tenant-window", rules }, token: "window-token" });
  try {
    const client = new RuleListClient({ baseUrl: sim.url, token: "window-token", tenantId: "tenant-window" });
    const limited = maxRps === undefined ? client : new RuleListClient({ baseUrl: sim.url, token: "window-token", tenantId: "tenant-window", rateLimiter: new RateLimiter({ maxRps }) });
    const desired: DesiredList[] = rules.map((r, i) => ({
      constructPath: `window/rule-${i}`,
      stack: "window",
      ruleId: r.metadata.observerRuleId,
      ruleName: null,
      mode: "authoritative",
      allowMassRemoval: false,
      users: [
        { userId: `u${i}`, aliases: [`u${i}@example.com`] },
        { userId: `v${i}`, aliases: [`n${i}@example.com`] },
      ],
    }));
    const observations = await observe(client, desired, { parallelism: 4, pageSize: 100 });
    const plan = buildPlan({ declarations: desired, observations, connection: { baseUrl: sim.url, tenantId: "tenant-window" }, createdAt: STAMP.slice(0, 19) + "Z", toolVersion: "bench" });
    sim.setFaults({ latencyMs, ...(simulatorRps === undefined ? {} : { rateLimitRps: simulatorRps }) });
    sim.resetCounts();
    const result = await applyPlan(plan, limited, { parallelism });
    const notSent = result.rules.filter((r) => r.outcome !== "applied").length;
    const log = sim.requestLog();
    const gaps: number[] = [];
    const lastRead = new Map<string, number>();
    for (const entry of log) {
      if (entry.ruleId === undefined || entry.status !== 200) continue;
      if (entry.operation === "query-users") lastRead.set(entry.ruleId, entry.atMs);
      const read = lastRead.get(entry.ruleId);
      if (GUARDED.has(entry.operation) && read !== undefined) gaps.push(entry.atMs - read - latencyMs);
    }
    return { gaps: gaps.sort((a, b) => a - b), notSent };
  } finally {
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 200);
  const latencyMs = Number(process.argv[3] ?? 0);
  const number = (arg: string | undefined) => (arg === undefined || arg === "-" ? undefined : Number(arg));
  const maxRps = number(process.argv[4]);
  const simulatorRps = number(process.argv[5]);
  const parallelism = number(process.argv[6]) ?? 1;
  const { gaps, notSent } = await measure(count, latencyMs, maxRps, simulatorRps, parallelism);
  const at = (p: number) => (gaps.length === 0 ? "-" : gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))]!.toFixed(2));
  process.stdout.write(
    `${gaps.length} rebuilds sent, ${notSent} not applied, simulator latency ${latencyMs} ms${simulatorRps === undefined ? "" : `, limit ${simulatorRps}/s`}, ` +
      `${maxRps === undefined ? "no rate cap" : `--max-rps ${maxRps}`}, ${parallelism} at once: from the matching read to remove-all-users ` +
      `(beyond the read's own latency): median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${gaps.length === 0 ? "-" : gaps[gaps.length - 1]!.toFixed(2)} ms\n`,
  );
}

void main();
