/**
 * `npm run demo:report [-- DIR]`: the access report against the simulator, on a fresh machine.
 * Starts the simulator in-process with the sample tenant and runs the real CLI's `report` on
 * examples/basic (its declarations joined), writing DIR/access.html and DIR/access.csv (default
 * DIR: ./access-report, created). The clock is fixed (--now 2027-06-20T00:00:00Z) so that the
 * example's exception that ends on 2027-06-30 shows as expiring.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../cli/main";
import type { Io } from "../cli/io";
import { redactingStream } from "../cli/io";
import { startSimulator } from "../simulator";
import { messageOf } from "../shared/text";

const ROOT = resolve(__dirname, "..", "..", "..");

async function run(dir: string): Promise<number> {
  const sim = await startSimulator({ port: 0 });
  const outdir = mkdtempSync(join(tmpdir(), "alert-rule-users-demo-"));
  mkdirSync(dir, { recursive: true });
  const io: Io = {
    stdout: redactingStream(process.stdout, () => [sim.token]),
    stderr: redactingStream(process.stderr, () => [sim.token]),
    stdin: process.stdin,
    env: { ...process.env, ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId },
    cwd: join(ROOT, "examples", "basic"),
  };
  try {
    process.stdout.write(`Simulator with the sample tenant at ${sim.url}; app: examples/basic/main.ts\n`);
    const html = join(dir, "access.html");
    const csv = join(dir, "access.csv");
    process.stdout.write(`$ alert-rule-users report --html ${html} --csv ${csv} --now 2027-06-20T00:00:00Z\n`);
    const code = await main(["report", "--html", html, "--csv", csv, "--output", outdir, "--now", "2027-06-20T00:00:00Z"], io);
    if (code === 0) process.stdout.write(`Open ${html} in a browser (no network needed).\n`);
    return code;
  } finally {
    await sim.stop();
    rmSync(outdir, { recursive: true, force: true });
  }
}

run(resolve(process.argv[2] ?? "access-report")).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`Demo failed: ${messageOf(err)}\n`);
    process.exitCode = 1;
  },
);
