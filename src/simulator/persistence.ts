/**
 * Persistence of the simulated tenant to one JSON file (the seed format).
 *
 * Each write goes to a temporary file in the same folder, is fsynced, and renamed over the data
 * file, so a reader (or a crash) sees either the old or the new state, never a torn file. Writes
 * are serialized: a save requested while a write is running waits for it and then writes the
 * state as it is at that moment, so no change is lost and the last file written is the latest
 * state. Saves requested while one is already waiting share that write.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";

/** Writes `contents` to `file` atomically (temp file in the same folder, fsync, rename). */
export async function writeFileAtomic(file: string, contents: string): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await fs.promises.open(temp, "w", 0o600);
  try {
    await handle.writeFile(contents, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable; not possible on every platform, so best effort.
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, "r");
    await handle.sync();
  } catch {
    // ignored: directories cannot be opened or fsynced on some platforms
  } finally {
    await handle?.close();
  }
}

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
