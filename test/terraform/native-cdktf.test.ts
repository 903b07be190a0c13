/**
 * A cdktf app and a cdktn app on `alertrules_rule_user_list` (issue 30), with real Terraform and
 * the native provider against the simulator: synth installs the provider into the stack directory,
 * `terraform init` there needs no network, `terraform apply` converges, and after an edit in the
 * console `alert-rule-users plan` and `terraform plan` show the same changes (in place), which
 * `terraform apply` repairs. A RuleUserListPolicy travels to the resources' `policies`. Run by
 * `npm run test:terraform`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { connectionEnv, listing, runCli, writesOf } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { MINUTES, explain, tfIn } from "./support";
import { appSource, nativeTerraformEnv, requireProvider, userChanges } from "./native-support";

const TOKEN = "native-cdktf-token-3e8a51";
const STACK = "alert-rules";
const ERIN = { userId: "908712345678901238", aliases: ["erin.walker@example.com"] };
const AUDITOR = { userId: "77", aliases: ["auditor@example.com"] };

const LISTS = [
  { id: "engineering", props: { ruleId: RULES.engineering, resourceType: "alertrules_rule_user_list", onDestroy: "keep", users: [...ENGINEERING_USERS, ERIN] } },
  { id: "finance", props: { ruleName: FINANCE_NAME, mode: "additive", resourceType: "alertrules_rule_user_list", users: [AUDITOR] } },
];

interface PlanJson {
  rules: Array<{ constructPath: string; action: string; changes: { addUsers: Array<{ userId: string }>; removeUsers: Array<{ userId: string }> } }>;
}

describe.each(["cdktf", "cdktn"] as const)("a %s app on the native resource, with real Terraform", (framework) => {
  const sim = useSimulator({ token: TOKEN });
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const outputs: string[] = [];
  const stackDir = () => join(dir, "cdktf.out", "stacks", STACK);

  beforeAll(() => {
    requireProvider();
    dir = mkdtempSync(join(tmpdir(), `aru-native-${framework}-`));
    writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
    // the policy is carried to each resource's policies (it refuses none of these lists)
    writeFileSync(join(dir, "app.js"), appSource(framework, STACK, LISTS, [{ id: "guardrails", props: { maxUsers: 50, exclusionListsRequireExpiry: { maxDays: 90 } } }]));
    env = nativeTerraformEnv(dir, connectionEnv(sim));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const text of outputs) expect(text).not.toContain(TOKEN);
  });

  const tf = tfIn({ cwd: stackDir, env: () => env, noColor: true, outputs });
  const cliPlan = async (): Promise<{ code: number | null; plan: PlanJson }> => {
    const result = await runCli(["plan", "--format", "json", "--detailed-exitcode"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    outputs.push(result.stdout, result.stderr);
    if (result.code !== 0 && result.code !== 2) throw new Error(explain("alert-rule-users plan", result));
    return { code: result.code, plan: JSON.parse(result.stdout) as PlanJson };
  };

  it("synthesizes (alert-rule-users plan), inits offline in the stack directory, applies, and plans empty with both tools", async () => {
    const first = await cliPlan();
    expect(first.code).toBe(2);
    const init = await tf(["init", "-input=false"]);
    expect({ code: init.code, out: init.stdout }).toEqual({ code: 0, out: expect.stringContaining("alert-rule-users/alertrules") });
    const apply = await tf(["apply", "-auto-approve", "-input=false"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    expect(listing(sim, RULES.engineering)).toContain(`${ERIN.userId}:${ERIN.aliases[0]!}`);
    expect(listing(sim, sim.rules().find((r) => r.metadata.name === FINANCE_NAME)!.metadata.observerRuleId)).toContain(`${AUDITOR.userId}:${AUDITOR.aliases[0]!}`);
    expect((await cliPlan()).code).toBe(0);
    expect((await tf(["plan", "-detailed-exitcode", "-input=false"])).code).toBe(0);
  }, 15 * MINUTES);

  it("after an edit in the console, alert-rule-users plan and terraform plan show the same changes, in place; terraform apply repairs them", async () => {
    // given a console edit: Bob removed, someone added
    const live = sim.rule(RULES.engineering)!.users.filter((u) => u.userIdFromAuthority !== ENGINEERING_USERS[1]!.userId);
    sim.setUsers(RULES.engineering, [...live, { userIdFromAuthority: "666", userAliasList: ["mallory@example.com"] }]);
    // when
    const cli = await cliPlan();
    const plan = await tf(["plan", "-detailed-exitcode", "-input=false", "-out=tfplan"]);
    const shown = await tf(["show", "-json", "tfplan"]);
    // then
    expect(cli.code).toBe(2);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/alertrules_rule_user_list\.engineering[^\n]* will be updated in-place/);
    const changes = (JSON.parse(shown.stdout) as { resource_changes: Array<{ address: string; change: { actions: string[]; before: never; after: never } }> }).resource_changes.filter(
      (c) => c.change.actions.join() !== "no-op",
    );
    expect(changes.map((c) => c.change.actions)).toEqual([["update"]]);
    const fromTerraform = userChanges(changes[0]!.change);
    const engineering = cli.plan.rules.find((r) => r.constructPath === `${STACK}/engineering`)!;
    const fromCli = { add: engineering.changes.addUsers.map((u) => u.userId).sort(), remove: engineering.changes.removeUsers.map((u) => u.userId).sort() };
    expect(fromTerraform).toEqual(fromCli);
    expect(fromCli).toEqual({ add: [ENGINEERING_USERS[1]!.userId], remove: ["666"] });
    expect(cli.plan.rules.filter((r) => r.action === "update").map((r) => r.constructPath)).toEqual([`${STACK}/engineering`]);
    // when applied
    const apply = await tf(["apply", "-input=false", "tfplan"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    // then both tools see the lists as declared
    expect((await cliPlan()).code).toBe(0);
    expect((await tf(["plan", "-detailed-exitcode", "-input=false"])).code).toBe(0);
    const state = await tf(["state", "pull"]);
    expect(state.stdout).toContain("alertrules_rule_user_list");
    expect(state.stdout).not.toContain(TOKEN);
  }, 15 * MINUTES);

  it("refuses at terraform plan, as alert-rule-users plan does, a removal that a carried policy forbids; nothing is written", async () => {
    // given a policy that needs the live list, and someone added in the console
    writeFileSync(join(dir, "app.js"), appSource(framework, STACK, LISTS, [{ id: "no-removals", props: { forbidRemovalsFromInclusionLists: true } }]));
    const live = sim.rule(RULES.engineering)!.users;
    sim.setUsers(RULES.engineering, [...live, { userIdFromAuthority: "31337", userAliasList: ["mallory@example.com"] }]);
    // when
    const cli = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    outputs.push(cli.stdout, cli.stderr);
    sim.resetCounts();
    const plan = await tf(["plan", "-detailed-exitcode", "-input=false"]);
    // then both refuse, naming the policy, and nothing is written
    expect(cli.code).toBe(1);
    expect(cli.stdout + cli.stderr).toContain("forbidRemovalsFromInclusionLists");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("forbidRemovalsFromInclusionLists");
    expect(writesOf(sim.requestCounts())).toEqual({});
  }, 15 * MINUTES);
});
