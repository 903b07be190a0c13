/**
 * The built CLI as the end-to-end tests run it: spawned in a test's folder, connected to its
 * simulator (ALERTS_API_URL, ALERTS_API_TOKEN, ALERTS_TENANT_ID), what it printed kept when asked
 * (for a test that checks no token leaked).
 */
import { connectionEnv, runCli, type CliResult } from "./cli";

export interface CliAgainstOptions {
  /** The folder it runs in, read at each call (a workspace made per test). */
  readonly cwd: () => string;
  /** Every stdout and stderr is pushed here. @default - not kept */
  readonly outputs?: string[];
  /** @default - runCli's (PROCESS_TIMEOUT_MS) */
  readonly timeoutMs?: number;
}

/** One run: `cwd` instead of the test's folder, `env` added to the connection's. */
export interface CliRun {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export type Cli = (args: string[], run?: CliRun) => Promise<CliResult>;

/** The CLI bound to a simulator (read at each call: it may be started in a hook) and a folder. */
export function cliAgainst(sim: { readonly url: string; readonly token: string; readonly tenantId: string }, options: CliAgainstOptions): Cli {
  return async (args, run = {}) => {
    const result = await runCli(args, {
      cwd: run.cwd ?? options.cwd(),
      env: { ...connectionEnv(sim), ...run.env },
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    options.outputs?.push(result.stdout, result.stderr);
    return result;
  };
}
