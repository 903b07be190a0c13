/**
 * The pull-request comment for a configuration or an app that could not be planned
 * (docs/provider-workflows.md, docs/ci.md): the evaluation (Terraform's offline plan, or a cdktf
 * app's npm ci and synth) ran in a job that holds no secret, and what it said there is shown to the
 * reviewer as it said it, escaped line by line in a code block that nothing in it can close, and
 * cut to its last lines. Pure: the evaluation comes in as data.
 */
import { printable } from "./common";
import { PLAN_COMMENT_MARKER } from "./markdown";

/** What the job without secrets found: its outcome word and what it said (Terraform, or npm ci and synth). */
export interface Evaluation {
  readonly outcome: "planned" | "needs-data" | "failed";
  readonly log: string;
}

/** At most this much of what the job said is shown: the end, where the errors are. */
export const EVALUATION_LOG_SHOWN = 8_000;

/** A fenced code block of `text` (each line escaped), whose fence no run of backticks inside can close. */
function codeBlock(text: string): string {
  const lines = text.split("\n").map(printable);
  const longest = Math.max(2, ...lines.flatMap((l) => (l.match(/`+/g) ?? []).map((t) => t.length)));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${lines.join("\n")}\n${fence}`;
}

/** The end of the log, at a line's start, and whether anything was cut. */
function tail(log: string): { text: string; cut: boolean } {
  const trimmed = log.replace(/\s+$/, "");
  if (trimmed.length <= EVALUATION_LOG_SHOWN) return { text: trimmed, cut: false };
  const end = trimmed.slice(-EVALUATION_LOG_SHOWN);
  const at = end.indexOf("\n");
  return { text: at < 0 ? end : end.slice(at + 1), cut: true };
}

/** Why a fork's pull request is never planned: its comment, and its data-source answers, would show the tenant's lists to anyone. */
export const FORK_NOT_PLANNED =
  ":warning: **Not planned: this pull request comes from a fork.** Its plan would show here, to anyone who can read it, the live lists of every rule it declares (the users and aliases it would add or remove), read with the tenant's token; and a data source it declares would read them into its own configuration. A maintainer can push its branch to this repository to have it planned.";

/**
 * The comment: why the configuration was not planned. `fromFork`: the pull request comes from a
 * fork, which is never planned (FORK_NOT_PLANNED).
 */
export function renderEvaluationMarkdown(evaluation: Evaluation, options: { readonly fromFork: boolean }): string {
  const out = [PLAN_COMMENT_MARKER, "## alert-rule-users plan", ""];
  if (options.fromFork) {
    out.push(FORK_NOT_PLANNED);
    return `${out.join("\n")}\n`;
  }
  if (evaluation.outcome === "needs-data") {
    out.push(":x: **Not planned: the configuration's data source reads were not answered.** See the workflow run.");
  } else {
    out.push(
      ":x: **The pull request could not be planned.** It was evaluated in a job that holds no secret and reaches no service " +
        "(a Terraform configuration: `terraform init`, `validate` and `plan`, offline; a cdktf app: `npm ci` and `alert-rule-users synth`); this is what that job said:",
    );
    const { text, cut } = tail(evaluation.log);
    out.push("", cut ? `(the last ${EVALUATION_LOG_SHOWN.toLocaleString("en-US")} characters)` : "", codeBlock(text === "" ? "(nothing: see the workflow run)" : text));
  }
  out.push("", "Nothing of this pull request is applied until it plans: fix it and push, and this comment is updated.");
  return `${out.filter((line, i, all) => !(line === "" && all[i - 1] === "")).join("\n")}\n`;
}
