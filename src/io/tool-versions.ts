/**
 * The versions of the tools `doctor` runs (src/io/workflow/runs/doctor.ts): `terraform version`
 * and a `node --version`, each a child process with the environment without the token and the
 * other secrets (src/shared/secret-variables.ts), bounded in time.
 */
import { spawn, spawnSync } from "node:child_process";
import { childEnvironment } from "../shared/secret-variables";

/** How long `terraform version` may take before it counts as not runnable (a cold start on a loaded machine is seconds). */
const TERRAFORM_VERSION_TIMEOUT_MS = 60_000;

/** The first line of `terraform version`, or null when no terraform runs from PATH. */
export function terraformVersion(env: NodeJS.ProcessEnv, cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    let out = "";
    let child;
    try {
      // The environment without the token and the other secrets: terraform needs none of them to say its version.
      child = spawn("terraform", ["version"], { cwd, env: { ...childEnvironment(env), CHECKPOINT_DISABLE: "1" }, stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      resolve(null);
      return;
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), TERRAFORM_VERSION_TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const first = out.split(/\r?\n/)[0]?.trim() ?? "";
      resolve(code === 0 && first !== "" ? first : code === 0 ? "" : null);
    });
  });
}

/** The version `node --version` of the executable `node` prints, or null when it does not run. */
export function nodeVersion(node: string, env: NodeJS.ProcessEnv): string | null {
  const run = spawnSync(node, ["--version"], { encoding: "utf8", timeout: 20_000, env: childEnvironment(env) });
  return run.status === 0 ? run.stdout.trim() : null;
}
