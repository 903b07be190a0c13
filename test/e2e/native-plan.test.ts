/**
 * A cdktf app whose lists are native `alertrules_rule_user_list` resources (docs/contract.md §11.2)
 * reads, through the CLI, exactly as the same app carried by `terraform_data`: the same plan
 * (rules, calls, policy errors), the same `who` answers and the same access report. The
 * declarations are the same data whichever resource carries them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { connectionEnv, runCli } from "../support/cli";
import type { ListDecl, StackDecl } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { useWorkspace } from "../support/use-workspace";

const sim = useSimulator({});
const ws = useWorkspace();

const NOW = "2026-11-24T12:00:00Z";

/** The app, every list carried by `resourceType`. */
function app(resourceType: string): StackDecl[] {
  const lists: ListDecl[] = [
    { id: "engineering", props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS.slice(1), { userId: "42", aliases: ["New.Person@example.com"] }] } },
    { id: "finance", props: { ruleName: FINANCE_NAME, mode: "additive", users: [{ userId: "77", aliases: ["auditor@example.com"] }] } },
    { id: "cloud-sharing", props: { ruleId: RULES.cloudSharing, users: [{ userId: "5", aliases: ["temp@example.com"], expiresAt: "2026-12-01" }] } },
    { id: "research", props: { ruleId: RULES.research, users: [] } },
  ];
  return [
    {
      name: "alert-rules",
      lists: lists.map((l) => ({ ...l, props: { ...l.props, resourceType } })),
      policies: [{ id: "guardrails", props: { forbidRemovalsFromInclusionLists: true, exclusionListsRequireExpiry: { maxDays: 30 } } }],
    },
  ];
}

/** The plan as JSON, without what differs from run to run (when it was made, and the checksum that covers it). */
async function planOf(resourceType: string): Promise<{ code: number | null; plan: Record<string, unknown> }> {
  ws.write(app(resourceType));
  const run = await runCli(["plan", "--format", "json", "--now", NOW], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 120_000 });
  expect(run.stderr).toBe("");
  const plan = JSON.parse(run.stdout) as Record<string, unknown>;
  for (const key of ["createdAt", "checksum", "fingerprint", "signature"]) delete plan[key];
  return { code: run.code, plan };
}

describe("a cdktf app on the native resource, through the CLI", () => {
  it("plans exactly as the same app carried by terraform_data (rules, calls, policy errors)", async () => {
    // when
    const asData = await planOf("terraform_data");
    const asNative = await planOf("alertrules_rule_user_list");
    // then
    expect(asNative).toEqual(asData);
    const rules = asNative.plan["rules"] as Array<{ constructPath: string; action: string }>;
    expect(rules.map((r) => `${r.constructPath} ${r.action}`)).toEqual([
      "alert-rules/cloud-sharing update",
      "alert-rules/engineering error",
      "alert-rules/finance update",
      "alert-rules/research error",
    ]);
    // the synthesized stack holds native resources only, and the provider for terraform init
    const stack = JSON.parse(readFileSync(join(ws.dir, "cdktf.out", "stacks", "alert-rules", "cdk.tf.json"), "utf8")) as { resource: Record<string, unknown> };
    expect(Object.keys(stack.resource)).toEqual(["alertrules_rule_user_list"]);
  }, 240_000);

  it("answers who and report from the native declarations as from terraform_data", async () => {
    const answers = async (resourceType: string): Promise<string[]> => {
      ws.write(app(resourceType));
      const env = connectionEnv(sim);
      const who = await runCli(["who", "new.person@example.com", "auditor@example.com", "--format", "json"], { cwd: ws.dir, env, timeoutMs: 120_000 });
      const report = await runCli(["report", "--format", "csv", "--now", NOW], { cwd: ws.dir, env, timeoutMs: 120_000 });
      return [String(who.code), who.stdout, String(report.code), report.stdout.replace(/^#.*generated.*$/gim, "")];
    };
    expect(await answers("alertrules_rule_user_list")).toEqual(await answers("terraform_data"));
  }, 240_000);
});
