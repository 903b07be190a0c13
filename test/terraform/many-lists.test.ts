/**
 * Real Terraform on a stack of 1,000 `terraform_data` RuleUserLists (issue 20): the app
 * synthesizes (no process per list), `terraform init` works offline, and `terraform apply` runs
 * 1,000 provisioners (one CLI process each) that converge 1,000 rules, after which a plan shows
 * nothing to do. Run by `npm run test:terraform` (needs `terraform` on PATH).
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, listing, runCli, workspace, writesOf } from "../support/cli";
import type { ListDecl, Workspace } from "../support/cli";
import { runCommand } from "../support/cli";
import { MINUTES, explain, offlineTerraformEnv, provisionerRuns, terraform } from "./support";
import { scaleRuleId, scaleRuleName, tenantWithRules } from "./support-tenant";

const TOKEN = "terraform-scale-token-0d9e8f";
const STACK = "alert-rules";
const LISTS = 1_000;
const CLI_COMMAND = `"${process.execPath}" "${CLI}"`;

const sim = useSimulator({ token: TOKEN, seed: tenantWithRules(LISTS) });
let ws: Workspace;

afterAll(() => ws?.cleanup());

/** List `i`: 2 users; every tenth declared by name, as a team that does not look IDs up would. */
function list(i: number): ListDecl {
  const rule = i % 10 === 9 ? { ruleName: scaleRuleName(i) } : { ruleId: scaleRuleId(i) };
  const users = [0, 1].map((u) => ({ userId: `00u${i}x${u}`, aliases: [`user${u}.list${i}@example.com`] }));
  return { id: `list-${i}`, props: { ...rule, resourceType: "terraform_data", cliCommand: CLI_COMMAND, users } };
}

describe(`terraform apply of ${LISTS.toLocaleString("en-US")} terraform_data lists`, () => {
  it("synthesizes, inits offline, converges every rule and leaves nothing to plan", async () => {
    // given 1,000 lists in one stack, synthesized by the CLI (plan runs the app)
    ws = workspace([{ name: STACK, lists: Array.from({ length: LISTS }, (_, i) => list(i)) }]);
    const stackDir = join(ws.dir, "cdktf.out", "stacks", STACK);
    rmSync(stackDir, { recursive: true, force: true });
    const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 10 * MINUTES });
    expect(plan.code).toBe(2); // changes to apply
    expect(existsSync(join(stackDir, "cdk.tf.json"))).toBe(true);
    const tfEnv = offlineTerraformEnv(ws.dir, connectionEnv(sim));
    const init = await terraform(["init", "-input=false", "-no-color"], stackDir, tfEnv);
    if (init.code !== 0) throw new Error(explain("terraform init", init));
    sim.resetCounts();

    // when (1,000 provisioners: one CLI process each, about 0.4 s of CPU apiece, most of it loading
    // the CLI's modules; terraform runs 10 at a time)
    const applied = await runCommand("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: stackDir, env: tfEnv, timeoutMs: 50 * MINUTES });

    // then every provisioner ran once and every rule holds its list
    if (applied.code !== 0) throw new Error(explain("terraform apply", applied));
    expect(applied.stdout).toContain(`Apply complete! Resources: ${LISTS} added, 0 changed, 0 destroyed.`);
    expect(provisionerRuns(applied.stdout)).toBe(LISTS);
    expect(applied.stdout + applied.stderr).not.toContain(TOKEN);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": LISTS });
    for (const i of [0, 9, 500, LISTS - 1]) {
      expect(listing(sim, scaleRuleId(i))).toEqual([`00u${i}x0:user0.list${i}@example.com`, `00u${i}x1:user1.list${i}@example.com`]);
    }
    const after = await runCli(["plan", "--skip-synth", "--detailed-exitcode"], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 10 * MINUTES });
    expect(after.code).toBe(0);
  }, 60 * MINUTES);
});
