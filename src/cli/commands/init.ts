/**
 * `alert-rule-users init [DIR]` (docs/contract.md §9.2): writes a ready cdktf app with one RuleUserList
 * (the files are src/core/init/init-files.ts), refusing to overwrite any file; `--cdktn` writes a CDK
 * Terrain app instead, `--hcl` a Terraform configuration for the native provider (src/core/init/init-hcl.ts).
 */
import { relative, resolve } from "node:path";
import { initApp } from "../../io/workflow";
import { initHcl } from "../../io/init-hcl";
import { ENV_TOKEN, shellQuote, TOOL_VERSION, UsageError } from "../../io/door-words";
import { DEFAULT_SIMULATOR_TOKEN } from "../../simulator";
import { parse } from "../args";
import { CLI_IN_APP } from "../hints";
import type { Command, Io } from "../io";

/** The sample tenant's ID, which the simulator serves. */
const SAMPLE_TENANT = "f82ba8d5-219c-48f6-9978-242511e30d41";

/**
 * The export line of the simulator's connection. The CLI's output redacts the value of
 * ALERTS_API_TOKEN wherever it appears, so when that variable holds the simulator's token already,
 * printing the token would show "[REDACTED]": the line then leaves the token out and says so.
 */
function simulatorExports(env: NodeJS.ProcessEnv, indent: string): string {
  const tokenSet = env[ENV_TOKEN]?.trim() === DEFAULT_SIMULATOR_TOKEN;
  return tokenSet
    ? `${indent}export ALERTS_API_URL=http://127.0.0.1:8080 ALERTS_TENANT_ID=${SAMPLE_TENANT}   # ${ENV_TOKEN} is set to the simulator's token already\n`
    : `${indent}export ALERTS_API_URL=http://127.0.0.1:8080 ${ENV_TOKEN}=${DEFAULT_SIMULATOR_TOKEN} ALERTS_TENANT_ID=${SAMPLE_TENANT}\n`;
}

function helpText(env: NodeJS.ProcessEnv): string {
  return `Usage: alert-rule-users init [DIR] [flags]
       alert-rule-users init --hcl DIR [--workflows]

Writes a ready TypeScript cdktf app into DIR (default: the current directory; created if missing):

  package.json     dependencies: alert-rule-users, cdktf, constructs, @cdktf/provider-null (the
                   versions alert-rule-users supports); ts-node and typescript (pinned to 5.x) to run
                   main.ts; engines: the Node.js versions it supports (20, 22, 24)
  cdktf.json       "app": "npx ts-node --transpile-only main.ts"
  main.ts          one RuleUserList, for a rule of the simulator's sample tenant, as terraform_data
                   (built into Terraform: terraform init downloads no provider), and a
                   RuleUserListPolicy allowing aliases in the tenant's domains only (a typo of a
                   domain is a plan error)
  tsconfig.json, .gitignore (node_modules, cdktf.out, state, saved plans and access reports)

Refuses to overwrite: when any of these files exists, it names them and writes nothing.

With --hcl, writes a Terraform (HCL) configuration for the native provider instead: main.tf
(required_providers, a provider block that reads the environment, one alertrules_rule_user_list
for the sample tenant's rule) and .gitignore, and installs the provider into DIR, so that
'terraform init' in DIR needs no network (see 'alert-rule-users provider install'; run
terraform in DIR: with -chdir, Terraform does not look in DIR's terraform.d).

Flags:
  --hcl                  a Terraform (HCL) configuration instead of a cdktf app
  --cdktn                a CDK Terrain (cdktn) app instead: main.ts imports alert-rule-users/cdktn,
                         package.json depends on cdktn and constructs (no cdktf, no null provider)
  --workflows            also write the GitHub workflows (plan on pull requests and its review,
                         apply on merge, drift on a schedule) as
                         .github/workflows/alert-rule-users-{plan,review,apply,drift}.yml
                         (with --hcl: alert-rule-users-terraform-{plan,apply,drift}.yml, at the
                         repository's root: the nearest directory at or above DIR with package.json)
  --package-spec SPEC    what package.json depends on for alert-rule-users (default: ^<this version>,
                         which installs from the npm registry only once the package is published):
                         a version range, a tarball (file:../alert-rule-users-0.1.0.tgz), a git URL
  -h, --help

Then:
  cd DIR && npm install
  ${CLI_IN_APP} simulator --port 8080 &   # the sample tenant, or point the connection at yours
${simulatorExports(env, "  ")}  ${CLI_IN_APP} plan

Exit codes: 0 written, 1 error (a file exists already: nothing written).

Examples:
  ${CLI_IN_APP} init alert-rules --workflows
  ${CLI_IN_APP} init . --package-spec file:../alert-rule-users-0.1.0.tgz
  ${CLI_IN_APP} init alert-rules --cdktn
  ${CLI_IN_APP} init --hcl alert-rules
`;
}

