/** Table rows and checks shared by the scenarios that run our engine. */
import { WRITE_OPERATION_LIST } from "../../src/core/engine/operations";
import type { EngineRun } from "./engine-run";
import { check, fmt, type Check, type Table } from "./report";

/** The two reads, then every write in the operation table's order. */
const OPERATIONS: readonly string[] = ["query-rule-metadata", "query-users", ...WRITE_OPERATION_LIST];

/** Calls per operation against the bound: measured (client), attempts, received (simulator), bound. */
export function callsTable(title: string, run: EngineRun): Table {
  const ops = OPERATIONS.filter((op) => (run.calls[op] ?? 0) > 0 || (run.bound.byOperation[op] ?? 0) > 0);
  const rows = ops.map((op) => [
    op,
    fmt.int(run.calls[op] ?? 0),
    fmt.int(run.attempts[op] ?? 0),
    fmt.int(run.serverRequests[op] ?? 0),
    fmt.int(run.bound.byOperation[op] ?? 0),
  ]);
  rows.push(["total", fmt.int(run.totalCalls), fmt.int(sumOf(run.attempts)), fmt.int(sumOf(run.serverRequests)), fmt.int(run.bound.total)]);
  return { title, columns: ["operation", "calls", "attempts", "received", "bound"], rows };
}

/** Wall time against its lower bound, with the phases and the rounds the bound counts. */
export function timeRow(label: string, run: EngineRun): string[] {
  const r = run.bound.rounds;
  return [
    label,
    String(run.parallelism),
    fmt.int(run.totalCalls),
    fmt.int(run.bound.total),
    fmt.s(run.phases.observeMs),
    fmt.s(run.phases.planMs),
    fmt.s(run.phases.applyMs),
    fmt.s(run.wallMs),
    `${r.search}+${r.observe}+${r.apply}`,
    fmt.s(run.lowerBoundMs),
    fmt.ratio(run.wallMs / run.lowerBoundMs),
  ];
}

export const TIME_COLUMNS = ["run", "p", "calls", "bound", "observe s", "plan s", "apply s", "wall s", "rounds", "lower bound s", "wall/bound"];

export function engineChecks(label: string, run: EngineRun): Check[] {
  const checks = [
    check(
      `${label}: calls equal the bound`,
      run.callsEqualBound,
      `${run.totalCalls} calls (${sumOf(run.attempts)} attempts, ${sumOf(run.serverRequests)} received) against a bound of ${run.bound.total}`,
    ),
    check(
      `${label}: converged and verified`,
      run.converged && run.planMismatches.length === 0,
      run.planMismatches.length > 0 ? `plan differs from the change set: ${run.planMismatches.join("; ")}` : run.converged ? "every rule applied, verified, and the simulator holds the declared lists" : "apply failed or the simulator does not hold the declared lists",
    ),
  ];
  return checks;
}

export function sumOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
