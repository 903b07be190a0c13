/**
 * Writes files and links inside a directory without ever following a link already there: the
 * release (`provider package --out DIR`) and an install (`provider install DIR`) go into
 * directories a user or a checkout may have filled, and a link planted there (`DIR/mirror ->
 * /etc`, `DIR/x.zip -> ~/.bashrc`) must not carry a write outside DIR.
 * - every directory below `root` on the way to an entry is checked first (lstat): a link or a file
 *   there refuses the whole write, naming it, before anything is written;
 * - a file is written as a new file of its own beside its name, then renamed onto it, so a link
 *   at that name is replaced, never written through (src/shared/atomic-write.ts);
 * - `root` itself is the directory the caller named: it may be a link, and it is created when
 *   missing.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "../../errors";
import { writeFileAtomicSync } from "../../shared/atomic-write";

/**
 * What goes at one path below the root (`/`-separated): bytes with a mode; a relative symbolic
 * link; or the same file as another entry written before it (`sameAs`, its path below the root): a
 * hard link, one copy on disk (a copy where the file system has no hard links).
 */
export type Entry = { readonly data: Buffer | string; readonly mode: number } | { readonly link: string } | { readonly sameAs: string };

/**
 * Writes `entries` below `root`, creating directories as needed. `what` names the command in
 * messages (`provider package`). Throws a UsageError, having written nothing, when a directory on
 * the way is a link or a file.
 */
export function writeInside(root: string, entries: ReadonlyMap<string, Entry>, what: string): void {
  fs.mkdirSync(root, { recursive: true });
  const dirs = new Set<string>();
  for (const name of entries.keys()) {
    const parts = name.split("/");
    if (parts.some((p) => p === "" || p === "." || p === "..")) throw new Error(`writeInside: not a plain relative path: ${JSON.stringify(name)}`);
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  const ordered = [...dirs].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
  for (const dir of ordered) {
    const full = path.join(root, ...dir.split("/"));
    const stat = lstatOrNull(full);
    if (stat === null) continue;
    if (stat.isSymbolicLink()) {
      throw new UsageError(`${what}: ${full} is a symbolic link, and nothing is written through one (it could point outside ${root}): nothing was written. Remove the link, or write into another directory.`);
    }
    if (!stat.isDirectory()) throw new UsageError(`${what}: ${full} is a file where a directory goes: nothing was written. Move it away, or write into another directory.`);
  }
  for (const dir of ordered) {
    const full = path.join(root, ...dir.split("/"));
    if (lstatOrNull(full) === null) fs.mkdirSync(full);
  }
  for (const [name, entry] of entries) {
    const full = path.join(root, ...name.split("/"));
    if ("sameAs" in entry) {
      const temp = path.join(path.dirname(full), `.${path.basename(full)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
      const original = path.join(root, ...entry.sameAs.split("/"));
      try {
        fs.linkSync(original, temp);
      } catch {
        fs.copyFileSync(original, temp, fs.constants.COPYFILE_EXCL);
      }
      fs.renameSync(temp, full);
      // a rename onto a link of the same file does nothing (POSIX): the temporary name stays
      fs.rmSync(temp, { force: true });
    } else if ("link" in entry) {
      const temp = path.join(path.dirname(full), `.${path.basename(full)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
      try {
        fs.symlinkSync(entry.link, temp, "file");
      } catch {
        // Windows without the privilege to make links: a copy
        fs.copyFileSync(path.resolve(path.dirname(full), entry.link), temp, fs.constants.COPYFILE_EXCL);
      }
      fs.renameSync(temp, full);
    } else {
      writeFileAtomicSync(full, entry.data, { mode: entry.mode });
    }
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}
