/**
 * Child process of the plan-at-scale scenario: writes a cdktf app (plain JS that loads the built
 * package, like a user's app) declaring N RuleUserList × M users into a temp dir, runs it with
 * runSynth as `plan` does, then reads the synthesized JSON with readDeclarations. Prints one JSON
 * document on stdout: times, the app's peak RSS (it prints its own maxRSS to stderr), this
 * process's peak RSS while reading, and the size of the synthesized stack.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readDeclarations } from "../../src/io/read-synth-output";
import { runSynth } from "../../src/io/synth";
import { person } from "./people";
import { procStatusBytes, resetPeakRss, timed, timedSync } from "./timing";

export interface SynthChildInput {
  readonly rules: number;
  readonly usersPerRule: number;
  /** The repository root (holding dist/src/index.js and node_modules/cdktf). */
  readonly repo: string;
}

export interface SynthChildOutput {
  readonly rules: number;
  readonly aliases: number;
  readonly synthMs: number;
  /** The app's own peak RSS (process.resourceUsage().maxRSS, printed by the app), or null. */
  readonly appPeakRss: number | null;
  readonly stackJsonBytes: number;
  readonly readMs: number;
  readonly rssBeforeRead: number | null;
  readonly peakRssDuringRead: number | null;
  readonly declarationsRead: number;
}

const MARK = "BENCH_APP_MAX_RSS_KB=";

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as SynthChildInput;
  const dir = mkdtempSync(join(tmpdir(), "aru-bench-synth-"));
  try {
    let aliases = 0;
    const lists = Array.from({ length: input.rules }, (_, r) => {
      const users = Array.from({ length: input.usersPerRule }, (_, u) => person(r * input.usersPerRule + u, 1));
      aliases += users.length;
      return { id: `rule-${r}`, ruleId: `00000000-0000-4000-8000-${String(r).padStart(12, "0")}`, users };
    });
    writeFileSync(join(dir, "lists.json"), JSON.stringify(lists));
    writeFileSync(
      join(dir, "app.js"),
      `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [input.repo] }))});
const { RuleUserList } = require(${JSON.stringify(join(input.repo, "dist", "src", "index.js"))});
const lists = require("./lists.json");
const app = new App();
const stack = new TerraformStack(app, "bench");
for (const list of lists) new RuleUserList(stack, list.id, { ruleId: list.ruleId, users: list.users });
app.synth();
process.stderr.write(${JSON.stringify(MARK)} + process.resourceUsage().maxRSS + "\\n");
`,
    );
    const outdir = join(dir, "cdktf.out");
    let output = "";
    const synth = await timed(() =>
      runSynth({ app: `"${process.execPath}" app.js`, outdir, cwd: dir, onOutput: (chunk) => (output = (output + chunk).slice(-4096)) }),
    );
    const marked = new RegExp(`${MARK}(\\d+)`).exec(output);
    const stackJsonBytes = statSync(join(outdir, "stacks", "bench", "cdk.tf.json")).size;

    const rssBeforeRead = procStatusBytes("VmRSS");
    const reset = resetPeakRss();
    const read = timedSync(() => readDeclarations(outdir));
    const peakRssDuringRead = reset ? procStatusBytes("VmHWM") : null;
    const result: SynthChildOutput = {
      rules: input.rules,
      aliases,
      synthMs: synth.ms,
      appPeakRss: marked?.[1] === undefined ? null : Number(marked[1]) * 1024,
      stackJsonBytes,
      readMs: read.ms,
      rssBeforeRead,
      peakRssDuringRead,
      declarationsRead: read.value.length,
    };
    process.stdout.write(JSON.stringify(result) + "\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
