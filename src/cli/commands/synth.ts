/**
 * `alert-rule-users synth`: synthesizes the app as `plan` does and checks its declarations, with no
 * connection and no secret (issue 31 item 3). In CI it is the job that runs the pull request's code
 * (the app, its npm ci): that job holds no secret, and the job that reads the service runs
 * `plan --skip-synth` on this job's output, never the pull request's code (docs/ci.md).
 */
import { readDesired } from "../../io/workflow";
import { UsageError } from "../../errors";
import { parse } from "../args";
import type { Command, Io } from "../io";
import { synthSettings } from "../run-flags";

export const synthCommand: Command = {
  name: "synth",
  summary: "Synthesize the app and check its declarations, without connecting (for a job that holds no secret)",
  help: `Usage: alert-rule-users synth [flags]

Synthesizes the cdktf app as plan does (the app runs with your environment less the tool's
secrets), reads and checks every RuleUserList from the synthesized JSON, and says how many there
are. Connects to nothing and needs no token: run it where the app's code runs, in a job that holds
no secret, and 'plan --skip-synth --output DIR' on its output where the service is read.

Flags:
  --app CMD              command that synthesizes the app (default: "app" of ./cdktf.json)
  --output DIR           synth output directory, set as CDKTF_OUTDIR (default: cdktf.out)
  --stack NAME           only this stack's declarations are counted (repeatable)
  -h, --help

Exit codes: 0 synthesized and every declaration valid, 1 error.

Examples:
  alert-rule-users synth --output cdktf.out
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("synth", argv, {
      app: { type: "string" },
      output: { type: "string" },
      stack: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const settings = synthSettings({ ...values, "skip-synth": false }, io);
    if (settings.outdir === settings.cwd) throw new UsageError("synth: --output must not be the app's own directory.");
    const declared = await readDesired(settings);
    const stacks = new Set(declared.map((d) => d.stack));
    io.stderr.write(`Synthesized ${declared.length} RuleUserList declaration${declared.length === 1 ? "" : "s"} in ${stacks.size} stack${stacks.size === 1 ? "" : "s"} to ${values.output ?? "cdktf.out"}.\n`);
    return 0;
  },
};
