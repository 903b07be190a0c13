/**
 * `timeouts { create, read, update, delete }`: a block a resource's schema declares, and a deadline
 * for each of Terraform's calls. The server (src/provider/framework/server.ts) reads the block of
 * the call's value and hands the call its {@link Deadline}:
 *
 * - **read** (refresh): the server bounds it; past its deadline the call answers with the state as
 *   it was and an error naming the timeout; the read still in flight is left to finish (it writes
 *   nothing).
 * - **create / update / delete** (apply): the type's method bounds the part before its first
 *   write ({@link Deadline.beforeFirstWrite}): the stop signal fires at the deadline only while
 *   nothing has been sent, so a call past its deadline has sent nothing, and says so. Once the first
 *   write is on its way the call is not cut (a list half-changed is worse than a late one): it
 *   finishes, and a warning says by how much it was late.
 *
 * Loaded before the handshake (the schemas name the block): it imports nothing of the engine.
 */
import { parseDuration } from "../../shared/durations";
import type { Attribute, Block, Diagnostic, ObjectValue, Value } from "../protocol";
import { Typed } from "../protocol";

export const TIMEOUT_OPERATIONS = ["create", "read", "update", "delete"] as const;
export type TimeoutOperation = (typeof TIMEOUT_OPERATIONS)[number];

/** An operation of a `timeouts` block, as its description names it ("an update", never "a update"). */
const OPERATION_WORDS: Readonly<Record<TimeoutOperation, string>> = { create: "a create", read: "a refresh (read)", update: "an update", delete: "a delete" };

/** The `timeouts` block, for a resource's schema to declare. */
export const timeoutsBlock: Block = {
  name: "timeouts",
  nesting: "single",
  description: 'Deadlines of Terraform\'s refresh (read) and apply (create, update, delete) of this resource, as durations ("30s", "5m", "1h"); a plan is not bounded. Past its deadline a call that has sent nothing stops and says so; a call already writing finishes (never half a list) and warns.',
  attributes: TIMEOUT_OPERATIONS.map((operation): Attribute => ({ name: operation, type: "string", optional: true, description: `The deadline of ${OPERATION_WORDS[operation]} (default: none; each request keeps its own deadline, request_timeout).` })),
};

/** A timeout as the configuration wrote it, and in milliseconds. */
export interface Timeout {
  readonly operation: TimeoutOperation;
  readonly text: string;
  readonly ms: number;
}

const block = (value: Value | undefined): ObjectValue | null => (value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value) && !(value instanceof Typed) ? value : null);

/** The timeout of an operation in a `timeouts` block value; null when none is set (or it is not a duration: validate says so). */
export function timeoutOf(timeouts: Value | undefined, operation: TimeoutOperation): Timeout | null {
  const text = block(timeouts)?.[operation];
  if (typeof text !== "string") return null;
  const ms = parseDuration(text);
  return ms === undefined ? null : { operation, text, ms };
}

/** Every `timeouts` value of a configuration that is not a duration, with its path. */
export function timeoutProblems(config: ObjectValue): Diagnostic[] {
  const timeouts = block(config[timeoutsBlock.name]);
  if (timeouts === null) return [];
  return TIMEOUT_OPERATIONS.flatMap((operation): Diagnostic[] => {
    const text = timeouts[operation];
    if (typeof text !== "string" || parseDuration(text) !== undefined) return [];
    return [{ severity: "error", summary: "Invalid timeout", detail: `timeouts.${operation} = ${JSON.stringify(text)} is not a duration: write a whole number and a unit, s, m, h or d ("30s", "5m", "1h").`, attribute: ["timeouts", operation] }];
  });
}

/** What a method bounded by {@link Deadline.beforeFirstWrite} gets: the stop at the deadline, and the mark of its first write. */
export interface WriteGuard {
  /** Fires at the deadline while nothing has been sent; null when the call has no deadline. */
  readonly signal: AbortSignal | null;
  /** Called right before the first write: from then on the call is not cut. */
  readonly writing: () => void;
}

const UNGUARDED: WriteGuard = { signal: null, writing: () => undefined };

/** A call bounded before its first write: done (late or not), or stopped at the deadline with nothing sent. */
export type BeforeFirstWrite<T> = { readonly kind: "done"; readonly value: T; readonly late: Diagnostic | null } | { readonly kind: "expired"; readonly error: Diagnostic };

/** The deadline of one call: the `timeouts` value of its operation, or none. */
export class Deadline {
  static readonly NONE = new Deadline(null);

  constructor(
    readonly timeout: Timeout | null,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The deadline a schema's `timeouts` block sets for `operation` in `value` (none where the schema has no such block). */
  static of(blocks: readonly Block[] | undefined, value: ObjectValue | null, operation: TimeoutOperation, clock?: () => number): Deadline {
    if (value === null || !(blocks ?? []).some((b) => b.name === timeoutsBlock.name)) return Deadline.NONE;
    const timeout = timeoutOf(value[timeoutsBlock.name], operation);
    return timeout === null ? Deadline.NONE : new Deadline(timeout, clock);
  }

  /** `call`, or `late()` as soon as the deadline passes (the call is left to finish; its result is dropped). */
  race<T>(call: Promise<T>, late: (exceeded: (what: string) => Diagnostic) => T): Promise<T> {
    const timeout = this.timeout;
    if (timeout === null) return call;
    return race(call, timeout.ms, () => late((what) => exceeded(timeout, what)));
  }

  /**
   * `work` under the deadline: its guard's signal fires at the deadline while it has not called
   * `writing`; past that moment the answer is "expired" at once (the work in flight stops at its
   * next look at the signal, before any write). A call that began writing is waited for, and its
   * lateness is a warning.
   */
  async beforeFirstWrite<T>(work: (guard: WriteGuard) => Promise<T>, what: string): Promise<BeforeFirstWrite<T>> {
    const timeout = this.timeout;
    if (timeout === null) return { kind: "done", value: await work(UNGUARDED), late: null };
    const stop = new AbortController();
    let writing = false;
    const started = this.clock();
    const call = work({ signal: stop.signal, writing: () => void (writing = true) });
    const first = await race(call.then((value) => ({ value })), timeout.ms, () => {
      if (writing) return null; // writing already: wait for the call to finish
      stop.abort();
      return "expired" as const;
    });
    if (first === "expired") return { kind: "expired", error: exceeded(timeout, what) };
    if (first !== null) return { kind: "done", value: first.value, late: null };
    const value = await call;
    const late = this.clock() - started - timeout.ms;
    return {
      kind: "done",
      value,
      late: { severity: "warning", summary: `${timeout.operation} took longer than its timeout`, detail: `timeouts.${timeout.operation} = ${JSON.stringify(timeout.text)} passed while this rule's list was being written, ${Math.round(late / 1000)} s before the writes ended: a call that has begun writing is never cut, so that no list is left half-changed.` },
    };
  }
}

function exceeded(timeout: Timeout, what: string): Diagnostic {
  return {
    severity: "error",
    summary: `${timeout.operation} timed out`,
    detail: `The ${timeout.operation} of this rule user list took longer than timeouts.${timeout.operation} = ${JSON.stringify(timeout.text)}: ${what} Raise timeouts.${timeout.operation} if the service is this slow (or lower max_rps's wait), then run terraform again.`,
    attribute: ["timeouts", timeout.operation],
  };
}

/** Resolves with `late()` after `ms`, unless the call settles first; the timer never keeps the process alive. */
function race<T, L>(call: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  return new Promise<T | L>((resolve, reject) => {
    const timer = setTimeout(() => resolve(late()), ms);
    timer.unref();
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
