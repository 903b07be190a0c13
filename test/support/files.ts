/** The files below a folder, for tests that look at what a command wrote (or at the repository). */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface FilesUnderOptions {
  /** Names of files and folders passed over (a folder's whole content with it). @default - none */
  readonly skip?: readonly string[];
  /** Only the files whose name ends with one of these. @default - every file */
  readonly endingWith?: readonly string[];
  /** Paths relative to this folder. @default - `dir` joined to each path below it */
  readonly relativeTo?: string;
}

/** Every file below `dir`, sorted; none when `dir` does not exist. */
export function filesUnder(dir: string, options: FilesUnderOptions = {}): string[] {
  const { skip = [], endingWith, relativeTo } = options;
  const walk = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      if (skip.includes(name)) return [];
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return walk(path);
      return endingWith === undefined || endingWith.some((ending) => name.endsWith(ending)) ? [path] : [];
    });
  const files = existsSync(dir) ? walk(dir) : [];
  return (relativeTo === undefined ? files : files.map((file) => relative(relativeTo, file))).sort();
}
