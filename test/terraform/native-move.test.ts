/**
 * The move of docs/provider-migration.md, "Moving from null_resource / terraform_data", with real
 * Terraform against the simulator (issues 30, 49): a cdktf stack under a RuleUserListPolicy (as
 * every app `init` writes) applied with `terraform_data` (its provisioners ran the CLI), switched
 * to `alertrules_rule_user_list` with `movedFrom` (moved blocks, written by the app: git sees them),
 * synthesized; the lock file written by `provider lock`, kept beside cdktf.json and copied into the
 * stack by synth, passes `terraform init -lockfile=readonly`; the plan shows the moves and no
 * change at all (policies and the additive list included), and while it and the apply run the
 * simulator receives no write; then the plan is empty. Run by `npm run test:terraform`.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, listing, runCli, runCommand, writesOf } from "../support/cli";
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
 * authoritative lists declared by rule ID, an additive list and a list declared by name, all under
 * one policy. Each moves with no change; zero writes for all four.
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

const POLICIES = [{ id: "at-most-50", props: { maxUsers: 50 } }];

async function synth(moved: boolean): Promise<void> {
  writeFileSync(join(dir, "app.js"), appSource("cdktf", STACK, lists(moved), POLICIES));
  const plan = await runCli(["plan"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
  outputs.push(plan.stdout, plan.stderr);
  if (plan.code !== 0) throw new Error(explain("alert-rule-users plan (synth)", plan));
}

const tf = tfIn({ cwd: stackDir, env: () => env, noColor: true, outputs });

describe("moving a terraform_data stack onto the native resource, with zero writes", () => {
  it("applies the stack with terraform_data first (the provisioners run the CLI)", async () => {
    writeFileSync(join(dir, "app.js"), appSource("cdktf", STACK, lists(false), POLICIES));
    const plan = await runCli(["plan"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
    expect(plan.stdout).toContain("erin.walker@example.com");
    expect((await tf(["init", "-input=false"])).code).toBe(0);
    const apply = await tf(["apply", "-auto-approve", "-input=false"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    expect(listing(sim, RULES.engineering)).toContain(`${ERIN.userId}:${ERIN.aliases[0]!}`);
    expect((await tf(["plan", "-detailed-exitcode", "-input=false"])).code).toBe(0);
  }, 15 * MINUTES);

  it("after the switch and movedFrom, with the committed lock: plans the moves and no change, policies included; plan and apply send no write; then the plan is empty", async () => {
    // given the documented steps: switch, movedFrom, synthesize (alert-rule-users plan shows no changes)
    await synth(true);
    const synthesized = JSON.parse(readFileSync(join(stackDir(), "cdk.tf.json"), "utf8")) as { moved?: unknown[]; removed?: unknown[]; import?: unknown[] };
    expect(synthesized.moved).toHaveLength(4);
    expect(synthesized.removed).toBeUndefined();
    expect(synthesized.import).toBeUndefined();
    // the lock file, written for every platform and kept beside cdktf.json (where git sees it); synth copies it into the stack
    const lock = await runCommand(process.execPath, [CLI, "provider", "lock", join("cdktf.out", "stacks", STACK)], { cwd: dir, env, timeoutMs: 5 * MINUTES });
    if (lock.code !== 0) throw new Error(explain("provider lock", lock));
    copyFileSync(join(stackDir(), ".terraform.lock.hcl"), join(dir, ".terraform.lock.hcl"));
    rmSync(join(dir, "cdktf.out"), { recursive: true, force: true });
    await synth(true);
    expect(readFileSync(join(stackDir(), ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8"));
    const init = await tf(["init", "-input=false", "-lockfile=readonly"]);
    if (init.code !== 0) throw new Error(explain("terraform init -lockfile=readonly", init));
    sim.resetCounts();
    // when planned
    const plan = await tf(["plan", "-input=false", "-out=move.tfplan"]);
    if (plan.code !== 0) throw new Error(explain("terraform plan", plan));
    const shown = JSON.parse((await tf(["show", "-json", "move.tfplan"])).stdout) as {
      resource_changes: Array<{ address: string; previous_address?: string; change: { actions: string[] } }>;
    };
    // then every list has moved, and nothing changes (the policies moved with the lists), and nothing was written
    const moved = shown.resource_changes.filter((c) => c.address.startsWith("alertrules_rule_user_list."));
    expect(moved.map((c) => `${c.change.actions.join(",")} ${c.previous_address?.split(".")[0] ?? "?"}`)).toEqual(["no-op terraform_data", "no-op terraform_data", "no-op terraform_data", "no-op terraform_data"]);
    expect(shown.resource_changes.filter((c) => c.address.startsWith("terraform_data."))).toEqual([]);
    expect(plan.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to destroy/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    // when applied
    const apply = await tf(["apply", "-input=false", "move.tfplan"]);
    if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
    expect(writesOf(sim.requestCounts())).toEqual({});
    // then
    const again = await tf(["plan", "-detailed-exitcode", "-input=false"]);
    expect(again.code).toBe(0);
    const state = await tf(["state", "list"]);
    expect(state.stdout.trim().split("\n").every((address) => address.startsWith("alertrules_rule_user_list."))).toBe(true);
    expect(writesOf(sim.requestCounts())).toEqual({});
  }, 15 * MINUTES);
});
