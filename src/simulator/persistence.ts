/**
 * Persistence of the simulated tenant to one JSON file (the seed format).
 *
 * Each write goes through `writeFileAtomic` (src/io/atomic-write.ts: temp file, fsync, rename,
 * fsync of the folder), so a reader (or a crash) sees either the old or the new state, never a
 * torn file. Writes are serialized: a save requested while a write is running waits for it and then writes the
 * state as it is at that moment, so no change is lost and the last file written is the latest
 * state. Saves requested while one is already waiting share that write.
 */
import { writeFileAtomic } from "../io/atomic-write";

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
