import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { OutputFileError } from "../errors";

/**
 * Writes a file so readers (or a crash) see the old or the new content, never half: a temp file
 * in the same folder, fsync, rename over the target, fsync of the folder. The temp file is
 * removed when a step fails.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "w", 0o600).catch((error: unknown) => {
    throw outputFileError(path, error) ?? error;
  });
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw outputFileError(path, error) ?? error;
  }
  await syncDirectory(dir);
}

/** Makes the rename itself durable; not possible on every platform, so best effort. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // ignored: directories cannot be opened or fsynced on some platforms
  } finally {
    await handle?.close();
  }
}

/** The expected reasons a file cannot be written where asked, said with the fix; null for others. */
function outputFileError(path: string, error: unknown): OutputFileError | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const dir = dirname(path);
  switch (code) {
    case "ENOENT":
      return new OutputFileError(`cannot write ${path}: the directory ${dir} does not exist; create it first (mkdir -p ${dir}) or write the file elsewhere.`, code);
    case "ENOTDIR":
      return new OutputFileError(`cannot write ${path}: a part of ${dir} is a file, not a directory; choose another path.`, code);
    case "EISDIR":
      return new OutputFileError(`cannot write ${path}: it is a directory; give a file name.`, code);
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new OutputFileError(`cannot write ${path}: no permission to write in ${dir} (${code}); choose a writable directory.`, code);
    default:
      return null;
  }
}
