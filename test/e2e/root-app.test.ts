/**
 * The repository's root cdktf.json: its app is the example (examples/basic/main.ts), so
 * `npx --no alert-rule-users plan` works from the root of a checkout, against the simulator.
 */
import { join } from "node:path";
import { REPO, connectionEnv, runCommand } from "../support/cli";
import { useSimulator } from "../support/simulator";

interface JsonPlan {
  rules: { constructPath: string; ruleId: string | null; action: string }[];
  summary: Record<string, unknown>;
}

describe("the root cdktf.json", () => {
  const sim = useSimulator();
  const plan = (cwd: string) =>
    runCommand("npx", ["--no", "--", "alert-rule-users", "plan", "--format", "json", "--output", join(".tmp", "root-app.out")], {
      cwd,
      env: connectionEnv(sim),
      timeoutMs: 120_000,
    });

  it("npx --no alert-rule-users plan from the repository root plans the example, as from examples/basic", async () => {
    // when
    const fromRoot = await plan(REPO);
    const fromExample = await plan(join(REPO, "examples", "basic"));

    // then
    expect(fromRoot.stderr).not.toMatch(/Error/);
    expect(fromRoot.code).toBe(0);
    expect(fromExample.code).toBe(0);
    const root = JSON.parse(fromRoot.stdout) as JsonPlan;
    const example = JSON.parse(fromExample.stdout) as JsonPlan;
    expect(root.rules.map((r) => r.constructPath)).toContain("alert-rules/engineering-exfiltration");
    expect(root.rules.map(({ constructPath, ruleId, action }) => ({ constructPath, ruleId, action }))).toEqual(
      example.rules.map(({ constructPath, ruleId, action }) => ({ constructPath, ruleId, action })),
    );
    expect(root.summary).toEqual(example.summary);
  });
});
