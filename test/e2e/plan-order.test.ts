/**
 * The order of the JSON plan's rules is the one docs/plan-format.md states (issue 25): by stack
 * name, then construct path, whatever the order of declaration, so the same app always gives the
 * same plan file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, connectionEnv, runCli, workspace } from "../support/cli";
import { RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";

const sim = useSimulator();
const list = (id: string, ruleId: string) => ({ id, props: { ruleId, mode: "additive", users: [{ userId: "1", aliases: ["one@example.com"] }] } });

it("rules come sorted by stack, then construct path, not in declaration order, as docs/plan-format.md says", async () => {
  // given stacks and lists declared in reverse order
  const ws = workspace([
    { name: "zz-stack", lists: [list("zeta", RULES.legal), list("alpha", RULES.finance)] },
    { name: "aa-stack", lists: [list("mid", RULES.sales)] },
  ]);
  try {
    // when
    const result = await runCli(["plan", "--format", "json"], { cwd: ws.dir, env: connectionEnv(sim) });

    // then
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as { rules: { constructPath: string }[] };
    expect(plan.rules.map((r) => r.constructPath)).toEqual(["aa-stack/mid", "zz-stack/alpha", "zz-stack/zeta"]);
    const doc = readFileSync(join(REPO, "docs", "plan-format.md"), "utf8");
    expect(doc).toMatch(/\| `rules` \| `RulePlan\[\]` \| One entry per declared list \(per `RuleUserList` construct\), sorted by stack name, then construct path/);
  } finally {
    ws.cleanup();
  }
});
