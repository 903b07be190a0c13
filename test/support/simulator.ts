/**
 * A simulator for a test file or a describe block: `useSimulator()` registers the hooks that
 * start one on 127.0.0.1 and a random port and stop it, and returns an accessor that reaches the
 * running simulator (url, token, tenantId, rules, alerts, faults, counts, ...). `withSimulator()`
 * runs one test body against a simulator of its own and stops it however the body ends.
 */
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../src/simulator";

export interface UseSimulatorOptions {
  /** @default false - one simulator for the whole block (beforeAll/afterAll); true: a fresh one per test (beforeEach/afterEach) */
  readonly perTest?: boolean;
}

/**
 * Starts a simulator before the tests of the enclosing block and stops it after them. `options`
 * may be a function, called when the simulator starts (for options that earlier hooks prepare).
 * Hooks run in the order they are registered: call it after the hooks it depends on.
 */
export function useSimulator(options: SimulatorOptions | (() => SimulatorOptions) = {}, { perTest = false }: UseSimulatorOptions = {}): RunningSimulator {
  let current: RunningSimulator | undefined;
  const sim = (): RunningSimulator => {
    if (current === undefined) throw new Error("the simulator is not running: use it inside a test or a hook registered after useSimulator()");
    return current;
  };
  const start = async (): Promise<void> => {
    current = await startSimulator({ port: 0, ...(typeof options === "function" ? options() : options) });
  };
  const stop = async (): Promise<void> => {
    await current?.stop();
  };
  if (perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  // Getters on a plain object (not a Proxy), so `{ ...sim }` copies the current values.
  return {
    get url() {
      return sim().url;
    },
    get port() {
      return sim().port;
    },
    get token() {
      return sim().token;
    },
    get tenantId() {
      return sim().tenantId;
    },
    mintToken: () => sim().mintToken(),
    mintedTokens: () => sim().mintedTokens(),
    stop: () => sim().stop(),
    setFaults: (faults) => sim().setFaults(faults),
    requestCounts: () => sim().requestCounts(),
    requestLog: () => sim().requestLog(),
    resetCounts: () => sim().resetCounts(),
    rules: () => sim().rules(),
    rule: (ruleId) => sim().rule(ruleId),
    setListType: (ruleId, usersToAlertOn) => sim().setListType(ruleId, usersToAlertOn),
    setUsers: (ruleId, users) => sim().setUsers(ruleId, users),
    alerts: () => sim().alerts(),
    alert: (alertId) => sim().alert(alertId),
    cases: () => sim().cases(),
    fileEvents: () => sim().fileEvents(),
  };
}

/** Runs `body` against a simulator of its own (random port), stopped however the body ends. */
export async function withSimulator<T>(options: SimulatorOptions, body: (sim: RunningSimulator) => T | Promise<T>): Promise<T> {
  const sim = await startSimulator({ port: 0, ...options });
  try {
    return await body(sim);
  } finally {
    await sim.stop();
  }
}
