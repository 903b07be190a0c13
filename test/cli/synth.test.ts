/**
 * `alert-rule-users synth` (issue 32, wrong turn 9): the Terraform path synthesizes without a
 * connection or a token, checks the declarations as plan does, and says where the stacks are and
 * what to run next. In-process; the app itself runs as a child process, as for a user.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { workspace, type Workspace } from "../support/cli";
import { RULES } from "../support/sample";
import { runMain } from "../support/run-main";

const legal = { id: "legal", props: { ruleId: RULES.legal, resourceType: "terraform_data", users: [{ userId: "9102", aliases: ["alice@example.com"] }] } };

async function synth(dir: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  // No ALERTS_API_URL, no token, no tenant: synth needs none of them.
  return runMain(["synth", ...args], dir, { PATH: process.env["PATH"] });
}

describe("synth", () => {
  let app: Workspace;
  afterEach(() => app.cleanup());

  it("writes cdktf.out with no connection settings, and prints each stack's directory and the Terraform step", async () => {
    app = workspace([{ name: "alert-rules", lists: [legal] }, { name: "other", lists: [] }]);
    const result = await synth(app.dir);
    expect(result.code).toBe(0);
    expect(existsSync(join(app.dir, "cdktf.out", "stacks", "alert-rules", "cdk.tf.json"))).toBe(true);
    expect(result.stderr).toContain("Synthesized 1 RuleUserList declaration in 1 stack to cdktf.out.");
    expect(result.stdout).toContain("  alert-rules: cdktf.out/stacks/alert-rules (1 list)");
    expect(result.stdout).toContain("  other: cdktf.out/stacks/other (0 lists)");
    expect(result.stdout).toContain("cd cdktf.out/stacks/alert-rules && terraform init && terraform apply");
  });

  it("in a CI job, says where the stacks are but not what a person would type next (the workflow's next step is its own)", async () => {
    app = workspace([{ name: "alert-rules", lists: [legal] }]);
    const result = await runMain(["synth"], app.dir, { PATH: process.env["PATH"], GITHUB_ACTIONS: "true" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  alert-rules: cdktf.out/stacks/alert-rules (1 list)");
    expect(result.stdout).not.toContain("terraform init");
  });

  it("refuses an invalid declaration (the same rule twice) as plan does, exit 1", async () => {
    app = workspace([{ name: "alert-rules", lists: [legal, { ...legal, id: "legal-again" }] }]);
    const result = await synth(app.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/legal-again/);
  });
});
