import { resolve } from "node:path";
import { alreadyAppliedSentence, plural, renderApplyText, renderPlanText } from "../../core/render";
import { applyRun } from "../../io/workflow";
import { DEFAULT_MAX_PLAN_AGE, parseDuration, shellQuote, UsageError } from "../../io/door-words";
import type { ApplyResult } from "../../core/engine/apply-results";
import type { ApplyRunRequest, ApplySettings } from "../../io/workflow/runs/apply-run";
import type { InvalidSettings } from "../../io/workflow/session/connect";
import { CONNECTION_HELP, CONNECTION_OPTIONS, parse } from "../args";
import { confirm } from "../confirm";
import { CLI_IN_APP } from "../hints";
import { watchInterrupts, type InterruptSignal } from "../interrupt";
import type { Command, Io } from "../io";
import { useColor } from "../io";
import { checkOutputPath } from "../output-path";
import { cliReporter } from "../reporter";
import { CLOCK_OPTIONS, ENGINE_OPTIONS, NOW_HELP, RATE_HELP, SYNTH_OPTIONS, engineSettings, nowFlag, sessionSettings, synthSettings } from "../run-flags";

export const applyCommand: Command = {
  name: "apply",
  summary: "Send the calls of a plan, then read every changed rule back and verify it",
  help: `Usage: alert-rule-users apply [PLANFILE] [flags]

With PLANFILE (saved by 'plan --out'): checks that every list it changes is still as planned,
that the connection is the same, and that its calls and mass-removal checks follow from its own
desired lists and the lists read now (else refuses, sending nothing), then applies that plan.
With ALERT_RULE_USERS_PLAN_KEY set, only a plan signed with that key (by 'plan --out' run with
the same key) is applied; an unsigned or otherwise signed plan is refused.
Without PLANFILE: synthesizes, plans, shows the plan and asks for confirmation; after 'yes' it
reads every list to change again and refuses, sending nothing, when one changed while the plan
was on screen. A run without a terminal needs --auto-approve.
Either way remove-all-users (emptying or rebuilding a list) is sent only right after a read of
that rule that still matches the plan; otherwise that rule is refused and its list kept.

Flags:
  --auto-approve         do not ask for confirmation
  --allow-mass-removal   let rules pass the mass-removal guard (losing every entry of a list,
                         or more than half of a list of 10 or more)
  --app CMD, --output DIR, --skip-synth, --stack NAME   as for plan (without PLANFILE, or
                         with --require-declarations)
  --require-declarations with PLANFILE: synthesize the app (or read --output with --skip-synth)
                         and refuse, sending nothing, unless its declarations are exactly those
                         the plan covered (the plan records a digest of each, read or not): a
                         declaration added, removed or changed since no reviewed plan showed
  --parallelism N        rules applied at once (default 4)
  --batch-size N         most users per write call (default 100; a saved plan keeps its own)
  --page-size N          rule-metadata search page size (default 100)
${RATE_HELP}
${NOW_HELP}
                         (without PLANFILE; a saved plan applies at the "now" it records)
  --from-env             apply the one list given by the ALERT_RULE_USERS_* environment
                         (what the RuleUserList's local-exec provisioner runs)
  --report-json FILE     write a report of the run (JSON, reportVersion 1): per rule the calls
                         sent, the outcome and the verification; also when refused or failed
  --report-markdown FILE the same report as markdown (e.g. for $GITHUB_STEP_SUMMARY)
  --require-tip REF      write only when the checked-out commit (HEAD) is REF's tip (git
                         rev-parse), checked at start and right before the first write: an older
                         job cannot apply its older declaration after a newer one; fetch REF first
  --max-plan-age AGE     refuse a saved plan made longer ago than AGE (by createdAt, which the
                         signature covers): 90s, 30m, 24h, 2d (default 24h); a saved plan never
                         adds a user whose expiresAt has passed by this machine's clock
  --base-url URL, --tenant-id ID, --token-file FILE, --token-command CMD
  -h, --help

${CONNECTION_HELP}

Exit codes: 0 every changed rule applied and verified (skipped rules do not count against it),
1 anything else: a refusal (stale plan, mass removal, unknown rule) or a rule that failed;
130 / 143 interrupted by SIGINT / SIGTERM: no call starts after the signal, calls in flight
finish, the reports are written with the rules not done as "interrupted"; run apply again.
A second signal stops at once.

Examples:
  alert-rule-users plan --out plan.json && alert-rule-users apply plan.json
  alert-rule-users apply --auto-approve
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse("apply", argv, APPLY_OPTIONS, true);
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const reports = { json: values["report-json"], markdown: values["report-markdown"] };
    checkOutputPath("apply", "report-json", reports.json, io.cwd);
    checkOutputPath("apply", "report-markdown", reports.markdown, io.cwd);
    const source: ApplyRunRequest["source"] =
      positionals[0] !== undefined
        ? { kind: "plan-file", path: positionals[0] }
        : { kind: values["from-env"] === true ? "environment" : "declaration" };
    const color = useColor(io.stdout, io.env);
    const interrupts = watchInterrupts(io.stderr, "apply");
    try {
      const { exitCode } = await applyRun(
        { env: io.env, cwd: io.cwd, source, reports, run: applySettings(values, positionals, io) },
        {
          ...cliReporter(io),
          signal: interrupts.signal,
          showPlan: (plan) => io.stdout.write(renderPlanText(plan, { color })),
          confirm: () => confirm(io, interrupts.signal),
          cancelled: () => io.stderr.write("Apply cancelled: nothing was sent.\n"),
          showResult: (result) => io.stdout.write("\n" + renderApplyText(result, { color })),
          alreadyApplied: (result) => io.stdout.write(`${alreadyAppliedSentence(result.rules)}\n`),
          interrupted(applied) {
            const message = interruptedMessage(interrupts.received() ?? "SIGINT", applied, positionals[0]);
            io.stderr.write(`\n${message}\n`);
            return { message, exitCode: interrupts.exitCode() ?? 1 };
          },
          reportNotWritten: (file, reason, completed) =>
            io.stderr.write(`Error: could not write the apply report ${file} (${reason})${completed ? "" : "; the error of the run follows"}.\n`),
        },
      );
      return exitCode;
    } finally {
      interrupts.dispose();
    }
  },
};

const APPLY_OPTIONS = {
  ...SYNTH_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...ENGINE_OPTIONS,
  ...CLOCK_OPTIONS,
  "auto-approve": { type: "boolean" },
  "allow-mass-removal": { type: "boolean" },
  "from-env": { type: "boolean" },
  "report-json": { type: "string" },
  "report-markdown": { type: "string" },
  "require-tip": { type: "string" },
  "require-declarations": { type: "boolean" },
  "max-plan-age": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type ApplyValues = ReturnType<typeof parse<typeof APPLY_OPTIONS>>["values"];

/** What an interrupted run did, and how to finish (a saved plan no longer matches the lists it changed). */
function interruptedMessage(signal: InterruptSignal, result: ApplyResult | null, planFile: string | undefined): string {
  const done = result === null ? "nothing was sent" : `${plural(result.summary.applied, "rule")} applied and verified, ${result.summary.interrupted} not done (interrupted)`;
  const next =
    planFile === undefined
      ? "Run apply again to finish: it plans from the lists as they are now."
      : result === null || result.rules.every((r) => r.calls.length === 0)
        ? `Run apply again (${CLI_IN_APP} apply ${shellQuote(planFile)}) to finish.`
        : `Run plan again and apply the new plan to finish (run apply again with a new plan: ${planFile} no longer matches the lists it already changed).`;
  return `Apply interrupted by ${signal}: ${done}; no call was started after the interrupt. ${next}`;
}

/**
 * The flags of an apply, checked together (a usage error names the flag and how to fix it); a
 * flag at fault comes back as `invalid`, for the workflow to record in the reports and throw.
 */
function applySettings(values: ApplyValues, positionals: readonly string[], io: Io): ApplySettings | InvalidSettings {
  try {
    return checkedSettings(values, positionals, io);
  } catch (invalid) {
    return { invalid };
  }
}

function checkedSettings(values: ApplyValues, positionals: readonly string[], io: Io): ApplySettings {
  if (positionals.length > 1) throw new UsageError(`apply takes at most one PLANFILE, got ${positionals.length}: ${positionals.join(" ")}.`);
  const planFile = positionals[0];
  if (planFile !== undefined && values["from-env"] === true) throw new UsageError("apply: give either PLANFILE or --from-env, not both.");
  const settings = engineSettings("apply", values);
  if (planFile !== undefined && values.now !== undefined) {
    throw new UsageError(
      `apply: --now applies to a fresh plan only; the saved plan ${planFile} was made at the "now" it records and is applied exactly as reviewed. Plan again with --now to change the clock.`,
    );
  }
  const now = nowFlag("apply", values.now);
  const autoApprove = values["auto-approve"] === true;
  const interactive = io.stdin.isTTY === true;
  if (planFile === undefined && !autoApprove && !interactive) {
    throw new UsageError(
      `apply: this run has no terminal to confirm in: pass --auto-approve, or apply a reviewed plan file (${CLI_IN_APP} apply PLANFILE).`,
    );
  }
  const maxPlanAge = values["max-plan-age"] ?? DEFAULT_MAX_PLAN_AGE;
  const maxPlanAgeMs = parseDuration(maxPlanAge);
  if (maxPlanAgeMs === undefined) {
    throw new UsageError(`apply: --max-plan-age takes a whole number and a unit (s, m, h or d), e.g. 30m, 24h or 2d; got '${maxPlanAge}'.`);
  }
  if (planFile === undefined && values["max-plan-age"] !== undefined) throw new UsageError("apply: --max-plan-age applies to a saved plan (PLANFILE) only.");
  const requireDeclarations = values["require-declarations"] === true;
  if (planFile === undefined && requireDeclarations) throw new UsageError("apply: --require-declarations applies to a saved plan (PLANFILE) only: a fresh plan is made from the declarations as they are.");
  const requireTip = values["require-tip"];
  return {
    session: sessionSettings(values, io, settings),
    planFile: planFile === undefined ? undefined : { path: resolve(io.cwd, planFile), name: planFile, maxAge: { ms: maxPlanAgeMs, text: maxPlanAge } },
    synth: synthSettings(values, io),
    fromEnv: values["from-env"] === true,
    requireDeclarations,
    now,
    autoApprove,
    guards: {
      allowMassRemoval: values["allow-mass-removal"] === true,
      honourRuleMassRemovalFlag: values["from-env"] === true,
      ...(requireTip === undefined ? {} : { requireTip: { ref: requireTip, cwd: io.cwd } }),
    },
  };
}
