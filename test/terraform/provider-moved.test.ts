/**
 * A `moved` block from the `terraform_data` a RuleUserList writes onto `alertrules_rule_user_list`
 * (the provider's MoveResourceState; Terraform 1.8 and later), with real Terraform against the
 * simulator: the stack is the JSON a RuleUserList synthesizes (its triggers, made by the
 * construct's own encoder), applied; then the same lists as native resources with `moved` blocks.
 * The plan moves every list and changes nothing, the policies included (the provisioner's triggers
 * carry them, as the construct writes them, and the move puts them into the new state); neither the
 * plan nor the apply sends a write; then the plan is empty. Run by `npm run test:terraform`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POLICIES_TRIGGER, encodeTriggers } from "../../src/core/declaration";
import { encodeNativeAttributes, policiesTrigger } from "../../src/core/declaration/native";
import type { ListDeclaration } from "../../src/core/engine/desired";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, runCommand, writesOf } from "../support/cli";
import type { CliResult } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { MINUTES, explain, terraform } from "./support";
import { nativeTerraformEnv, requireProvider } from "./native-support";

const TOKEN = "provider-moved-token-3be1";
const sim = useSimulator({ token: TOKEN });
let dir: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

const SALES_NAME = "Sales endpoint exfiltration";
/** The lists, each as the construct declares it; all already as declared on the simulator. */
const LISTS: Record<string, ListDeclaration & { policies?: Array<{ name: string; allowed_alias_domains: string[] }> }> = {
  engineering: { ruleId: RULES.engineering, ruleName: null, mode: "authoritative", allowMassRemoval: false, users: ENGINEERING_USERS.map((u) => ({ ...u, aliases: [...u.aliases] })) },
  legal: { ruleId: RULES.legal, ruleName: null, mode: "additive", allowMassRemoval: false, users: [{ userId: "908712345678909001", aliases: ["nina.petrova@example.com"] }] },
  sales: {
    ruleId: null,
    ruleName: SALES_NAME,
    mode: "authoritative",
    allowMassRemoval: false,
    users: [
      { userId: "908712345678904001", aliases: ["henry.adams@example.com"] },
      { userId: "908712345678904002", aliases: ["irossi@sales.example.com", "isabel.rossi@example.com"] },
      { userId: "908712345678904003", aliases: ["jamal.brooks@example.com"] },
    ],
    policies: [{ name: "app/company-domains", allowed_alias_domains: ["example.com", "sales.example.com"] }],
  },
};

const TERRAFORM_BLOCK = { required_providers: { alertrules: { source: "alert-rule-users/alertrules" } } };

const policiesOf = (list: (typeof LISTS)[string]) => (list.policies ?? []).map((p) => ({ path: p.name, allowedAliasDomains: p.allowed_alias_domains }));

/** The stack a RuleUserList on terraform_data synthesizes (its provisioner left out: it ran the CLI, which sends what the plan showed): its triggers carry the policies. */
function provisionerStack(): object {
  const triggers = (list: (typeof LISTS)[string]) => ({ ...encodeTriggers(list), ...(list.policies === undefined ? {} : { [POLICIES_TRIGGER]: policiesTrigger(policiesOf(list)) }) });
  return {
    terraform: TERRAFORM_BLOCK,
    provider: { alertrules: [{}] },
    resource: { terraform_data: Object.fromEntries(Object.entries(LISTS).map(([name, list]) => [name, { triggers_replace: triggers(list) }])) },
  };
}

/**
 * The same lists as the RuleUserList synthesizes them on the native resource (its own encoder:
 * users in canonical order, the policies that apply), each with a moved block from its terraform_data.
 */
