/**
 * Every example of the provider's pages (examples/provider/, shown by docs/provider/) runs with real
 * Terraform against the simulator: `terraform init` (offline, the provider from one install),
 * `validate` and `plan`, and no plan writes to the service. An example is its directory's .tf files
 * (a guide's directory, or one file of the resource's and data sources' pages) with
 * examples/provider/provider.tf beside it, unless it has its own `terraform` block. Run by
 * `npm run test:terraform`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, REPO, connectionEnv, runCommand, writesOf } from "../support/cli";
import type { CliResult } from "../support/cli";
import { MINUTES, explain, terraform } from "./support";
import { requireProvider } from "./native-support";

const TOKEN = "provider-examples-token-81f3";
const EXAMPLES = join(REPO, "examples", "provider");
const sim = useSimulator({ token: TOKEN });
let root: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

/** Each example: a name, its files (paths under examples/provider/). */
const examples: Array<[string, string[]]> = [
  ["provider.tf", []],
  ["resources/alertrules_rule_user_list/resource.tf", ["resources/alertrules_rule_user_list/resource.tf"]],
  ["resources/alertrules_rule_user_list/import.tf", ["resources/alertrules_rule_user_list/import.tf"]],
  ["data-sources/alertrules_rules/data-source.tf", ["data-sources/alertrules_rules/data-source.tf"]],
  ["data-sources/alertrules_rule/data-source.tf", ["data-sources/alertrules_rule/data-source.tf"]],
  ...readdirSync(join(EXAMPLES, "guides")).map((guide): [string, string[]] => [`guides/${guide}`, readdirSync(join(EXAMPLES, "guides", guide)).map((file) => `guides/${guide}/${file}`)]),
];

beforeAll(async () => {
  requireProvider();
  root = mkdtempSync(join(tmpdir(), "aru-provider-examples-"));
  // one install, which every example's terraform init finds through a filesystem mirror: no network
  const install = await runCommand(process.execPath, [CLI, "provider", "install", root], { cwd: root, timeoutMs: 2 * MINUTES });
  if (install.code !== 0) throw new Error(explain("alert-rule-users provider install", install));
  const rc = join(root, "terraform.rc");
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(join(root, "terraform.d", "plugins"))}\n    include = ["alert-rule-users/*"]\n  }\n}\ndisable_checkpoint = true\n`);
  env = { ...connectionEnv(sim), TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0", HTTPS_PROXY: "http://127.0.0.1:9", NO_PROXY: "127.0.0.1,localhost" };
}, 3 * MINUTES);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

async function tf(args: string[], dir: string): Promise<CliResult> {
  const result = await terraform([...args, "-no-color"], dir, env);
  outputs.push(result.stdout, result.stderr);
  return result;
}

describe("the examples of the provider's pages, with real Terraform", () => {
  it.each(examples)("%s: init, validate and plan; the plan writes nothing", async (name, files) => {
    // given the example in a directory of its own, with the provider block unless it has its own
    const dir = join(root, name.replace(/[/.]/g, "_"));
    mkdirSync(dir, { recursive: true });
    for (const file of files) copyFileSync(join(EXAMPLES, file), join(dir, file.split("/").pop()!));
    const ownTerraformBlock = files.some((file) => file.endsWith(".tf") && /^terraform \{/m.test(readFileSync(join(EXAMPLES, file), "utf8")));
    if (!ownTerraformBlock) copyFileSync(join(EXAMPLES, "provider.tf"), join(dir, "provider.tf"));
    sim.resetCounts();
    // when
    const init = await tf(["init", "-input=false"], dir);
    if (init.code !== 0) throw new Error(explain(`terraform init (${name})`, init));
    const validate = await tf(["validate"], dir);
    if (validate.code !== 0) throw new Error(explain(`terraform validate (${name})`, validate));
    const plan = await tf(["plan", "-input=false", "-detailed-exitcode"], dir);
    // then it plans (0: no changes, 2: changes), and sends no write
    if (plan.code !== 0 && plan.code !== 2) throw new Error(explain(`terraform plan (${name})`, plan));
    expect(writesOf(sim.requestCounts())).toEqual({});
    if (name.endsWith("import.tf")) expect(plan.stdout).toMatch(/Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/);
    if (name.startsWith("data-sources/alertrules_rule/")) expect(plan.stdout).toContain('finance_rule_id       = "f4570500-47e2-48ad-abbb-28a532759836"');
    if (name.startsWith("data-sources/alertrules_rules/")) expect(plan.stdout).toMatch(/exclusion_lists = \[\s+\+ "Cloud sharing outside the company",\s+\]/);
  }, 5 * MINUTES);
});
