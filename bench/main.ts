/**
 * `npm run bench`: the benchmark. Starts the simulator in-process with a fixed latency
 * per request, runs the scenarios, prints their tables and the targets (PASS/FAIL), and writes
 * bench/results.json (a `--quick` run: bench/results.quick.json, not tracked; it judges only the
 * targets its sizes can show). Exits 0 whatever the targets say (it is a measurement); 1 only when the
 * benchmark itself could not run. See docs/performance.md.
 */
import { renameSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { machine, repoRoot } from "./lib/machine";
import { setSimulatorMode, simulatorMode } from "./lib/simulator-host";
import { renderTable, type Check, type Scenario, type ScenarioResult } from "./lib/report";
import { accessReport } from "./scenarios/access-report";
import { bulkOnboarding } from "./scenarios/bulk-onboarding";
import { mixedChange } from "./scenarios/mixed-change";
import { noOp } from "./scenarios/no-op";
import { perUserBaseline } from "./scenarios/per-user-baseline";
import { periodic429 } from "./scenarios/periodic-429";
import { planAtScale } from "./scenarios/plan-at-scale";
import { provider } from "./scenarios/provider";
import { pullRequest } from "./scenarios/pull-request";
import { rateLimits } from "./scenarios/rate-limits";
import { synthScaling } from "./scenarios/synth-scaling";

export const SCENARIOS: readonly Scenario[] = [mixedChange, bulkOnboarding, perUserBaseline, planAtScale, noOp, rateLimits, pullRequest, accessReport, synthScaling, provider, periodic429];
export const DEFAULT_LATENCY_MS = 20;
export const RESULTS_FORMAT_VERSION = 1;

const HELP = `Usage: npm run bench -- [--scenario NAME]... [--quick] [--latency-ms MS] [--same-thread-simulator] [--out FILE]

Runs the benchmark scenarios against the in-process simulator and writes the results as JSON.

  --scenario NAME   run only this scenario (repeatable): ${SCENARIOS.map((s) => s.name).join(", ")}
  --quick           smaller sizes, for a smoke run: judges only the targets those sizes can show
                    (the others are printed as "----") and writes bench/results.quick.json
  --latency-ms MS   latency the simulator adds to every request (default ${DEFAULT_LATENCY_MS})
  --same-thread-simulator
                    run the simulator on the main thread, sharing the event loop with the client
                    (default: on a worker thread of this process, like a service elsewhere)
  --out FILE        where to write the results (default bench/results.json, with --quick
                    bench/results.quick.json)
  -h, --help

Exit code 0 even when a target fails (the FAIL lines say so); 1 when the benchmark could not run.
`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: "string", multiple: true },
      quick: { type: "boolean" },
      "latency-ms": { type: "string" },
      "same-thread-simulator": { type: "boolean" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const names = values.scenario ?? [];
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown scenario ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}.\n`);
    return 1;
  }
  const latencyMs = values["latency-ms"] === undefined ? DEFAULT_LATENCY_MS : Number(values["latency-ms"]);
  if (!Number.isFinite(latencyMs) || latencyMs <= 0) {
    process.stderr.write("--latency-ms must be a positive number (the lower bounds are in units of it).\n");
    return 1;
  }
  const quick = values.quick === true;
  if (values["same-thread-simulator"] === true) setSimulatorMode("same-thread");
  const root = repoRoot();
  const defaultOut = join(root, "bench", quick ? "results.quick.json" : "results.json");
  const out = values.out === undefined ? defaultOut : isAbsolute(values.out) ? values.out : resolve(values.out);
  const selected = names.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => names.includes(s.name));
  const host = machine();

  process.stdout.write(
    `alert-rule-users benchmark${quick ? " (--quick sizes)" : ""}: simulator in-process (${simulatorMode() === "thread" ? "on a worker thread" : "on the main thread"}), ${latencyMs} ms latency per request\n` +
      `machine: ${host.nproc} CPUs (${host.cpuModel}), ${host.totalMemoryMB} MB, node ${host.node}, ${host.platform}\n\n`,
  );
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const results: ScenarioResult[] = [];
  const started = Date.now();
  for (const scenario of selected) {
    const t0 = Date.now();
    const result = await scenario.run({ quick, latencyMs, log });
    log(`${scenario.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    results.push(result);
    process.stdout.write(`## ${result.title}\n\n${result.tables.map(renderTable).join("\n\n")}\n\n`);
  }

  const checks: Check[] = results.flatMap((r) => r.checks);
  const counted = printTargets(checks);
  writeResults(out, {
    formatVersion: RESULTS_FORMAT_VERSION,
    generatedAt: new Date().toISOString(),
    quick,
    latencyMs,
    simulator: simulatorMode(),
    machine: host,
    durationSeconds: Math.round((Date.now() - started) / 100) / 10,
    ...counted,
    checks,
    scenarios: results,
  });
  return 0;
}

/** Prints a line per target (PASS, FAIL, or ---- where these sizes cannot judge it) and the count. */
function printTargets(checks: readonly Check[]): { passed: number; failed: number; notJudged: number } {
  process.stdout.write("## Targets\n\n");
  for (const c of checks) process.stdout.write(`${c.judged === false ? "----" : c.pass ? "PASS" : "FAIL"}  ${c.name}: ${c.detail}\n`);
  const judged = checks.filter((c) => c.judged !== false);
  const failed = judged.filter((c) => !c.pass).length;
  const notJudged = checks.length - judged.length;
  process.stdout.write(
    `\n${judged.length - failed} passed, ${failed} failed${notJudged > 0 ? `, ${notJudged} not judged at these sizes` : ""}${failed > 0 ? "  <-- FAIL" : ""}\n`,
  );
  return { passed: judged.length - failed, failed, notJudged };
}

/** Writes the results file whole (a temporary file renamed over it). */
function writeResults(out: string, document: Record<string, unknown>): void {
  // The engine runs' request logs (every request's arrival and status) feed the plot; the file
  // keeps the counts and scenario 6's requests per second, not the logs themselves.
  const withoutLogs = (key: string, value: unknown) => (key === "requestLog" ? undefined : value);
  writeFileSync(`${out}.tmp`, JSON.stringify(document, withoutLogs, 2) + "\n");
  renameSync(`${out}.tmp`, out);
  process.stdout.write(`Results written to ${out}\n`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
