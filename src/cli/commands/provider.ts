/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1): puts the native Terraform
 * provider into DIR's implied local mirror (src/io/provider-install.ts), so `terraform init` there
 * needs no network and no CLI configuration file.
 */
import { relative, resolve } from "node:path";
import { installProvider, shellQuote, UsageError } from "../../io/workflow";
import { parse } from "../args";
import type { Io } from "../io";
import { commandGroup, type Subcommand } from "../service-command";

const installCommand: Subcommand = {
  name: "install",
  summary: "Write the alertrules provider into DIR's local mirror, for an offline terraform init",
  help: `Usage: alert-rule-users provider install [DIR]

Writes the native Terraform provider (source "alert-rule-users/alertrules", version = this
package's) into DIR (default: the current directory), where terraform init finds it by itself:
  DIR/terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/VERSION/OS_ARCH/
    terraform-provider-alertrules_vVERSION
and the same under registry.opentofu.org/, where OpenTofu (tofu init) looks for that source.
That file is a small shell script that runs the provider of this installed package with the
Node.js running this command (its absolute path is recorded). If that Node.js or this package
is removed later, the provider says so and exits 1: run this command again.

Writes nothing when the same provider is there already. Linux and macOS only (Terraform runs a
provider only as a .exe on Windows).

Flags:
  -h, --help

Then, in DIR: terraform init (no network needed for this provider), terraform plan.

Example:
  npx --no alert-rule-users provider install
`,
  run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse("provider install", argv, { help: { type: "boolean", short: "h" } }, true);
    if (values.help === true) {
      io.stdout.write(this.help);
      return Promise.resolve(0);
    }
    if (positionals.length > 1) {
      throw new UsageError(`provider install: takes one directory, got ${positionals.length} (${positionals.join(", ")}). Run 'alert-rule-users provider install --help' for usage.`);
    }
    const dir = resolve(io.cwd, positionals[0] ?? ".");
    const shown = relative(io.cwd, dir) || ".";
    const installed = installProvider({ dir });
    const where = shown === "." ? installed.relativePath : `${shown}/${installed.relativePath}`;
    io.stdout.write(
      (installed.changed
        ? `Installed the alertrules provider ${installed.version} (${installed.target}): ${where}\n`
        : `The alertrules provider ${installed.version} (${installed.target}) is installed already, unchanged: ${where}\n`) +
        `The same for OpenTofu: ${shown === "." ? installed.openTofuPath : `${shown}/${installed.openTofuPath}`}\n` +
        `It runs ${installed.providerMain} with the Node.js at ${installed.nodePath}.\n\n` +
        `Next: ${shown === "." ? "" : `cd ${shellQuote(shown)} && `}terraform init (or tofu init)\n`,
    );
    return Promise.resolve(0);
  },
};

export const providerCommand = commandGroup(
  "provider",
  "Install the native Terraform provider (alert-rule-users/alertrules) into a directory",
  "The native Terraform and OpenTofu provider of alert-rule-users: resource alertrules_rule_user_list,\ndata source alertrules_rules (docs/provider.md).",
  [installCommand],
);
