/**
 * Request accounting: per operation, the logical calls the client made and the HTTP attempts
 * they took (retries included). The engine checks its call budget against this (docs/contract.md §4).
 */

/** What the client reports after every HTTP attempt. Never carries headers or bodies. */
export interface RequestEvent {
  readonly operation: string;
  readonly ruleId?: string;
  /** 1 for the first attempt of a call, 2 for its first retry, ... */
  readonly attempt: number;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** ok: the call succeeded; retry: this attempt failed and another follows; error: the call failed. */
  readonly outcome: "ok" | "retry" | "error";
  readonly durationMs: number;
  /** When no response arrived: the network error code (ECONNREFUSED, …) or "timeout". */
  readonly failure?: string;
  /** With outcome "retry": how long the client waits before the next attempt. */
  readonly retryInMs?: number;
}

export type RequestHook = (event: RequestEvent) => void;

/** What an attempt reports, undefined where it has nothing to say. */
export interface AttemptReport {
  readonly operation: string;
  readonly ruleId: string | undefined;
  readonly attempt: number;
  readonly status: number | undefined;
  readonly outcome: RequestEvent["outcome"];
  readonly durationMs: number;
  readonly failure: string | undefined;
  readonly retryInMs: number | undefined;
}

/** The event of an attempt, without the fields it has nothing for. */
export function requestEvent(report: AttemptReport): RequestEvent {
  return {
    operation: report.operation,
    ...(report.ruleId === undefined ? {} : { ruleId: report.ruleId }),
    attempt: report.attempt,
    ...(report.status === undefined ? {} : { status: report.status }),
    outcome: report.outcome,
    durationMs: report.durationMs,
    ...(report.failure === undefined ? {} : { failure: report.failure }),
    ...(report.retryInMs === undefined ? {} : { retryInMs: report.retryInMs }),
  };
}

export interface OperationCount {
  /** Logical calls (one per client method call, whatever the retries). */
  readonly calls: number;
  /** HTTP attempts (calls plus retries). */
  readonly attempts: number;
}

export interface RequestCountSnapshot {
  readonly byOperation: Readonly<Record<string, OperationCount>>;
  readonly calls: number;
  readonly attempts: number;
}

export class RequestCounter {
  #counts = new Map<string, { calls: number; attempts: number }>();

  /** Records the start of a logical call. */
  recordCall(operation: string): void {
    this.#entry(operation).calls += 1;
  }

  /** Records one HTTP attempt. */
  recordAttempt(operation: string): void {
    this.#entry(operation).attempts += 1;
  }

  /** A copy of the counts so far (operations never called are absent). */
  snapshot(): RequestCountSnapshot {
    const byOperation: Record<string, OperationCount> = {};
    let calls = 0;
    let attempts = 0;
    for (const [operation, count] of [...this.#counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      byOperation[operation] = { calls: count.calls, attempts: count.attempts };
      calls += count.calls;
      attempts += count.attempts;
    }
    return { byOperation, calls, attempts };
  }

  reset(): void {
    this.#counts.clear();
  }

  #entry(operation: string): { calls: number; attempts: number } {
    let entry = this.#counts.get(operation);
    if (entry === undefined) {
      entry = { calls: 0, attempts: 0 };
      this.#counts.set(operation, entry);
    }
    return entry;
  }
}
