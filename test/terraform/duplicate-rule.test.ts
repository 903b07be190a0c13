/**
 * Real Terraform, one rule declared by two RuleUserLists (issue 25 item 4): by ID in one stack and
 * by name in another, which only the service can tell are one rule. Each provisioner reads the
 * app's declarations (alert-rule-users.rules.json, beside its stack) and refuses, naming both
 * constructs, before sending anything: `terraform apply` fails in both stacks and the rule keeps
 * its list. The same ID twice fails synth. Run by `npm run test:terraform`.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, listing, runCli, workspace, writesOf } from "../support/cli";
import type { Workspace } from "../support/cli";
import { FINANCE_NAME, RULES } from "../support/sample";
import { MINUTES, explain, offlineTerraformEnv, provisionerRuns, terraform } from "./support";

const TOKEN = "terraform-duplicate-token-3b2a1c";
const CLI_COMMAND = `"${process.execPath}" "${CLI}"`;

const sim = useSimulator({ token: TOKEN });
let ws: Workspace;

afterEach(() => ws?.cleanup());

const byId = { id: "finance", props: { ruleId: RULES.finance, resourceType: "terraform_data", cliCommand: CLI_COMMAND, users: [{ userId: "7", aliases: ["seven@example.com"] }] } };
const byName = { id: "finance-by-name", props: { ruleName: FINANCE_NAME, resourceType: "terraform_data", cliCommand: CLI_COMMAND, users: [{ userId: "8", aliases: ["eight@example.com"] }] } };

describe("one rule declared by two RuleUserLists, under terraform apply", () => {
  it("by ID in one stack and by name in another: both applies fail naming both constructs, and nothing is sent", async () => {
    // given
    ws = workspace([
      { name: "one", lists: [byId] },
      { name: "two", lists: [byName] },
    ]);
    const plan = await runCli(["plan"], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    expect(plan.code).toBe(1); // plan refuses it too, as a duplicate
    const before = listing(sim, RULES.finance);
    sim.resetCounts();
    // when each stack is applied, as cdktf deploy does
    const results = [];
    for (const stack of ["one", "two"]) {
      const dir = join(ws.dir, "cdktf.out", "stacks", stack);
      const env = offlineTerraformEnv(join(ws.dir, stack), connectionEnv(sim));
      const init = await terraform(["init", "-input=false", "-no-color"], dir, env);
      if (init.code !== 0) throw new Error(explain("terraform init", init));
      results.push(await terraform(["apply", "-auto-approve", "-input=false", "-no-color"], dir, env));
    }
    // then
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(provisionerRuns(result.stdout)).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toMatch(/is declared by 2 RuleUserList constructs \((one\/finance, two\/finance-by-name|two\/finance-by-name, one\/finance)\)/);
      expect(output).toMatch(/local-exec provisioner error/);
    }
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.finance)).toEqual(before);
  }, 10 * MINUTES);

  it("the same ruleId in two stacks fails synth, naming both constructs, before any Terraform", async () => {
    ws = workspace([
      { name: "one", lists: [byId] },
      { name: "two", lists: [{ ...byId, id: "finance-again" }] },
    ]);
    const plan = await runCli(["plan"], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`[one/finance] ruleId: rule '${RULES.finance}' is declared again by two/finance-again`);
    expect(existsSync(join(ws.dir, "cdktf.out", "stacks", "one", "cdk.tf.json"))).toBe(false);
    rmSync(join(ws.dir, "cdktf.out"), { recursive: true, force: true });
  }, 10 * MINUTES);
});
