/**
 * How the CLI shows what a command's run tells it (src/io/workflow/session/reporter.ts): on stderr,
 * warnings and notes labelled, each retry on its line (src/cli/retry-notice.ts), progress on a
 * TTY as one line rewritten in place (src/cli/progress.ts) and cleared when the run goes idle.
 */
import type { ProgressReport, RunReporter } from "../io/workflow/session/reporter";
import type { Io } from "./io";
import { progress, rateNote, type Progress } from "./progress";
import { showRetry } from "./retry-notice";

const PHASE_LABELS = { observe: "Reading rule lists", apply: "Applying" } as const;

export function cliReporter(io: Pick<Io, "stderr">): RunReporter {
  let bar: { phase: ProgressReport["phase"]; line: Progress } | null = null;
  let rate: ProgressReport["rate"];
  const idle = (): void => {
    bar?.line.done();
    bar = null;
  };
  return {
    warn: (message) => io.stderr.write(`Warning: ${message}\n`),
    note: (message) => io.stderr.write(`Note: ${message}\n`),
    say: (line) => io.stderr.write(`${line}\n`),
    retry: (retry) => showRetry(io.stderr, retry),
    progress(report) {
      rate = report.rate;
      if (bar?.phase !== report.phase) {
        idle();
        bar = { phase: report.phase, line: progress(io.stderr, PHASE_LABELS[report.phase], () => rateNote(rate)) };
      }
      bar.line.update(report.done, report.total);
    },
    idle,
  };
}