export const initCommand: Command = {
  name: "init",
  summary: "Write a ready cdktf (or cdktn) app with one RuleUserList (package.json, cdktf.json, main.ts...)",
  help: helpText({}),
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse(
      "init",
      argv,
      {
        workflows: { type: "boolean" },
        cdktn: { type: "boolean" },
        hcl: { type: "boolean" },
        "package-spec": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      true,
    );
    if (values.help === true) {
      io.stdout.write(helpText(io.env));
      return 0;
    }
    if (positionals.length > 1) {
      throw new UsageError(`init: takes one directory, got ${positionals.length} (${positionals.join(", ")}). Run '${CLI_IN_APP} init --help' for usage.`);
    }
    const packageSpec = values["package-spec"]?.trim();
    if (packageSpec === "") throw new UsageError("init: --package-spec needs a value, e.g. ^0.1.0 or file:../alert-rule-users-0.1.0.tgz.");

    const dir = resolve(io.cwd, positionals[0] ?? ".");
    const shown = relative(io.cwd, dir) || ".";
    if (values.hcl === true) {
      if (packageSpec !== undefined || values.cdktn === true) {
        throw new UsageError(`init: ${values.cdktn === true ? "--cdktn" : "--package-spec"} is for a cdktf app; --hcl writes a Terraform configuration. Drop one of them.`);
      }
      const { files, workflows, provider, rootIgnore } = await initHcl({ dir, shown, cwd: io.cwd, env: io.env, workflows: values.workflows === true });
      const rootShown = workflows === null ? "" : relative(io.cwd, workflows.root) || ".";
      // terraform looks for terraform.d/plugins in the directory it starts in (not the one of -chdir)
      const cd = shown === "." ? "" : `cd ${shellQuote(shown)} && `;
      io.stdout.write(
        `Wrote a Terraform configuration in ${shown}: ${files.map((f) => f.path).join(", ")}.\n` +
          (workflows === null
            ? ""
            : `Wrote the GitHub workflows at the repository's root ${rootShown} (terraform runs in ${relative(workflows.root, dir) || "."}): ${workflows.files.map((f) => f.path).join(", ")}.\n` +
              `Commit .github/ with its .github/alert-rule-users/.terraform.lock.hcl (the workflows install the provider, and their tool, only as it pins them),\n` +
              `then set the variable ALERT_RULE_USERS_PROVIDER_MIRROR and the environment alert-rules with its secrets: docs/provider-workflows.md walks through it.\n` +
              `If ${rootShown} is not the root of your git repository, move .github/ there and adjust ALERT_RULES_DIR in each workflow.\n`) +
          (rootIgnore === null ? "" : `Wrote ${relative(io.cwd, rootIgnore)} (node_modules/) for the package.json that holds alert-rule-users.\n`) +
          installedLine(provider, shown) +
          `Next (run terraform in that directory: -chdir does not find the provider):\n  ${cd}${CLI_IN_APP} provider install --lock   # the release's package, and .terraform.lock.hcl for every platform: commit it\n  terraform init\n  terraform plan      # with ALERTS_API_URL, ALERTS_TENANT_ID and ALERTS_API_TOKEN set\n\n` +
          `To try it against the simulator first (another terminal): ${CLI_IN_APP} simulator --port 8080, then\n` +
          simulatorExports(io.env, "  "),
      );
      return 0;
    }
    const framework = values.cdktn === true ? "cdktn" : "cdktf";
    const files = await initApp({ dir, shown, workflows: values.workflows === true, framework, ...(packageSpec === undefined ? {} : { packageSpec }) });
    // The default range resolves on the npm registry only: say so before `npm install` fails on it.
    const unpublished =
      packageSpec === undefined
        ? `\nNote: package.json depends on alert-rule-users@^${TOOL_VERSION} from the npm registry, which will not install until the package is published there.\n` +
          `Until then use a tarball ('npm pack' in an alert-rule-users checkout): init with --package-spec file:PATH/alert-rule-users-${TOOL_VERSION}.tgz,\n` +
          `or run 'npm install PATH/alert-rule-users-${TOOL_VERSION}.tgz' in the app.\n`
        : "";

    const cd = shown === "." ? "" : `  cd ${shellQuote(shown)}\n`;
    io.stdout.write(
      `Wrote a ${framework} app in ${shown}: ${files.map((f) => f.path).join(", ")}.\n\n` +
        `Next:\n${cd}  npm install\n  ${CLI_IN_APP} plan      # with ALERTS_API_URL, ALERTS_TENANT_ID and ALERTS_API_TOKEN set\n\n` +
        `To try it against the simulator first (another terminal): ${CLI_IN_APP} simulator --port 8080, then\n` +
        simulatorExports(io.env, "  ") +
        unpublished +
        (values.workflows === true
          ? `\nThe workflows read the secrets from the GitHub environment alert-rules, whose deployment branches are the default branch only: docs/ci.md, "Settings", shows what to set.\n`
          : ""),
    );
    return 0;
  },
};

type ProviderInstall = NonNullable<Awaited<ReturnType<typeof initHcl>>["provider"]>;

/** What init --hcl says of the provider it installed (or could not). */
function installedLine(provider: ProviderInstall | null, shown: string): string {
  const where = `${shown === "." ? "" : `${shown}/`}terraform.d/`;
  if (provider === null) return `The alertrules provider is not installed yet: ${CLI_IN_APP} provider install (below) builds this platform's package.\n\n`;
  const kind = provider.canonical
    ? provider.needsNode
      ? "it runs with the node on PATH"
      : "a self-contained executable"
    : "NOT the release's package, which has not been built on this machine yet: a launcher that runs with the node on PATH, until provider install (below) replaces it";
  return `Installed the alertrules provider ${provider.version} (${provider.target}) into ${where} (${kind}).\n\n`;
}