function nativeStack(): object {
  const resource = (list: (typeof LISTS)[string]) =>
    encodeNativeAttributes(
      { ruleId: list.ruleId ?? undefined, ruleName: list.ruleName ?? undefined, mode: list.mode, allowMassRemoval: list.allowMassRemoval, users: list.users },
      policiesOf(list),
    );
  return {
    terraform: TERRAFORM_BLOCK,
    provider: { alertrules: [{}] },
    resource: { alertrules_rule_user_list: Object.fromEntries(Object.entries(LISTS).map(([name, list]) => [name, resource(list)])) },
    moved: Object.keys(LISTS).map((name) => ({ from: `terraform_data.${name}`, to: `alertrules_rule_user_list.${name}` })),
  };
}

async function tf(args: string[]): Promise<CliResult> {
  const result = await terraform([...args, "-no-color"], dir, env);
  outputs.push(result.stdout, result.stderr);
  if (result.code !== 0 && !(args.includes("-detailed-exitcode") && result.code === 2)) throw new Error(explain(`terraform ${args.join(" ")}`, result));
  return result;
}

beforeAll(async () => {
  requireProvider();
  dir = mkdtempSync(join(tmpdir(), "aru-provider-moved-"));
  env = nativeTerraformEnv(dir, connectionEnv(sim));
  const installed = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, timeoutMs: 2 * MINUTES });
  if (installed.code !== 0) throw new Error(explain("alert-rule-users provider install", installed));
}, 3 * MINUTES);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

describe("a moved block from a RuleUserList's terraform_data onto alertrules_rule_user_list", () => {
  it("moves every list with zero writes: the plan shows the moves and no change, policies included; then the plan is empty", async () => {
    // given a provisioner stack in Terraform's state
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(provisionerStack(), null, 2));
    await tf(["init", "-input=false"]);
    await tf(["apply", "-auto-approve", "-input=false"]);
    // when the lists become native resources with moved blocks, and Terraform plans
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(nativeStack(), null, 2));
    sim.resetCounts();
    const plan = await tf(["plan", "-input=false", "-out=moved.tfplan"]);
    const shown = JSON.parse((await tf(["show", "-json", "moved.tfplan"])).stdout) as {
      resource_changes: Array<{ address: string; previous_address?: string; change: { actions: string[]; before: Record<string, unknown>; after: Record<string, unknown> } }>;
    };
    // then every list has moved, and nothing changes: the list with policies neither
    for (const name of Object.keys(LISTS)) expect(plan.stdout).toMatch(new RegExp(`# terraform_data\\.${name} has moved to alertrules_rule_user_list\\.${name}|\\(moved from terraform_data\\.${name}\\)`));
    const byAddress = new Map(shown.resource_changes.map((c) => [c.address, c]));
    for (const name of Object.keys(LISTS)) {
      const change = byAddress.get(`alertrules_rule_user_list.${name}`)!;
      expect(`${name} ${change.change.actions.join(",")} from ${change.previous_address ?? "?"}`).toBe(`${name} no-op from terraform_data.${name}`);
    }
    expect(byAddress.get("alertrules_rule_user_list.sales")!.change.after["policies"]).toEqual([{ name: "app/company-domains", allowed_alias_domains: ["example.com", "sales.example.com"] }]);
    expect(plan.stdout).toMatch(/Plan: 0 to add, 0 to change, 0 to destroy/);
    // Terraform counts a move as something to apply: -detailed-exitcode says 2 until the move is applied (then 0, below)
    expect((await tf(["plan", "-input=false", "-detailed-exitcode"])).code).toBe(2);
    expect(writesOf(sim.requestCounts())).toEqual({});
    // when applied
    await tf(["apply", "-input=false", "moved.tfplan"]);
    // then nothing was written, and the next plan is empty
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect((await tf(["plan", "-input=false", "-detailed-exitcode"])).code).toBe(0);
    expect((await tf(["state", "list"])).stdout.trim().split("\n").sort()).toEqual(Object.keys(LISTS).map((name) => `alertrules_rule_user_list.${name}`));
  }, 10 * MINUTES);
});
