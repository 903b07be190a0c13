/**
 * `npm run demo`: the whole flow against the simulator, on a fresh machine. Starts the simulator
 * in-process on a free port with the sample tenant, then runs the real CLI on examples/basic:
 * plan (shows the changes and saves them), apply of that saved plan (the plan is not shown a
 * second time), and plan again (shows no changes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { main } from "../cli/main";
import type { Io } from "../cli/io";
import { redactingStream } from "../cli/io";
import { startSimulator } from "../simulator";
import { messageOf } from "../shared/text";

const ROOT = resolve(__dirname, "..", "..", "..");

function heading(text: string): void {
  process.stdout.write(`\n\x1b[1m== ${text}\x1b[0m\n\n`.replace(process.stdout.isTTY ? "" : /\x1b\[[0-9;]*m/g, ""));
}

async function run(): Promise<number> {
  const sim = await startSimulator({ port: 0 });
  const outdir = mkdtempSync(join(tmpdir(), "alert-rule-users-demo-"));
  const env = { ...process.env, ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId };
  const io: Io = {
    stdout: redactingStream(process.stdout, () => [sim.token]),
    stderr: redactingStream(process.stderr, () => [sim.token]),
    stdin: process.stdin,
    env,
    cwd: join(ROOT, "examples", "basic"),
  };
  try {
    process.stdout.write(`Simulator with the sample tenant at ${sim.url} (tenant ${sim.tenantId}).\n`);
    process.stdout.write("App: examples/basic/main.ts (7 RuleUserList constructs, one RuleUserListPolicy, one exception that expires)\n");

    const planFile = join(outdir, "plan.json");
    heading("1/3  alert-rule-users plan --out plan.json");
    const first = await main(["plan", "--output", outdir, "--out", planFile, "--detailed-exitcode"], io);
    if (first !== 2) throw new Error(`the first plan should show changes (exit 2), it exited ${first}`);

    heading("2/3  alert-rule-users apply plan.json");
    const applied = await main(["apply", planFile], io);
    if (applied !== 0) throw new Error(`apply should converge every rule, it exited ${applied}`);

    heading("3/3  alert-rule-users plan (again)");
    const second = await main(["plan", "--skip-synth", "--output", outdir, "--detailed-exitcode"], io);
    if (second !== 0) throw new Error(`the second plan should show no changes (exit 0), it exited ${second}`);

    const counts = sim.requestCounts();
    process.stdout.write(
      `\nRequests the simulator received: ${Object.entries(counts)
        .map(([op, n]) => `${op} ${n}`)
        .join(", ")}\n`,
    );
    process.stdout.write("\nDemo complete: the live lists now match examples/basic/main.ts.\n");
    return 0;
  } finally {
    await sim.stop();
    rmSync(outdir, { recursive: true, force: true });
  }
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`Demo failed: ${messageOf(err)}\n`);
    process.exitCode = 1;
  },
);
