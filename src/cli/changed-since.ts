/**
 * `plan --changed-since REF` in the CLI: reads what changed since REF (io/workflow/changed-since.ts)
 * with SIGINT/SIGTERM turned into an abort, so an interrupt stops the synths and the temporary
 * worktree of REF is removed before the command exits 130 or 143. Says on stderr when REF got its
 * own dependencies, and when every rule is read instead (the fallback, and why).
 */
import { readChangedSince, type ChangedSinceRead, type SynthSettings } from "../io/workflow";
import type { Io } from "./io";
import { watchInterrupts } from "./interrupt";

/** What changed since REF, or the exit code of an interrupt. */
export async function changedSinceOrExit(ref: string, settings: SynthSettings, io: Io): Promise<ChangedSinceRead | number> {
  const interrupts = watchInterrupts(io.stderr, "plan");
  try {
    const read = await readChangedSince(ref, settings, interrupts.signal);
    if (read.noAppAtRef !== null) io.stderr.write(`Note: ${read.noAppAtRef}.\n`);
    if (read.fallback !== null) io.stderr.write(`Warning: --changed-since ${ref}: every declared rule is read, because ${read.fallback}.\n`);
    if (read.refDependencies?.how === "installed") io.stderr.write(`Note: --changed-since ${ref}: ${read.refDependencies.reason}.\n`);
    return read;
  } catch (error) {
    const code = interrupts.exitCode();
    if (code !== null) return code;
    throw error;
  } finally {
    interrupts.dispose();
  }
}
