/**
 * The vendor's per-user script, for comparison: it reads a CSV of (rule, user, action) rows and,
 * for every row, looks the rule up (one query-rule-metadata search by ObserverRuleId), then sends
 * one add-users, remove-users or remove-user-aliases call carrying that one user. Five workers,
 * no back-off, no read-back. Plain `fetch`, written from docs/interface.md: none of our client or
 * engine code is used.
 *
 * Against a rate-limited service (`retryOn429`) it retries a 429 the way a Python SDK built on
 * requests + urllib3's `Retry(status_forcelist=[429], respect_retry_after_header=True)` does:
 * each worker sleeps the `Retry-After` the service sends (whole seconds; `Retry-After-Ms` is not
 * a header urllib3 reads) and sends the same request again, up to `maxRetries` times.
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
  /** Requests that did not answer 2xx in the end (the script logs and goes on). */
  readonly failures: number;
  /** 429 answers (each retried when `retryOn429`). */
  readonly rateLimited: number;
  /** Rows processed (all of them, unless `maxRows` stopped the run early). */
  readonly rowsDone: number;
  readonly wallMs: number;
}

const PATHS = {
  "query-rule-metadata": "/v1/alerts/rules/query-rule-metadata",
  "add-users": "/v1/alert-rules/add-users",
  "remove-users": "/v1/alert-rules/remove-users",
  "remove-user-aliases": "/v1/alert-rules/remove-user-aliases",
} as const;

export interface PerUserOptions {
  /** Retry 429s after the whole-second `Retry-After`, as urllib3's Retry does. @default false */
  readonly retryOn429?: boolean;
  /** @default 20 */
  readonly maxRetries?: number;
  /** Stop after this many rows (a measured prefix of a run too long to finish). @default - all */
  readonly maxRows?: number;
}

/** What the script's requests came to: calls by operation, failures, 429s. */
interface Tally {
  readonly calls: Record<string, number>;
  failures: number;
  rateLimited: number;
}

/** The script's one way to send: POST a JSON body, retrying 429s as urllib3's Retry does when asked; undefined unless 2xx. */
function poster(connection: Connection, options: PerUserOptions, tally: Tally): (operation: keyof typeof PATHS, body: unknown, accept: string) => Promise<unknown> {
  const maxRetries = options.maxRetries ?? 20;
  return async (operation, body, accept) => {
    tally.calls[operation] = (tally.calls[operation] ?? 0) + 1;
    let response: Response;
    for (let retries = 0; ; retries += 1) {
      response = await fetch(connection.url + PATHS[operation], {
        method: "POST",
        headers: { Authorization: `Bearer ${connection.token}`, "Content-Type": "application/json", Accept: accept },
        body: JSON.stringify(body),
      });
      if (response.status !== 429) break;
      tally.rateLimited += 1;
      if (options.retryOn429 !== true || retries >= maxRetries) break;
      await response.text();
      const seconds = Number(response.headers.get("retry-after") ?? "0");
      await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? seconds : 0) * 1000));
    }
    const text = await response.text();
    if (!response.ok) {
      tally.failures += 1;
      return undefined;
    }
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  };
}

export async function runPerUserScript(
  rows: readonly PerUserRow[],
  connection: Connection,
  workers = 5,
  options: PerUserOptions = {},
): Promise<PerUserRun> {
  const tally: Tally = { calls: {}, failures: 0, rateLimited: 0 };
  const rowLimit = Math.min(rows.length, options.maxRows ?? rows.length);
  const post = poster(connection, options, tally);

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
    while (next < rowLimit) {
      const row = rows[next++];
      if (row !== undefined) await processRow(row);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, rowLimit)) }, worker));
  const wallMs = performance.now() - started;
  return {
    workers,
    rows: rows.length,
    calls: tally.calls,
    totalCalls: Object.values(tally.calls).reduce((a, b) => a + b, 0),
    failures: tally.failures,
    rateLimited: tally.rateLimited,
    rowsDone: rowLimit,
    wallMs,
  };
}
