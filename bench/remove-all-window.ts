/**
 * The window left by docs/contract.md §9.3 (docs/guarantees.md): remove-all-users is sent only right
 * after a read of its rule that matches the plan; how long after? Applies N rebuilds one at a time
 * against the in-process simulator and, from the simulator's request log, measures for each
 * rebuild the time from the arrival of that read to the arrival of remove-all-users, minus the
 * latency the simulator adds to the read. It is a measurement, not a test: it prints and exits 0.
 * With MAX_RPS the client's sends are capped as by `--max-rps` (the rate limiter's wait comes
 * before the read, so the window should not grow with the interval; below 2 a second two sends
 * cannot share a second and the write waits its interval after the read).
 *
 *   npm run build && node dist/bench/remove-all-window.js [N] [LATENCY_MS] [MAX_RPS]
 */
import { RateLimiter, RuleListClient } from "../src/api";
import { buildPlan } from "../src/core/build-plan";
import type { DesiredList } from "../src/core/desired";
import { applyPlan } from "../src/io/execute";
import { observe } from "../src/io/observe";
import { startSimulator, type TenantSeed } from "../src/simulator";

const STAMP = "2026-01-05T10:00:00.0000000Z";

async function measure(count: number, latencyMs: number, maxRps: number | undefined): Promise<number[]> {
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
    sim.setFaults({ latencyMs });
    sim.resetCounts();
    const result = await applyPlan(plan, limited, { parallelism: 1 });
    if (!result.ok) throw new Error("the rebuilds did not converge");
    const log = sim.requestLog();
    const gaps: number[] = [];
    for (let i = 1; i < log.length; i++) {
      if (log[i]!.operation === "remove-all-users" && log[i - 1]!.operation === "query-users") gaps.push(log[i]!.atMs - log[i - 1]!.atMs - latencyMs);
    }
    return gaps.sort((a, b) => a - b);
  } finally {
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 200);
  const latencyMs = Number(process.argv[3] ?? 0);
  const maxRps = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
  const gaps = await measure(count, latencyMs, maxRps);
  const at = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))]!.toFixed(2);
  process.stdout.write(
    `${gaps.length} rebuilds, simulator latency ${latencyMs} ms, ${maxRps === undefined ? "no rate cap" : `--max-rps ${maxRps}`}: from the matching read to remove-all-users ` +
      `(beyond the read's own latency): median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${gaps[gaps.length - 1]!.toFixed(2)} ms\n`,
  );
}

void main();
