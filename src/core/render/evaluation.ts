/**
 * The pull-request comment for a configuration that could not be planned (docs/provider-workflows.md):
 * the evaluation ran in a job that holds no secret, and what Terraform said there is shown to the
 * reviewer as it said it, escaped line by line in a code block that nothing in it can close, and
 * cut to its last lines. Pure: the evaluation comes in as data.
 */
import { printable } from "./common";
import { PLAN_COMMENT_MARKER } from "./markdown";

/** What the job without secrets found: its outcome word and what Terraform said. */
export interface Evaluation {
  readonly outcome: "planned" | "needs-data" | "failed";
  readonly log: string;
}

/** At most this much of what Terraform said is shown: the end, where the errors are. */
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

/**
 * The comment: why the configuration was not planned. `fromFork`: the pull request comes from a
 * fork, whose data source reads are never answered.
 */
export function renderEvaluationMarkdown(evaluation: Evaluation, options: { readonly fromFork: boolean }): string {
  const out = [PLAN_COMMENT_MARKER, "## alert-rule-users plan", ""];
  if (evaluation.outcome === "needs-data") {
    out.push(
      options.fromFork
        ? ":warning: **Not planned: the configuration reads data sources** (`alertrules_rule`, `alertrules_rules`), and their reads are not answered for pull requests from forks: their configuration would read the tenant's lists. A maintainer can push the change to a branch of this repository to have it planned."
        : ":x: **Not planned: the configuration's data source reads were not answered.** See the workflow run.",
    );
  } else {
    out.push(":x: **The pull request's configuration could not be planned.** It was evaluated offline, in a job that holds no secret (`terraform init`, `validate`, `plan`); this is what Terraform said:");
    const { text, cut } = tail(evaluation.log);
    out.push("", cut ? `(the last ${EVALUATION_LOG_SHOWN.toLocaleString("en-US")} characters)` : "", codeBlock(text === "" ? "(nothing: see the workflow run)" : text));
  }
  out.push("", "Nothing of this pull request is applied until it plans: fix it and push, and this comment is updated.");
  return `${out.filter((line, i, all) => !(line === "" && all[i - 1] === "")).join("\n")}\n`;
}
