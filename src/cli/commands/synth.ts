/**
 * `alert-rule-users synth`: the first step of the Terraform path. Runs the app into cdktf.out (as
 * plan does) and checks every declaration, with no connection and no token; prints where each
 * stack is and the Terraform commands to run next.
 */
import { relative } from "node:path";
import { synthesizeApp } from "../../io/workflow";
import { shellQuote } from "../../shared/text";
import { parse } from "../args";
import type { Command, Io } from "../io";
import { synthSettings } from "../run-flags";

export const synthCommand: Command = {
  name: "synth",
  summary: "Synthesize the app into cdktf.out for Terraform (no connection, no token)",
  help: `Usage: alert-rule-users synth [flags]

Runs the cdktf app into the output directory (as plan does), checks every RuleUserList (a rule
declared twice, an invalid mode or a policy violation fails here) and prints each stack's
directory and the next step: terraform init and terraform apply in that directory. Talks to no
service and needs no token: the Terraform path's provisioners connect when terraform apply runs
them, with the connection variables of that shell.

Flags:
  --app CMD              command that synthesizes the app (default: "app" of ./cdktf.json)
  --output DIR           synth output directory, set as CDKTF_OUTDIR (default: cdktf.out)
  --stack NAME           only this stack (repeatable; the app still synthesizes all)
  -h, --help

Exit codes: 0 synthesized, 1 error (the app failed, or a declaration is invalid).

Example:
  alert-rule-users synth && cd cdktf.out/stacks/alert-rules && terraform init && terraform apply
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
    const stacks = await synthesizeApp(settings);
    const shown = (dir: string): string => {
      const rel = relative(io.cwd, dir);
      return rel === "" ? "." : rel.startsWith("..") ? dir : rel;
    };
    const lists = stacks.reduce((n, s) => n + s.lists, 0);
    io.stdout.write(
      `Synthesized ${stacks.length} stack${stacks.length === 1 ? "" : "s"} into ${shown(settings.outdir)} ` +
        `(${lists} rule user list${lists === 1 ? "" : "s"}):\n`,
    );
    for (const stack of stacks) {
      io.stdout.write(`  ${stack.name}: ${shown(stack.dir)} (${stack.lists} list${stack.lists === 1 ? "" : "s"})\n`);
    }
    if (lists === 0) io.stderr.write("Warning: the app declares no RuleUserList: terraform apply would change no list.\n");
    const first = stacks.find((s) => s.lists > 0) ?? stacks[0];
    if (first !== undefined) {
      io.stdout.write(
        `\nNext, with the connection variables set as for plan (ALERTS_API_URL, ALERTS_TENANT_ID, the token):\n` +
          `  cd ${shellQuote(shown(first.dir))} && terraform init && terraform apply\n`,
      );
    }
    return 0;
  },
};
