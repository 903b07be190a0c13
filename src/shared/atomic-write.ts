import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
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

/**
 * {@link writeFileAtomic} for callers that cannot wait (a cdktf synthesis step is synchronous),
 * with the file's permission bits (`mode`, e.g. 0o755 for an executable) set before the rename:
 * the file appears with its content and its mode at once.
 */
export function writeFileAtomicSync(path: string, content: string | Uint8Array, options: { readonly mode?: number } = {}): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, "wx", 0o600);
  } catch (error) {
    throw outputFileError(path, error) ?? error;
  }
  try {
    if (typeof content === "string") writeSync(fd, content, null, "utf8");
    else for (let at = 0; at < content.length; ) at += writeSync(fd, content, at);
    if (options.mode !== undefined) fchmodSync(fd, options.mode);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw outputFileError(path, error) ?? error;
  }
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // ignored: directories cannot be opened or fsynced on some platforms
  }
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
