/**
 * Where the benchmark's simulator runs. By default on a worker thread of this process: its CPU
 * time (parsing, validating, copying lists) then runs beside our client instead of between our
 * requests, as a remote service's would. `same-thread` starts it on the main thread, as the tests
 * do: the client and the simulator then share one event loop and each one's CPU time delays the
 * other's requests. The worker needs the compiled sim-worker.js (dist/bench/lib); from TypeScript
 * sources (ts-jest) only `same-thread` is available.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { startSimulator, type FaultOptions, type RequestLogEntry, type SimRule, type TenantSeed } from "../../src/simulator";

export type SimulatorMode = "thread" | "same-thread";

export interface HostedSimulator {
  readonly url: string;
  readonly token: string;
  readonly tenantId: string;
  readonly mode: SimulatorMode;
  requestCounts(): Promise<Record<string, number>>;
  /** Every request as the simulator saw it: arrival (ms since it started), operation, status. */
  requestLog(): Promise<RequestLogEntry[]>;
  rules(): Promise<SimRule[]>;
  stop(): Promise<void>;
}

const WORKER_SCRIPT = join(__dirname, "sim-worker.js");

export function threadAvailable(): boolean {
  return existsSync(WORKER_SCRIPT);
}

let defaultMode: SimulatorMode = threadAvailable() ? "thread" : "same-thread";

/** The mode of the simulators started from now on (bench --same-thread-simulator). */
export function setSimulatorMode(mode: SimulatorMode): void {
  if (mode === "thread" && !threadAvailable()) throw new Error(`no ${WORKER_SCRIPT}: build first (npm run build)`);
  defaultMode = mode;
}

export function simulatorMode(): SimulatorMode {
  return defaultMode;
}

export interface WorkerRequest {
  readonly id: number;
  readonly kind: "counts" | "log" | "rules" | "stop";
}

/** What the worker is started with. */
export interface WorkerSetup {
  readonly seed: TenantSeed;
  readonly latencyMs: number;
  /** The simulator's `rateLimitRps` (a token bucket of that many requests a second, burst as many). */
  readonly rateLimitRps?: number | undefined;
  /** Faults besides the latency and the bucket (e.g. `rateLimitEvery`, `failRate`: the safety-limits scenario). @default - none */
  readonly extraFaults?: ExtraFaults | undefined;
}

/** The simulator's faults a scenario may add to the latency and the rate limit. */
export type ExtraFaults = Omit<FaultOptions, "latencyMs" | "rateLimitRps">;

/** The simulator's faults for a setup: the latency, the rate limit when there is one, and any extra faults. */
export function faultsOf(setup: Omit<WorkerSetup, "seed">): FaultOptions {
  return { ...setup.extraFaults, latencyMs: setup.latencyMs, ...(setup.rateLimitRps === undefined ? {} : { rateLimitRps: setup.rateLimitRps }) };
}

export async function hostSimulator(
  seed: TenantSeed,
  latencyMs: number,
  mode: SimulatorMode = defaultMode,
  rateLimitRps?: number,
  extraFaults?: ExtraFaults,
): Promise<HostedSimulator> {
  if (mode === "same-thread") {
    const sim = await startSimulator({ port: 0, seed, faults: faultsOf({ latencyMs, rateLimitRps, extraFaults }) });
    return {
      url: sim.url,
      token: sim.token,
      tenantId: sim.tenantId,
      mode,
      requestCounts: () => Promise.resolve(sim.requestCounts()),
      requestLog: () => Promise.resolve(sim.requestLog()),
      rules: () => Promise.resolve(sim.rules()),
      stop: () => sim.stop(),
    };
  }
  const worker = new Worker(WORKER_SCRIPT, { workerData: { seed, latencyMs, rateLimitRps, extraFaults } satisfies WorkerSetup });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the simulator worker exited (code ${code})`)));
  const ready = await new Promise<{ url: string; token: string; tenantId: string }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  worker.on("message", (message: { id: number; value: unknown }) => {
    pending.get(message.id)?.resolve(message.value);
    pending.delete(message.id);
  });
  let next = 0;
  const ask = <T>(kind: WorkerRequest["kind"]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure !== null) {
        reject(failure);
        return;
      }
      const id = ++next;
      pending.set(id, { resolve: (value) => resolve(value as T), reject });
      worker.postMessage({ id, kind } satisfies WorkerRequest);
    });
  return {
    ...ready,
    mode,
    requestCounts: () => ask<Record<string, number>>("counts"),
    requestLog: () => ask<RequestLogEntry[]>("log"),
    rules: () => ask<SimRule[]>("rules"),
    stop: async () => {
      await ask<null>("stop");
      worker.removeAllListeners("exit");
      await worker.terminate();
    },
  };
}
