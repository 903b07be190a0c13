/**
 * Progress on stderr, only on a TTY and only for more than a handful of items: a single line
 * rewritten in place, cleared when done.
 */
import type { OutputStream } from "./io";

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

const HANDFUL = 5;

export function progress(stream: OutputStream, label: string): Progress {
  let shown = false;
  return {
    update(done, total) {
      if (stream.isTTY !== true || total <= HANDFUL) return;
      shown = true;
      stream.write(`\r${label}: ${done}/${total}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
    },
  };
}
