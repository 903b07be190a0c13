/**
 * The provider process: Terraform or OpenTofu start the release's executable (src/release/executable.ts),
 * read the handshake line and speak the plugin protocol over mutual TLS (src/provider/protocol).
 * Started by hand with no command, it says what it is and exits.
 */
import { appendFileSync } from "node:fs";
import { alertRulesProvider } from "./provider";
import { serve } from "./protocol";

/**
 * For measurements (bench/scenarios/provider.ts): where set, the process appends one line
 * `PID USER_MICROSECONDS SYSTEM_MICROSECONDS` (its own CPU time) to this file when it exits.
 */
export const CPU_FILE_VARIABLE = "ALERT_RULE_USERS_PROVIDER_CPU_FILE";

/** The oldest Node.js the provider runs on (the darwin packages run the `node` on PATH). */
const OLDEST_NODE = 20;

/** Serves the provider as this process, until Terraform says it is done; exits with the process. */
export function runProvider(): void {
  if (Number(process.versions.node.split(".")[0]) < OLDEST_NODE) {
    // on stdout too: Terraform shows what a plugin printed there when its handshake fails
    const sentence = `terraform-provider-alertrules: needs Node.js ${OLDEST_NODE} or later, and the node on PATH is ${process.version}; install a newer Node.js, then run terraform again`;
    process.stdout.write(`${sentence}\n`);
    process.stderr.write(`${sentence}\n`);
    process.exit(1);
  }
  const cpuFile = process.env[CPU_FILE_VARIABLE];
  if (cpuFile !== undefined && cpuFile !== "") {
    process.on("exit", () => {
      const used = process.cpuUsage();
      appendFileSync(cpuFile, `${process.pid} ${used.user} ${used.system}\n`);
    });
  }
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const provider = alertRulesProvider({ env: process.env, cwd: process.cwd(), log });
  serve(provider)
    .then(() => process.exit()) // process.exitCode: 1 where serve refused to start (no magic cookie: started by hand)
    .catch((err: unknown) => {
      // serve's own failures carry no secret: the engine's messages are redacted where they are made
      log(`[ERROR] alertrules provider: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
