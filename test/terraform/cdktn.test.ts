/**
 * A CDK Terrain (cdktn) app with real Terraform: the `alert-rule-users/cdktn` RuleUserList
 * (terraform_data by default) synthesized by the CLI, `terraform init` offline, `terraform apply`,
 * then `alert-rule-users plan` shows no changes. Run by `npm run test:terraform`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, REPO, connectionEnv, listing, runCli } from "../support/cli";
import { RULES } from "../support/sample";
import { MINUTES, explain, offlineTerraformEnv, provisionerRuns, terraform } from "./support";

const sim = useSimulator();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "aru-cdktn-tf-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("a cdktn app: terraform init offline, terraform apply converges, plan shows no changes, a second apply does nothing", async () => {
  // given a cdktn app declaring the legal rule's users and one more, run by the built CLI
  const users = [
    ...sim.rule(RULES.legal)!.users.map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })),
    { userId: "4242", aliases: ["counsel@example.com"] },
  ];
  writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  writeFileSync(
    join(dir, "app.js"),
    `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktn", { paths: [REPO] }))});
const { RuleUserList } = require(${JSON.stringify(require.resolve("alert-rule-users/cdktn", { paths: [REPO] }))});
const app = new App();
const stack = new TerraformStack(app, "terrain");
new RuleUserList(stack, "legal", { ruleId: ${JSON.stringify(RULES.legal)}, users: ${JSON.stringify(users)}, cliCommand: ${JSON.stringify(`"${process.execPath}" "${CLI}"`)} });
app.synth();
`,
  );
  const env = connectionEnv(sim);
  const tfEnv = offlineTerraformEnv(dir, env);
  const stackDir = join(dir, "cdktf.out", "stacks", "terrain");
  // when synthesized (by plan), initialized and applied
  const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env });
  expect(plan.code).toBe(2);
  const init = await terraform(["init", "-input=false", "-no-color"], stackDir, tfEnv);
  if (init.code !== 0) throw new Error(explain("terraform init", init));
  const apply = await terraform(["apply", "-auto-approve", "-input=false", "-no-color"], stackDir, tfEnv);
  if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
  // then the rule converged through the terraform_data's provisioner
  expect(apply.stdout).toContain("terraform_data.");
  expect(provisionerRuns(apply.stdout)).toBe(1);
  expect(listing(sim, RULES.legal)).toContain("4242:counsel@example.com");
  expect((await runCli(["plan", "--skip-synth", "--detailed-exitcode"], { cwd: dir, env })).code).toBe(0);
  // and applying again replaces nothing and sends nothing
  sim.resetCounts();
  const again = await terraform(["apply", "-auto-approve", "-input=false", "-no-color"], stackDir, tfEnv);
  expect(again.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.");
  expect(sim.requestLog()).toEqual([]);
}, 5 * MINUTES);
