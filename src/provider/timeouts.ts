/**
 * The resource's `timeouts { create, read, update, delete }`: a deadline for each of Terraform's
 * calls, kept by the adapter (src/provider/provider.ts) around the resource's own methods.
 *
 * - **read** (refresh): past its deadline, the call answers with an error naming the timeout; the
 *   read still in flight is left to finish (it writes nothing).
 * - **create / update / delete** (apply): the call's stop signal fires at the deadline only while
 *   nothing has been sent: the workflow checks it right before the first write
 *   (src/io/workflow/steps/apply.ts), so a call past its deadline has sent nothing, and says so. Once the
 *   first write is on its way the call is not cut (a list half-changed is worse than a late one): it
 *   finishes, and a warning says by how much it was late.
 * Terraform's Ctrl-C (StopProvider) stops every call as before: the two signals are one.
 */
import { parseDuration } from "../io/door-words";
import type { ProviderRun } from "./configure";
import type { Diagnostic, MoveRequest, ObjectValue, ResourceType, Value } from "./protocol";
import { Typed } from "./protocol";
import { TIMEOUT_OPERATIONS } from "./schema";

export type TimeoutOperation = (typeof TIMEOUT_OPERATIONS)[number];

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

/** Every `timeouts` value that is not a duration, with its path. */
export function timeoutProblems(config: ObjectValue): Diagnostic[] {
  const timeouts = block(config["timeouts"]);
  if (timeouts === null) return [];
  return TIMEOUT_OPERATIONS.flatMap((operation): Diagnostic[] => {
    const text = timeouts[operation];
    if (typeof text !== "string" || parseDuration(text) !== undefined) return [];
    return [{ severity: "error", summary: "Invalid timeout", detail: `timeouts.${operation} = ${JSON.stringify(text)} is not a duration: write a whole number and a unit, s, m, h or d ("30s", "5m", "1h").`, attribute: ["timeouts", operation] }];
  });
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

/** The operation Terraform's apply performs. */
function applyOperation(prior: ObjectValue | null, planned: ObjectValue | null): TimeoutOperation {
  return planned === null ? "delete" : prior === null ? "create" : "update";
}

/**
 * The resource with its `timeouts` kept. `make` builds the resource on a run (each call that has a
 * deadline gets the run with its own stop signal); `current` is the provider's run.
 */
export function withTimeouts(make: (current: () => ProviderRun | null) => ResourceType, current: () => ProviderRun | null, clock: () => number = Date.now): ResourceType {
  const base = make(current);
  // methods called on `base` (a resource may be a class instance: its methods live on its prototype)
  return {
    schema: base.schema,
    validate: async (config) => [...((await base.validate?.(config)) ?? []), ...timeoutProblems(config)],
    upgrade: (version, state) => base.upgrade?.(version, state) ?? state,
    plan: (request) => base.plan(request),
    importState: (id) => base.importState(id),
    ...(base.move === undefined ? {} : { move: (request: MoveRequest) => base.move!(request) }),

    read(request) {
      const timeout = timeoutOf(request.state["timeouts"], "read");
      if (timeout === null) return base.read(request);
      return race(base.read(request), timeout.ms, () => ({ state: request.state, private: request.private, diagnostics: [exceeded(timeout, "the list was not read (the state is as it was).")] }));
    },

    async apply(request) {
      const operation = applyOperation(request.prior, request.planned);
      const timeout = timeoutOf((operation === "delete" ? request.prior : request.planned)?.["timeouts"], operation);
      const run = current();
      if (timeout === null || run === null) return base.apply(request);
      // The deadline stops the call only before its first write: `send` marks that moment.
      const deadline = new AbortController();
      let writing = false;
      const timed: ProviderRun = {
        ...run,
        signal: AbortSignal.any([run.signal, deadline.signal]),
        session: {
          ...run.session,
          send: (plan, options) => {
            writing = true;
            return run.session.send(plan, options);
          },
        },
      };
      const started = clock();
      const call = make(() => timed).apply(request);
      const answer = await race(
        call,
        timeout.ms,
        () => {
          if (writing) return null; // writing already: wait for the call to finish
          deadline.abort();
          return { state: request.prior, diagnostics: [exceeded(timeout, "nothing was sent for this rule (the deadline passed before its first write).")] };
        },
      );
      if (answer !== null) return answer;
      const finished = await call;
      const late = clock() - started - timeout.ms;
      return {
        ...finished,
        diagnostics: [
          ...(finished.diagnostics ?? []),
          { severity: "warning", summary: `${operation} took longer than its timeout`, detail: `timeouts.${operation} = ${JSON.stringify(timeout.text)} passed while this rule's list was being written, ${Math.round(late / 1000)} s before the writes ended: a call that has begun writing is never cut, so that no list is left half-changed.` },
        ],
      };
    },
  };
}
