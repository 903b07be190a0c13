import { resolve } from "node:path";
import { renderPlanMarkdown, renderPlanText } from "../../core/render";
import { planRun } from "../../io/workflow";
import { shellQuote } from "../../io/door-words";
import { CLI_IN_APP, inCi } from "../hints";
import { Interrupted, interruptible } from "../interrupt";
import { CONNECTION_HELP, CONNECTION_OPTIONS, oneOf, parse } from "../args";
import type { Command, Io } from "../io";
import { useColor } from "../io";
import { checkOutputPath } from "../output-path";
import { cliReporter } from "../reporter";
import { CLOCK_OPTIONS, ENGINE_OPTIONS, NOW_HELP, RATE_HELP, SYNTH_OPTIONS, engineSettings, nowFlag, sessionSettings, synthSettings } from "../run-flags";

const FORMATS = ["text", "markdown", "json"] as const;

export const planCommand: Command = {
  name: "plan",
  summary: "Show the calls that would make the rules' user lists match the declaration",
  help: `Usage: alert-rule-users plan [flags]

Synthesizes the cdktf app, reads every RuleUserList from the synthesized JSON, reads the live
lists and prints the plan: the fewest calls that converge them. Sends no write call.

Flags:
  --app CMD              command that synthesizes the app (default: "app" of ./cdktf.json)
  --output DIR           synth output directory, set as CDKTF_OUTDIR (default: cdktf.out)
  --skip-synth           read an existing --output instead of synthesizing
  --stack NAME           only this stack (repeatable)
  --changed-since REF    read and plan only the rules whose declaration changed since the git
                         revision REF (e.g. origin/main): the app is also synthesized as it is at
                         REF (a temporary git worktree with REF's own dependencies: this
                         checkout's node_modules only when nothing they resolve differs, else
                         npm ci there) and the decoded declarations compared. Unchanged rules are
                         not read (the plan says how many); rules declared at REF and not now are
                         reported as no longer managed, never written. When REF cannot be compared
                         safely, every rule is read and the plan says why. Not a git checkout, REF
                         unknown or REF's app failing to synthesize is an error and nothing is read
  --format FORMAT        text (default), markdown (pull-request comment) or json
  --out FILE             also save the plan (JSON) for 'alert-rule-users apply FILE'; with
                         ALERT_RULE_USERS_PLAN_KEY set, the plan is signed (HMAC-SHA256) so
                         that an apply job holding the same key accepts only this plan
  --detailed-exitcode    exit 0 = no changes, 2 = changes present, 1 = error
  --parallelism N        rules read at once (default 4)
  --batch-size N         most users per write call (default 100)
  --page-size N          rule-metadata search page size (default 100)
${RATE_HELP}
${NOW_HELP}
  --base-url URL, --tenant-id ID, --token-file FILE, --token-command CMD
  -h, --help

${CONNECTION_HELP}

Exit codes: 0 success (with --detailed-exitcode: no changes), 2 changes present (only with
--detailed-exitcode), 1 error (including an unknown or duplicated rule, or a policy violation).

Examples:
  alert-rule-users plan --format markdown --out plan.json --detailed-exitcode
  alert-rule-users plan --changed-since origin/main --format markdown --detailed-exitcode
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("plan", argv, {
      ...SYNTH_OPTIONS,
      ...CONNECTION_OPTIONS,
      ...ENGINE_OPTIONS,
      ...CLOCK_OPTIONS,
      format: { type: "string" },
      out: { type: "string" },
      "detailed-exitcode": { type: "boolean" },
      "changed-since": { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const format = oneOf("plan", "format", values.format, FORMATS, "text");
    checkOutputPath("plan", "out", values.out, io.cwd);
    const settings = engineSettings("plan", values);
    const now = nowFlag("plan", values.now);
    const color = useColor(io.stdout, io.env);
    let made;
    try {
      made = await planRun(
        {
          env: io.env,
          session: sessionSettings(values, io, settings),
          synth: synthSettings(values, io),
          now,
          changedSince: values["changed-since"],
          document: format === "json",
          out: values.out === undefined ? undefined : resolve(io.cwd, values.out),
        },
        {
          ...cliReporter(io),
          interruptible: (work) => interruptible(io.stderr, "plan", work),
          show(plan, document) {
            if (format === "json") io.stdout.write(document ?? "");
            else if (format === "markdown") io.stdout.write(renderPlanMarkdown(plan));
            else io.stdout.write(renderPlanText(plan, { color }));
          },
        },
      );
    } catch (error) {
      if (error instanceof Interrupted) return error.exitCode;
      throw error;
    }
    const { plan, changes } = made;
    if (values.out !== undefined) {
      // in CI the workflows apply it (a merge's apply job): a command to type would be a terminal's advice
      io.stderr.write(inCi(io.env) ? `Saved the plan to ${values.out}.\n` : `Saved the plan to ${values.out}. Apply exactly this plan with: ${CLI_IN_APP} apply ${shellQuote(values.out)}\n`);
    }
    if (plan.summary.errors > 0) return 1;
    return values["detailed-exitcode"] === true && changes ? 2 : 0;
  },
};
