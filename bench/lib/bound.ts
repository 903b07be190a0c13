/**
 * The call bound of docs/contract.md §4 and the wall-time lower bound, computed from the plan's changes
 * (not from its calls, so the bound checks the planner too).
 *
 * Calls:  ceil(declared rules / page size)  query-rule-metadata
 *       + one query-users per rule whose list is read (found, not a system rule)
 *       + per changed rule, per write operation it needs, ceil(users / batch size) calls
 *       + one query-users per changed rule to verify
 *       + one query-users per guarded call (remove-all-users: the read right before it, §9.3).
 *
 * Wall time, with p calls in flight at most and every call taking at least the latency L:
 *   L × ( searchPages                                   the pages are read one after another
 *       + ceil(readRules / p)                            the observe reads, p at a time
 *       + max( ceil(Σ_changed (writes_r + 1) / p),       the writes and verify reads, p at a time
 *              max_changed (writes_r + 1) ) )            a rule's own calls are sequential
 * The plan can only be built once every list is read, so the three terms add up.
 */
import { WRITE_OPERATION_LIST, WRITE_OPERATIONS, type WriteOperation } from "../../src/core/engine/operations";
import type { Plan, RulePlan } from "../../src/core/engine/plan-schema";

export type OperationCounts = Record<string, number>;

export interface CallBound {
  readonly byOperation: OperationCounts;
  readonly total: number;
  /** Rounds of the wall-time lower bound, and what they are made of. */
  readonly rounds: { readonly search: number; readonly observe: number; readonly apply: number; readonly total: number };
  readonly readRules: number;
  readonly changedRules: number;
  /** Σ over changed rules of (write calls + 1 verify read, + 1 read before a remove-all-users). */
  readonly applyCalls: number;
}

/**
 * The calls of each write operation a changed rule needs, from its changes (not from its calls,
 * so the bound checks the planner): a record over the operation table's writes, so a new write
 * does not compile until its count is here.
 */
const NEEDED: { readonly [K in WriteOperation]: (rule: RulePlan, batches: (n: number) => number) => number } = {
  // a rebuild adds the whole declaration again once the list is empty
  "add-users": ({ changes: c, desired }, batches) => (c.removeAll ? (c.rebuild ? batches(desired.length) : 0) : batches(c.addUsers.length + c.addAliases.length)),
  "remove-user-aliases": ({ changes: c }, batches) => (c.removeAll ? 0 : batches(c.removeAliases.length)),
  "remove-users": ({ changes: c }, batches) => (c.removeAll ? 0 : batches(c.removeUsers.length)),
  "remove-all-users": ({ changes: c }) => (c.removeAll ? 1 : 0),
};

/** Write calls a changed rule needs, by operation, from its changes. */
export function writesNeeded(rule: RulePlan, batchSize: number): OperationCounts {
  const batches = (n: number) => Math.ceil(n / Math.max(1, batchSize));
  const out: OperationCounts = {};
  for (const op of WRITE_OPERATION_LIST) {
    const n = NEEDED[op](rule, batches);
    if (n > 0) out[op] = n;
  }
  return out;
}

/** The reads right before guarded calls (the operation table's `guarded` rows: remove-all-users), one per call. */
function guardReads(writes: OperationCounts): number {
  return WRITE_OPERATION_LIST.filter((op) => WRITE_OPERATIONS[op].guarded).reduce((n, op) => n + (writes[op] ?? 0), 0);
}

const sum = (counts: OperationCounts) => Object.values(counts).reduce((a, b) => a + b, 0);

export function callBound(plan: Plan, options: { readonly pageSize: number; readonly parallelism: number }): CallBound {
  const declaredRules = new Set(plan.rules.map((r) => (r.declaredBy === "ruleId" ? `id:${r.ruleId ?? ""}` : `name:${r.ruleName ?? ""}`))).size;
  const searchPages = declaredRules === 0 ? 0 : Math.max(1, Math.ceil(declaredRules / options.pageSize));
  // A rule's list was read exactly when the plan carries its fingerprint.
  const readRules = plan.rules.filter((r) => r.fingerprint !== null).length;
  const changed = plan.rules.filter((r) => r.action === "update");
  const needed = changed.map((rule) => writesNeeded(rule, plan.options.batchSize));
  const guarded = needed.reduce((n, writes) => n + guardReads(writes), 0);
  const byOperation: OperationCounts = { "query-rule-metadata": searchPages, "query-users": readRules + changed.length + guarded };
  let applyCalls = 0;
  let longestRule = 0;
  for (const writes of needed) {
    for (const [op, n] of Object.entries(writes)) byOperation[op] = (byOperation[op] ?? 0) + n;
    const own = sum(writes) + 1 + guardReads(writes);
    applyCalls += own;
    longestRule = Math.max(longestRule, own);
  }
  const p = Math.max(1, options.parallelism);
  const search = searchPages;
  const observe = Math.ceil(readRules / p);
  const apply = Math.max(Math.ceil(applyCalls / p), longestRule);
  return {
    byOperation,
    total: sum(byOperation),
    rounds: { search, observe, apply, total: search + observe + apply },
    readRules,
    changedRules: changed.length,
    applyCalls,
  };
}

/** True when the measured counts equal the bound for every operation (and no other operation was called). */
export function equalsBound(measured: OperationCounts, bound: OperationCounts): boolean {
  const ops = new Set([...Object.keys(measured), ...Object.keys(bound)]);
  return [...ops].every((op) => (measured[op] ?? 0) === (bound[op] ?? 0));
}
