/**
 * The vendor's per-user script, for comparison: it reads a CSV of (rule, user, action) rows and,
 * for every row, looks the rule up (one query-rule-metadata search by ObserverRuleId), then sends
 * one add-users, remove-users or remove-user-aliases call carrying that one user. Five workers,
 * no back-off, no retries, no read-back. Plain `fetch`, written from interface.md: none of our
 * client or engine code is used.
 */
import type { PerUserRow } from "./tenant";

export interface Connection {
  readonly url: string;
  readonly token: string;
  readonly tenantId: string;
}

export interface PerUserRun {
  readonly workers: number;
  readonly rows: number;
  /** Requests sent, by operation. */
  readonly calls: Record<string, number>;
  readonly totalCalls: number;
  /** Requests that did not answer 2xx (the script logs and goes on). */
  readonly failures: number;
  readonly wallMs: number;
}

const PATHS = {
  "query-rule-metadata": "/v1/alerts/rules/query-rule-metadata",
  "add-users": "/v1/alert-rules/add-users",
  "remove-users": "/v1/alert-rules/remove-users",
  "remove-user-aliases": "/v1/alert-rules/remove-user-aliases",
} as const;

export async function runPerUserScript(rows: readonly PerUserRow[], connection: Connection, workers = 5): Promise<PerUserRun> {
  const calls: Record<string, number> = {};
  let failures = 0;

  const post = async (operation: keyof typeof PATHS, body: unknown, accept: string): Promise<unknown> => {
    calls[operation] = (calls[operation] ?? 0) + 1;
    const response = await fetch(connection.url + PATHS[operation], {
      method: "POST",
      headers: { Authorization: `Bearer ${connection.token}`, "Content-Type": "application/json", Accept: accept },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      failures += 1;
      return undefined;
    }
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  };

  const processRow = async (row: PerUserRow): Promise<void> => {
    const { tenantId } = connection;
    const found = (await post(
      "query-rule-metadata",
      {
        tenantId,
        groups: [{ filters: [{ term: "ObserverRuleId", operator: "IS", value: row.ruleId }], filterClause: "AND" }],
        groupClause: "AND",
        pgSize: "100",
        pgNum: "0",
        srtKey: "CreatedAt",
        srtDirection: "DESC",
      },
      "text/plain",
    )) as { ruleMetadata?: unknown[] } | undefined;
    if (found?.ruleMetadata?.length !== 1) return; // the script skips rows whose rule it cannot find
    const user = { userIdFromAuthority: row.userId, userAliasList: [...row.aliases] };
    switch (row.operation) {
      case "add-users":
        await post("add-users", { tenantId, ruleId: row.ruleId, userList: [user] }, "application/json");
        return;
      case "remove-users":
        await post("remove-users", { tenantId, ruleId: row.ruleId, userIdList: [row.userId] }, "application/json");
        return;
      case "remove-user-aliases":
        await post("remove-user-aliases", { tenantId, ruleId: row.ruleId, userList: [user] }, "application/json");
        return;
    }
  };

  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < rows.length) {
      const row = rows[next++];
      if (row !== undefined) await processRow(row);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, rows.length)) }, worker));
  const wallMs = performance.now() - started;
  return {
    workers,
    rows: rows.length,
    calls,
    totalCalls: Object.values(calls).reduce((a, b) => a + b, 0),
    failures,
    wallMs,
  };
}
