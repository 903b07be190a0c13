/**
 * The files `alert-rule-users init --hcl DIR` writes: a starter Terraform (or OpenTofu)
 * configuration for the native provider, with one `alertrules_rule_user_list` for a rule of the
 * simulator's sample tenant, and a .gitignore. Pure: the provider version in, files out (the I/O
 * is src/io/init-hcl.ts; it also installs the provider into DIR).
 */
import { hclString } from "../import/hcl";
import { providerBlocks } from "../import/import-hcl";
import type { InitFile } from "./init-files";
import { NATIVE_RESOURCE_TYPE } from "../native/native-provider";

/** The sample tenant's inclusion list the starter declares ("Endpoint exfiltration - Engineering"). */
export const SAMPLE_HCL_RULE_ID = "a33e7c21-5cb0-4cf5-a266-852063111751";

/** The users the starter declares: the rule's four, and Erin, whom the first plan adds. */
const SAMPLE_USERS: readonly { readonly userId: string; readonly aliases: readonly string[] }[] = [
  { userId: "908712345678901234", aliases: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"] },
  { userId: "908712345678901235", aliases: ["bob.okafor@example.com"] },
  { userId: "908712345678901236", aliases: ["carmen.diaz@example.com", "cdiaz@eng.example.com"] },
  { userId: "908712345678901237", aliases: ["dmitri.volkov@example.com"] },
  { userId: "908712345678901238", aliases: ["erin.walker@example.com"] },
];

function mainTf(providerVersion: string): string {
  return [
    "# The user lists of our security alert rules, managed with Terraform (or OpenTofu) and the",
    "# alert-rule-users provider. `terraform plan` reads the live lists and shows what would change;",
    "# `terraform apply` converges them. docs/provider.md of alert-rule-users describes the resource.",
    "#",
    "# The provider runs from this directory's terraform.d/ (written by",
    "# `npx --no alert-rule-users provider install`; init --hcl did it once): `terraform init` needs no network.",
    "# `npx --no alert-rule-users provider lock` writes .terraform.lock.hcl for every platform: commit it.",
    "#",
    "# The rule below is the sample tenant's that the simulator serves (`npx --no alert-rule-users simulator`).",
    "# For your tenant, write every rule's list as it is now, with import blocks:",
    "#   npx --no alert-rule-users import --all --format hcl --out lists.tf",
    "",
    ...providerBlocks(providerVersion),
    "",
    '# "Endpoint exfiltration - Engineering", an inclusion list (alerts only on these users). The list',
    '# becomes exactly these users (mode "authoritative", the default): Erin is added, anyone else on',
    '# the live list is removed. mode = "additive" would only ever add.',
    `resource "${NATIVE_RESOURCE_TYPE}" "engineering_exfiltration" {`,
    `  rule_id = ${hclString(SAMPLE_HCL_RULE_ID)}`,
    "  users = {",
    ...SAMPLE_USERS.map((u) => `    ${hclString(u.userId)} = { aliases = [${u.aliases.map(hclString).join(", ")}] }`),
    "  }",
    "}",
    "",
  ].join("\n");
}

const GITIGNORE = `.terraform/
# state and saved plans hold every alias: keep them out of git (use a remote backend in CI)
terraform.tfstate
terraform.tfstate.*
*.tfplan
crash.log
# the provider's package (the release's zip; about 43 MB on Linux): each machine and CI job installs
# it (\`npx --no alert-rule-users provider install\`, or terraform init from a mirror of the release).
# Commit .terraform.lock.hcl: its hashes are the same on every machine
# (\`npx --no alert-rule-users provider lock\` records every platform of the release)
terraform.d/
`;

/** The line of the HCL workflows that names the configuration's directory (examples/github-actions-hcl). */
const CONFIG_DIR_LINE = '  ALERT_RULES_DIR: "."';

/** The line of the tool directory's versions.tf that pins the provider (examples/github-actions-hcl/alert-rule-users). */
const VERSION_LINE = /^( {6}version = )"[^"]*"$/m;

/** Where the HCL workflows' shared script, the provider's pin and its lock go (the trusted tool directory). */
export const HCL_TOOL_DIR = ".github/alert-rule-users";

/**
 * The HCL workflows for a repository whose root (where GitHub reads .github/workflows/) holds the
 * configuration in `configDir` (relative, "/"-separated; "." the root): each named for
 * .github/workflows/ and with ALERT_RULES_DIR set to `configDir`; and the tool directory's files
 * (`tool`: ci.sh and versions.tf) under .github/alert-rule-users/, versions.tf pinning `version`.
 */
export function hclWorkflowFiles(workflows: readonly InitFile[], configDir: string, tool: readonly InitFile[] = [], version = ""): InitFile[] {
  return [
    ...workflows.map((w) => ({ path: `.github/workflows/${w.path}`, content: w.content.replace(CONFIG_DIR_LINE, `  ALERT_RULES_DIR: ${JSON.stringify(configDir)}`) })),
    ...tool.map((t) => ({ path: `${HCL_TOOL_DIR}/${t.path}`, content: t.path === "versions.tf" ? t.content.replace(VERSION_LINE, `$1${JSON.stringify(version)}`) : t.content })),
  ];
}

/** Every file of the starter configuration, with the workflows (already named for .github/workflows/) when given. */
export function initHclFiles(options: { readonly providerVersion: string; readonly workflows?: readonly InitFile[] }): InitFile[] {
  return [
    { path: "main.tf", content: mainTf(options.providerVersion) },
    { path: ".gitignore", content: GITIGNORE },
    ...(options.workflows ?? []).map((w) => ({ path: `.github/workflows/${w.path}`, content: w.content })),
  ];
}
