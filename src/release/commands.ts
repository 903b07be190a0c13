/**
 * The commands of the release's executable (src/release/executable.ts): what a team's CI runs of
 * this project without Node.js or npm. The same commands as `alert-rule-users` (one dispatch,
 * src/cli/dispatch.ts), less those that build or install packages or write an app, plus
 * `data-answers`, the trusted half of a data source read (src/release/data-answers.ts).
 */
import { runAsProcess, type Program } from "../cli/dispatch";
import { planCommand } from "../cli/commands/plan";
import { rulesCommand } from "../cli/commands/rules";
import { showCommand } from "../cli/commands/show";
import { synthCommand } from "../cli/commands/synth";
import { whoCommand } from "../cli/commands/who";
import { dataAnswersCommand } from "./data-answers";

export const RELEASE_PROGRAM: Program = {
  name: "terraform-provider-alertrules",
  about: `The alertrules provider of alert-rule-users. Terraform starts it as a provider; with a command, it
runs the commands a team's CI needs from the release alone (docs/provider-workflows.md).`,
  commands: [synthCommand, planCommand, showCommand, dataAnswersCommand, rulesCommand, whoCommand],
};

export function runReleaseCommands(): void {
  runAsProcess(RELEASE_PROGRAM);
}
