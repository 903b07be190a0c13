#!/usr/bin/env node
/**
 * The release's one program (docs/provider.md, "How the packages are built"): the code of
 * `terraform-provider-alertrules_vVERSION` on every platform (the Linux and Windows executables
 * embed it, the darwin packages run it with node).
 *
 * - Started by Terraform or OpenTofu (their handshake variable is set), or by hand with no command:
 *   the provider (src/provider/main.ts).
 * - Started with a command: the commands a team's CI runs of this project from the release alone,
 *   with no Node.js and no npm (docs/provider-workflows.md): the executable Terraform installed
 *   and checked against the committed lock is the program that renders, plans and answers.
 *
 * Each half loads only when it runs, so that the provider's start-up reads none of the commands.
 */
import type * as CommandsModule from "./commands";
import type * as ProviderMainModule from "../provider/main";

/** The variable go-plugin sets in the environment of a plugin Terraform starts. */
const PLUGIN_COOKIE_VARIABLE = "TF_PLUGIN_MAGIC_COOKIE";

/** Whether this process is the provider: Terraform started it, or a person ran it with no command. */
export function isProviderProcess(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return env[PLUGIN_COOKIE_VARIABLE] !== undefined || argv.length === 0;
}

if (require.main === module) {
  /* eslint-disable @typescript-eslint/no-require-imports -- one half loads, on purpose (see above) */
  if (isProviderProcess(process.argv.slice(2), process.env)) (require("../provider/main") as typeof ProviderMainModule).runProvider();
  else (require("./commands") as typeof CommandsModule).runReleaseCommands();
  /* eslint-enable @typescript-eslint/no-require-imports */
}
