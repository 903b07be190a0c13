/**
 * The move of docs/provider-migration.md, "Moving from null_resource / terraform_data", with real
 * Terraform against the simulator (issue 30): a cdktf stack applied with `terraform_data` (its
 * provisioners ran the CLI), switched to `alertrules_rule_user_list` with `movedFrom`, synthesized,
 * `terraform init` offline; the plan shows imports and forgotten resources only, and while it and
 * the apply run the simulator receives no write; then the plan is empty. Run by `npm run test:terraform`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, listing, runCli, writesOf } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { MINUTES, explain, tfIn } from "./support";
import { appSource, nativeTerraformEnv, requireProvider } from "./native-support";
import type { AppList } from "./native-support";

const TOKEN = "native-move-token-0c77d2";
const STACK = "alert-rules";
const CLI_COMMAND = `"${process.execPath}" "${CLI}"`;
const ERIN = { userId: "908712345678901238", aliases: ["erin.walker@example.com"] };
const AUDITOR = { userId: "77", aliases: ["auditor@example.com"] };

const sim = useSimulator({ token: TOKEN });
let dir: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];
const stackDir = () => join(dir, "cdktf.out", "stacks", STACK);
const SALES_NAME = "Sales endpoint exfiltration";
/** A rule's users as seeded (read once, before anything changes them). */
const seeded = new Map<string, Array<{ userId: string; aliases: string[] }>>();
const usersOf = (ruleId: string) => {
  if (!seeded.has(ruleId)) seeded.set(ruleId, sim.rule(ruleId)!.users.map((u) => ({ userId: u.userIdFromAuthority ?? "", aliases: u.userAliasList })));
  return seeded.get(ruleId)!;
};
const FINANCE_USERS = () => usersOf(RULES.finance);
const SALES_USERS = () => usersOf(RULES.sales);

beforeAll(() => {
  requireProvider();
  dir = mkdtempSync(join(tmpdir(), "aru-native-move-"));
  writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  env = nativeTerraformEnv(dir, connectionEnv(sim));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

/**
 * The app's lists, carried by `terraform_data`, or moved from it to the native resource: two
 * authoritative lists declared by rule ID, an additive list and a list declared by name (imported
 * as `additive:ID` and `name:NAME`). Both authoritative lists and the one by name are imported with
 * no change; the additive one shows its undeclared live users leaving the state (an import cannot
 * know which users an additive declaration covers; additive never removes, so nothing is sent:
 * docs/provider-migration.md); zero writes for all four.
 */
function lists(moved: boolean): AppList[] {
  const carrier = (ruleId: string) =>
    moved ? { resourceType: "alertrules_rule_user_list", movedFrom: { resourceType: "terraform_data", ruleId } } : { resourceType: "terraform_data", cliCommand: CLI_COMMAND };
  return [
    { id: "engineering", props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS, ERIN], ...carrier(RULES.engineering) } },
    { id: "finance", props: { ruleId: RULES.finance, users: [...FINANCE_USERS(), AUDITOR], ...carrier(RULES.finance) } },
    { id: "legal", props: { ruleId: RULES.legal, mode: "additive", users: [AUDITOR], ...carrier(RULES.legal) } },
    { id: "sales", props: { ruleName: SALES_NAME, users: SALES_USERS(), ...carrier(RULES.sales) } },
  ];
}

async function synth(moved: boolean): Promise<void> {
  writeFileSync(join(dir, "app.js"), appSource("cdktf", STACK, lists(moved)));
  const plan = await runCli(["plan"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
  outputs.push(plan.stdout, plan.stderr);
  if (plan.code !== 0) throw new Error(explain("alert-rule-users plan (synth)", plan));
}

const tf = tfIn({ cwd: stackDir, env: () => env, noColor: true, outputs });

describe("moving a terraform_data stack onto the native resource, with zero writes", () => {
  it("applies the stack with terraform_data first (the provisioners run the CLI)", async () => {
    writeFileSync(join(dir, "app.js"), appSource("cdktf", STACK, lists(false)));
    const plan = await runCli(["plan"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    expect(plan.stdout).toContain("erin.walker@example.com");
    expect((await tf(["init", "-input=false"])).code).toBe(0);
    const apply = await tf(["apply", "-auto-approve", "-input=false"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    expect(listing(sim, RULES.engineering)).toContain(`${ERIN.userId}:${ERIN.aliases[0]!}`);
    expect((await tf(["plan", "-detailed-exitcode", "-input=false"])).code).toBe(0);
  }, 15 * MINUTES);

  it("after the switch and movedFrom, plans imports and forgets; plan and apply send no write; then the plan is empty", async () => {
    // given the documented steps: switch, movedFrom, synthesize (alert-rule-users plan shows no changes), init
    await synth(true);
    const synthesized = JSON.parse(readFileSync(join(stackDir(), "cdk.tf.json"), "utf8")) as { removed: unknown[]; import: unknown[] };
    expect(synthesized.removed).toHaveLength(4);
    expect(synthesized.import).toHaveLength(4);
    const init = await tf(["init", "-input=false"]);
    if (init.code !== 0) throw new Error(explain("terraform init", init));
    sim.resetCounts();
    // when planned
    const plan = await tf(["plan", "-input=false", "-out=move.tfplan"]);
    if (plan.code !== 0) throw new Error(explain("terraform plan", plan));
    const shown = JSON.parse((await tf(["show", "-json", "move.tfplan"])).stdout) as {
      resource_changes: Array<{ address: string; change: { actions: string[]; importing?: { id: string } } }>;
    };
    // then every list is imported, every old resource forgotten (never destroyed), and nothing written
    const byAddress = (prefix: string) => shown.resource_changes.filter((c) => c.address.startsWith(prefix));
    expect(byAddress("alertrules_rule_user_list.").map((c) => c.change.importing?.id).sort()).toEqual([RULES.engineering, RULES.finance, `additive:${RULES.legal}`, `name:${SALES_NAME}`].sort());
    expect(byAddress("terraform_data.").map((c) => c.change.actions)).toEqual([["forget"], ["forget"], ["forget"], ["forget"]]);
    for (const name of ["engineering", "finance", "sales"]) {
      expect(byAddress(`alertrules_rule_user_list.${name}_`).map((c) => c.change.actions)).toEqual([["no-op"]]);
    }
    expect(plan.stdout).toMatch(/terraform_data\.engineering[^\n]* will no longer be managed by Terraform, but will not be destroyed/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    // when applied
    const apply = await tf(["apply", "-input=false", "move.tfplan"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    expect(apply.stdout).toMatch(/4 imported/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    // then
    const again = await tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(again.code).toBe(0);
    const state = await tf(["state", "list"]);
    expect(state.stdout.trim().split("\n").every((address) => address.startsWith("alertrules_rule_user_list."))).toBe(true);
    expect(writesOf(sim.requestCounts())).toEqual({});
  }, 15 * MINUTES);
});
