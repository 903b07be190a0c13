import { resolve } from "node:path";
import { renderPlanMarkdown, renderPlanText } from "../../core/render";
import { getPlan, hasChanges, planChangedSince, planDeclared, planDocument, readDesired, readPlanKey, savePlan } from "../../io/workflow";
import { changedSinceOrExit } from "../changed-since";
import { CLI_IN_APP } from "../hints";
import { shellQuote } from "../../shared/text";
import { CONNECTION_HELP, CONNECTION_OPTIONS, oneOf, parse } from "../args";
import type { Command, Io } from "../io";
import { useColor } from "../io";
import { checkOutputPath } from "../output-path";
import { CLOCK_OPTIONS, ENGINE_OPTIONS, NOW_HELP, RATE_HELP, SYNTH_OPTIONS, engineSettings, nowFlag, openRun, synthSettings } from "../run-flags";

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
    const planKey = readPlanKey(io.env);
    const run = await openRun(values, io, settings);
    const since = values["changed-since"] === undefined ? null : await changedSinceOrExit(values["changed-since"], synthSettings(values, io), io);
    if (typeof since === "number") return since;
    const declared = since === null ? await readDesired(synthSettings(values, io)) : since.declared;
    if (declared.length === 0) io.stderr.write("Warning: the app declares no RuleUserList: there is nothing to plan.\n");
    // Redacted once (by getPlan), so the JSON printed and the file saved are the same valid plan.
    // The plan records every declaration it was made from (apply --require-declarations checks them).
    const clock = { createdAt: new Date(), now, secrets: run.secrets };
    const plan = await (since === null
      ? planDeclared(declared, run, clock)
      : planChangedSince(since, (desired) => getPlan(desired, run, clock))
    ).finally(() => run.done());

    if (format === "json") io.stdout.write(planDocument(plan, planKey));
    else if (format === "markdown") io.stdout.write(renderPlanMarkdown(plan));
    else io.stdout.write(renderPlanText(plan, { color: useColor(io.stdout, io.env) }));

    if (values.out !== undefined) {
      await savePlan(resolve(io.cwd, values.out), plan, planKey);
      io.stderr.write(`Saved the plan to ${values.out}. Apply exactly this plan with: ${CLI_IN_APP} apply ${shellQuote(values.out)}\n`);
    }
    if (plan.summary.errors > 0) return 1;
    return values["detailed-exitcode"] === true && hasChanges(plan) ? 2 : 0;
  },
};
