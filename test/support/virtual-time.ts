/**
 * Time for the rate limiter's tests: a clock and a sleep that only move when the test says so
 * (every wait is a timer of the test's own, so runs are deterministic and take no time), and the
 * most sends found in any window.
 */

/** A clock and a sleep that only move when the test says so. */
export function virtualTime(now0 = 0) {
  let now = now0;
  const timers: Array<{ at: number; resolve: () => void }> = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        timers.push({ at: now + Math.max(0, ms), resolve });
      }),
    /** Runs timers in order until `done` resolves (or the clock passes `limitMs`). */
    async runUntil<T>(done: Promise<T>, limitMs = 3_600_000): Promise<T> {
      let finished = false;
      let value: T | undefined;
      void done.then((v) => {
        finished = true;
        value = v;
      });
      await settle();
      while (!finished) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        if (next === undefined) {
          await settle();
          if (!finished) throw new Error("nothing left to run, and the body has not finished");
          break;
        }
        if (next.at > limitMs) throw new Error(`virtual clock passed ${limitMs} ms`);
        now = Math.max(now, next.at);
        next.resolve();
        await settle();
      }
      return value as T;
    },
  };
}

/** Sends in any window of `windowMs` (the most found). */
export function mostInWindow(times: readonly number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    // (less a nanosecond: 3 sends 1000/3 ms apart add up to 999.9999999 in floating point)
    while ((sorted[i] ?? 0) - (sorted[j] ?? 0) >= windowMs - 1e-6) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

