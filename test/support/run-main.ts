/** The CLI's `main` run in this process, its output kept: for commands that need no simulator or built CLI. */
import type { Io } from "../../src/cli/io";
import { main } from "../../src/cli/main";

export interface MainResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as they were written, interleaved. */
  readonly out: string;
}

/** Runs `main(args)` in `cwd` with exactly `env` (nothing of this process's environment) and stdin this process's. */
export async function runMain(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<MainResult> {
  let stdout = "";
  let stderr = "";
  let out = "";
  const io: Io = {
    stdout: { write: (s: string) => ((stdout += s), (out += s), true) },
    stderr: { write: (s: string) => ((stderr += s), (out += s), true) },
    stdin: process.stdin,
    env,
    cwd,
  };
  const code = await main(args, io);
  return { code, stdout, stderr, out };
}
