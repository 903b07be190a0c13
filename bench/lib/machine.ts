/** The machine a run was measured on, and where the repository is. */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { dirname, join } from "node:path";

export interface Machine {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly platform: string;
  readonly totalMemoryMB: number;
}

export function machine(): Machine {
  let cpuModel = "unknown";
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux: leave it unknown
  }
  return {
    nproc: availableParallelism(),
    cpuModel,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    totalMemoryMB: Math.round(totalmem() / (1024 * 1024)),
  };
}

/** The repository root: the first folder above this file holding package.json and bench/. */
export function repoRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "bench"))) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the repository above ${from}`);
  }
}
