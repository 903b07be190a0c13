/**
 * Persistence of the simulated tenant to one JSON file (the seed format).
 *
 * Each write goes through `writeFileAtomic` (src/shared/atomic-write.ts: temp file, fsync, rename,
 * fsync of the folder), so a reader (or a crash) sees either the old or the new state, never a
 * torn file. Writes are serialized: a save requested while a write is running waits for it and then writes the
 * state as it is at that moment, so no change is lost and the last file written is the latest
 * state. Saves requested while one is already waiting share that write.
 */
import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../shared/atomic-write";

/** Serializes saves of a changing state to one file (see the module comment). */
export class SerializedFileWriter {
  private running: Promise<void> | undefined;
  private waiting: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly render: () => string,
  ) {}

  /** Resolves once a write that started after this call has completed (rejects if it failed). */
  save(): Promise<void> {
    if (this.waiting !== undefined) return this.waiting;
    const before = this.running ?? Promise.resolve();
    const next: Promise<void> = before
      .catch(() => undefined)
      .then(() => {
        this.waiting = undefined;
        this.running = next;
        return writeFileAtomic(this.file, this.render());
      })
      .finally(() => {
        if (this.running === next) this.running = undefined;
      });
    this.waiting = next;
    return next;
  }

  /** Resolves when no write is running or waiting (failures are ignored here). */
  async idle(): Promise<void> {
    while (this.waiting !== undefined || this.running !== undefined) {
      await (this.waiting ?? this.running)?.catch(() => undefined);
    }
  }
}

/** Renders a state for the data file. */
export function renderState(state: unknown): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

/** Whether a process with this ID is running (signal 0 only checks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temp files that a killed writer of `dataFile` left beside it
 * (`.<name>.<pid>.<hex>.tmp`, as writeFileAtomic names them), unless their process still runs.
 * Returns the names removed.
 */
export function removeStaleTempFiles(dataFile: string): string[] {
  const dir = dirname(dataFile);
  const prefix = `.${basename(dataFile)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && isRunning(pid)) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
