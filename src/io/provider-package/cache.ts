/**
 * The provider's build cache (`providerCacheDir()`): the zips of the self-contained packages built
 * on this machine, `packages/KEY.zip`, KEY the SHA-256 of every input of their bytes (sea.ts). The
 * zip is the canonical package itself: `provider install` copies it where Terraform looks, and
 * `provider package` writes it into the release, so nothing else is kept (not the executables
 * unpacked, not the Node.js they were made of: npm's own cache keeps those tarballs).
 *
 * Safe for any number of processes at once: a build works in a directory of its own
 * (`.work-RANDOM`); a zip is published by renaming a file of its own onto its name (the same bytes
 * whoever wins); nothing a reader may be reading is ever removed but by {@link pruneCache}, which
 * removes only what no run has used for {@link UNUSED_DAYS} days, work directories older than a
 * day (a run that crashed), and the directories of this cache's earlier layout.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** A zip no run has used for this long is removed by the next build. */
export const UNUSED_DAYS = 30;

/** A work directory older than this is a run that crashed. */
const STALE_WORK_MS = 24 * 3600 * 1000;

/** The directories of the earlier layout (unpacked Node.js, executables and zips: about 560 MB). */
const EARLIER_LAYOUT = ["node", "sea", "zips"];

const WORK_PREFIX = ".work-";

function packageFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, "packages", `${key}.zip`);
}

/** The cached zip of `key`, its use recorded (its time set to now); null when there is none. */
export function readCachedZip(cacheDir: string, key: string): Buffer | null {
  const file = packageFile(cacheDir, key);
  let zip: Buffer;
  try {
    zip = fs.readFileSync(file);
  } catch {
    return null;
  }
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
  } catch {
    // a cache we can read but not touch: it is only pruned sooner
  }
  return zip;
}

/** Publishes `zip` as the cached zip of `key`: a file of this process, renamed onto its name. */
export function writeCachedZip(cacheDir: string, key: string, zip: Buffer): void {
  const file = packageFile(cacheDir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(temp, zip, { flag: "wx" });
  fs.renameSync(temp, file);
}

/** A work directory of this process in the cache, for one build; the caller removes it. */
export function makeWorkDir(cacheDir: string): string {
  fs.mkdirSync(cacheDir, { recursive: true });
  return fs.mkdtempSync(path.join(cacheDir, WORK_PREFIX));
}

/** What {@link pruneCache} removed. */
export interface Pruned {
  readonly removed: readonly string[];
  readonly bytes: number;
}

/**
 * Removes what the cache no longer needs: zips unused for {@link UNUSED_DAYS} days (other than
 * `keep`), work directories and temporary files older than a day, and the earlier layout's
 * directories. `now` is the clock (ms).
 */
export function pruneCache(cacheDir: string, keep: readonly string[], now: number = Date.now()): Pruned {
  const removed: string[] = [];
  let bytes = 0;
  const remove = (file: string) => {
    const size = sizeOf(file);
    try {
      fs.rmSync(file, { recursive: true, force: true });
      removed.push(path.relative(cacheDir, file));
      bytes += size;
    } catch {
      // another run removed it first, or it is not ours to remove
    }
  };
  const kept = new Set(keep.map((key) => `${key}.zip`));
  for (const name of list(path.join(cacheDir, "packages"))) {
    const file = path.join(cacheDir, "packages", name);
    const age = now - mtime(file);
    if (name.endsWith(".tmp") ? age > STALE_WORK_MS : !kept.has(name) && age > UNUSED_DAYS * 24 * 3600 * 1000) remove(file);
  }
  for (const name of list(cacheDir)) {
    const file = path.join(cacheDir, name);
    if (EARLIER_LAYOUT.includes(name) || ((name.startsWith(WORK_PREFIX) || name.startsWith(".fetch-") || name.startsWith(".sea-")) && now - mtime(file) > STALE_WORK_MS)) remove(file);
  }
  return { removed: removed.sort(), bytes };
}

function list(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function mtime(file: string): number {
  try {
    return fs.lstatSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function sizeOf(file: string): number {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isDirectory()) return stat.size;
    return fs.readdirSync(file).reduce((sum, name) => sum + sizeOf(path.join(file, name)), 0);
  } catch {
    return 0;
  }
}
