/**
 * SIGINT and SIGTERM during a command that writes (docs/contract.md §9.3): the first signal aborts an
 * AbortSignal that the io layer watches (no new call starts; calls in flight finish), and the
 * command then reports what was done and exits 128 + the signal number (130, 143). A second
 * signal exits at once. Process handlers live here only; the io layer sees just the AbortSignal.
 */
import type { OutputStream } from "./io";

export type InterruptSignal = "SIGINT" | "SIGTERM";

/** Shell convention: 128 + the signal number. */
export const INTERRUPT_EXIT_CODES: Readonly<Record<InterruptSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** The process, as far as interrupts need it (injectable in tests). */
export interface SignalSource {
  on(event: InterruptSignal, listener: () => void): unknown;
  off(event: InterruptSignal, listener: () => void): unknown;
  exit(code: number): never;
}

export interface Interrupts {
  /** Aborted at the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The first signal received, or null. */
  received(): InterruptSignal | null;
  /** The exit code for the signal received (130 or 143), or null. */
  exitCode(): number | null;
  /** Removes the handlers: signals act as by default again. */
  dispose(): void;
}

/**
 * Installs the handlers. `what` names what stops ("apply"); the notice goes to `stderr` at the first
 * signal, and a second signal exits at once with its code.
 */
export function watchInterrupts(stderr: OutputStream, what: string, source: SignalSource = process): Interrupts {
  const controller = new AbortController();
  let first: InterruptSignal | null = null;
  const handlers = (["SIGINT", "SIGTERM"] as const).map((name) => {
    const handler = (): void => {
      if (first !== null) {
        stderr.write(`\n${name} again: stopping ${what} at once. Calls in flight may or may not have been applied; run ${what} again.\n`);
        source.exit(INTERRUPT_EXIT_CODES[name]);
      }
      first = name;
      stderr.write(`\n${name} received: stopping ${what}. No new call will start; waiting for the calls in flight to finish (${name === "SIGINT" ? "Ctrl-C" : "SIGTERM"} again stops at once).\n`);
      controller.abort();
    };
    source.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    received: () => first,
    exitCode: () => (first === null ? null : INTERRUPT_EXIT_CODES[first]),
    dispose: () => {
      for (const [name, handler] of handlers) source.off(name, handler);
    },
  };
}

/** An interrupt ended a step that {@link interruptible} ran: the command exits with `exitCode`. */
export class Interrupted extends Error {
  constructor(readonly exitCode: number) {
    super(`interrupted (exit code ${exitCode})`);
  }
}

/**
 * Runs `work` with SIGINT/SIGTERM turned into the abort of its signal (`what` names what stops,
 * as for {@link watchInterrupts}); the handlers are removed when it ends. When it fails after an
 * interrupt, throws {@link Interrupted} with the interrupt's exit code instead of its echo.
 */
export async function interruptible<T>(stderr: OutputStream, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const interrupts = watchInterrupts(stderr, what);
  try {
    return await work(interrupts.signal);
  } catch (error) {
    const code = interrupts.exitCode();
    if (code !== null) throw new Interrupted(code);
    throw error;
  } finally {
    interrupts.dispose();
  }
}
