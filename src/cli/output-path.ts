/**
 * A file flag (--out, --report-json, ...) checked before any request: its directory must exist,
 * so that a run does not read (or apply) everything and then fail to save what it was asked to.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { shellQuote, UsageError } from "../io/door-words";

/** Throws a UsageError naming the flag when the directory of `file` does not exist or is not one. */
export function checkOutputPath(command: string, flag: string, file: string | undefined, cwd: string): void {
  if (file === undefined) return;
  const dir = dirname(resolve(cwd, file));
  if (!existsSync(dir)) {
    throw new UsageError(`${command}: --${flag} ${file}: the directory ${dir} does not exist; create it first (mkdir -p ${shellQuote(dir)}) or choose another path.`);
  }
  if (!statSync(dir).isDirectory()) {
    throw new UsageError(`${command}: --${flag} ${file}: ${dir} is a file, not a directory; choose another path.`);
  }
}
