/**
 * `alert-rule-users show --terraform-plan FILE`: what a Terraform plan does to the live lists, for a
 * person (a merge job's summary of what it applied, the HCL drift report). Reads the JSON of a plan
 * (`terraform show -json PLANFILE`) and nothing else: no connection, no secret.
 */
import { resolve } from "node:path";
import { readEvaluation, readTerraformPlanChanges } from "../../io/declarations-from-terraform";
import { UsageError } from "../../io/door-words";
import { renderEvaluationMarkdown, renderTerraformChangesMarkdown, renderTerraformChangesText } from "../../core/render";
import { parse } from "../args";
import type { Command, Io } from "../io";

export const showCommand: Command = {
  name: "show",
  summary: "Show what a Terraform plan does to the live lists (its alertrules_rule_user_list changes)",
  help: `Usage: alert-rule-users show --terraform-plan FILE [--format text|markdown|json] [--heading TEXT]
       alert-rule-users show --evaluation DIR [--fork true|false] --format markdown

Reads FILE, the JSON of a Terraform plan (terraform show -json PLANFILE), and prints each
alertrules_rule_user_list change: the users and aliases it adds and removes, what a create or a mode
switch removes from the live list (removes), what a destroy leaves or clears. Connects to nothing.
Every value is escaped: nothing from the service can draw on the screen or in markdown.

Flags:
  --terraform-plan FILE   terraform show -json of a saved plan
  --format F              text (default), markdown (a job summary, an issue) or json
  --heading TEXT          the markdown's first line (default: "### alert-rule-users: Terraform plan")
  --evaluation DIR        instead: the pull-request comment for a configuration or an app that
                          could not be planned, from what the job without secrets wrote (DIR/outcome,
                          DIR/evaluation.log; docs/provider-workflows.md, docs/ci.md); markdown only
  --fork true|false       with --evaluation: the pull request comes from a fork (its data source
                          reads are not answered)
  -h, --help

Exit codes: 0 printed, 1 FILE is not the JSON of a Terraform plan.

Example:
  terraform plan -out tfplan && terraform show -json tfplan > tfplan.json
  alert-rule-users show --terraform-plan tfplan.json --format markdown >> "$GITHUB_STEP_SUMMARY"
`,
  run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("show", argv, {
      "terraform-plan": { type: "string" },
      evaluation: { type: "string" },
      fork: { type: "string" },
      format: { type: "string" },
      heading: { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return Promise.resolve(0);
    }
    if (values.evaluation !== undefined) {
      if (values["terraform-plan"] !== undefined) throw new UsageError("show: give --terraform-plan FILE or --evaluation DIR, not both.");
      if (values.format !== "markdown") throw new UsageError("show: --evaluation is shown as a pull-request comment: add --format markdown.");
      if (values.fork !== undefined && values.fork !== "true" && values.fork !== "false") throw new UsageError(`show: --fork takes true or false, not ${JSON.stringify(values.fork)}.`);
      io.stdout.write(renderEvaluationMarkdown(readEvaluation(resolve(io.cwd, values.evaluation)), { fromFork: values.fork === "true" }));
      return Promise.resolve(0);
    }
    const file = values["terraform-plan"];
    if (file === undefined) throw new UsageError("show: give --terraform-plan FILE (terraform show -json PLANFILE > FILE).");
    const format = values.format ?? "text";
    if (format !== "text" && format !== "markdown" && format !== "json") throw new UsageError(`show: --format takes text, markdown or json, not ${JSON.stringify(format)}.`);
    const changes = readTerraformPlanChanges(resolve(io.cwd, file));
    if (format === "json") io.stdout.write(`${JSON.stringify({ changes }, null, 2)}\n`);
    else if (format === "markdown") io.stdout.write(renderTerraformChangesMarkdown(changes, values.heading ?? "### alert-rule-users: Terraform plan"));
    else io.stdout.write(renderTerraformChangesText(changes));
    return Promise.resolve(0);
  },
};
