/**
 * Progress on stderr, only on a TTY and only for more than a handful of items: a single line
 * rewritten in place, cleared when done. The line also says when the service is rate limiting
 * the run, and at what rate it is sending.
 */
import type { RateLimiterState } from "../api";
import type { OutputStream } from "./io";

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

const HANDFUL = 5;

/**
 * `label: done/total`, followed by what `note` says at that moment (e.g. the rate limiter's
 * state, see {@link rateNote}).
 */
export function progress(stream: OutputStream, label: string, note: () => string | undefined = () => undefined): Progress {
  let shown = false;
  return {
    update(done, total) {
      if (stream.isTTY !== true || total <= HANDFUL) return;
      shown = true;
      const extra = note();
      stream.write(`\r\x1b[2K${label}: ${done}/${total}${extra === undefined ? "" : ` (${extra})`}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}

/** Requests a second, to one decimal (two below 1). */
export function formatRps(rps: number): string {
  return rps < 1 ? rps.toFixed(2) : rps.toFixed(1);
}

/**
 * What the rate limiter is doing, in words: `throttled by the service: 1.9 requests/s` once the
 * service answered 429, `at most N requests/s` under `--max-rps` alone, nothing otherwise.
 */
export function rateNote(state: RateLimiterState | undefined): string | undefined {
  if (state?.rps === undefined) return undefined;
  if (state.throttled) return `throttled by the service: ${formatRps(state.rps)} requests/s`;
  return `at most ${formatRps(state.rps)} requests/s`;
}
