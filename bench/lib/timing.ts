/** Clocks and memory readings of the benchmark. */
import { readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

export function timedSync<T>(fn: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = fn();
  return { value, ms: performance.now() - started };
}

export const MB = 1024 * 1024;

/** A field of /proc/self/status in bytes (VmRSS, VmHWM), or null where /proc is not available. */
export function procStatusBytes(field: "VmRSS" | "VmHWM", pid: number | "self" = "self"): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/**
 * Resets this process's peak RSS (VmHWM) to its current RSS (Linux: `echo 5 > /proc/self/clear_refs`),
 * so the next VmHWM reading is the peak of what runs in between. False where that is not possible.
 */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** Peak RSS of this process over its whole life, in bytes. */
export function lifetimeMaxRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Runs a full garbage collection when node was started with --expose-gc. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return false;
  gc();
  gc();
  return true;
}
