/**
 * `alert-rule-users synth`: synthesizes the app as `plan` does and checks its declarations, with no
 * connection and no secret, and says where each stack is and what to run next. Two uses:
 * - CI: the job that runs the pull request's code (the app, its npm ci) holds no secret, since that
 *   code could print one; the job that reads the service runs `plan --skip-synth` on this job's
 *   output, never the pull request's code (docs/ci.md);
 * - the Terraform path: synthesize, then `terraform init && terraform apply` in the
 *   stack's directory, without a connection just to synthesize.
 */
import { relative } from "node:path";
import { resolve } from "node:path";
import { synthesizeApp } from "../../io/workflow";
import { writeDeclarationsFromTerraformShow } from "../../io/declarations-from-terraform";
import { shellQuote, UsageError } from "../../io/door-words";
import { parse } from "../args";
import { inCi } from "../hints";
import type { Command, Io } from "../io";
import { synthSettings } from "../run-flags";

export const synthCommand: Command = {
  name: "synth",
  summary: "Synthesize the app and check its declarations, without connecting (Terraform path; a job that holds no secret)",
  help: `Usage: alert-rule-users synth [flags]

Synthesizes the cdktf app as plan does (the app runs with your environment less the tool's
secrets), reads and checks every RuleUserList from the synthesized JSON (a rule declared twice,
an invalid mode or a policy violation fails here), says how many there are, and prints each
stack's directory and the next step. Connects to nothing and needs no token:
- the Terraform path: then terraform init and terraform apply in the stack's directory, with the
  connection variables set as for plan (the provisioners connect when terraform apply runs them);
- CI: run it where the app's code runs, in a job that holds no secret, and
  'plan --skip-synth --output DIR' on its output where the service is read.

Flags:
  --app CMD              command that synthesizes the app (default: "app" of ./cdktf.json)
  --output DIR           synth output directory, set as CDKTF_OUTDIR (default: cdktf.out)
  --stack NAME           only this stack's declarations are counted (repeatable)
  --from-terraform-plan FILE
                         an HCL configuration instead of an app: FILE is terraform show -json of a
                         plan made with ALERT_RULE_USERS_PROVIDER_OFFLINE=1 (no service, no secret);
                         its alertrules_rule_user_list resources are written to --output as data,
                         nothing else of it (no output, no variable)
  -h, --help

Exit codes: 0 synthesized and every declaration valid, 1 error.

Examples:
  alert-rule-users synth --output cdktf.out
  terraform show -json tfplan > tfplan.json && alert-rule-users synth --from-terraform-plan tfplan.json --output declarations
  alert-rule-users synth && cd cdktf.out/stacks/alert-rules && terraform init && terraform apply
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("synth", argv, {
      app: { type: "string" },
      output: { type: "string" },
      stack: { type: "string", multiple: true },
      "from-terraform-plan": { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const settings = synthSettings({ ...values, "skip-synth": false }, io);
    if (settings.outdir === settings.cwd) throw new UsageError("synth: --output must not be the app's own directory.");
    const fromPlan = values["from-terraform-plan"];
    if (fromPlan !== undefined) {
      const lists = writeDeclarationsFromTerraformShow(resolve(io.cwd, fromPlan), settings.outdir);
      io.stderr.write(`Wrote ${lists} alertrules_rule_user_list declaration${lists === 1 ? "" : "s"} of ${fromPlan} to ${values.output ?? "cdktf.out"}.\n`);
      return 0;
    }
    const stacks = await synthesizeApp(settings);
    const declared = stacks.reduce((n, s) => n + s.lists, 0);
    const holding = stacks.filter((s) => s.lists > 0).length;
    io.stderr.write(`Synthesized ${declared} RuleUserList declaration${declared === 1 ? "" : "s"} in ${holding} stack${holding === 1 ? "" : "s"} to ${values.output ?? "cdktf.out"}.\n`);
    const shown = (dir: string): string => {
      const rel = relative(io.cwd, dir);
      return rel === "" ? "." : rel.startsWith("..") ? dir : rel;
    };
    for (const stack of stacks) io.stdout.write(`  ${stack.name}: ${shown(stack.dir)} (${stack.lists} list${stack.lists === 1 ? "" : "s"})\n`);
    const first = stacks.find((s) => s.lists > 0) ?? stacks[0];
    // what a person at a terminal does next; a CI job's next step is its workflow's
    if (first !== undefined && !inCi(io.env)) {
      io.stdout.write(
        `\nNext, on the Terraform path, with the connection variables set as for plan (ALERTS_API_URL, ALERTS_TENANT_ID, the token):\n` +
          `  cd ${shellQuote(shown(first.dir))} && terraform init && terraform apply\n`,
      );
    }
    return 0;
  },
};
