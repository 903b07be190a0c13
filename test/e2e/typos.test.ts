/**
 * Typos a new user made, each answered with the name meant (issue 32, wrong turn 4), by the one
 * suggestion helper (src/core/engine/suggest.ts): a flag, a rule name differing in case or by a small
 * edit, a rule name given as the ruleId, a stack name. Against the simulator; nothing is written.
 */
import { connectionEnv, runCli, writesOf } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { useWorkspace } from "../support/use-workspace";

const sim = useSimulator({}, { perTest: true });
const ws = useWorkspace();

const plan = (args: string[] = []) => runCli(["plan", ...args], { cwd: ws.dir, env: connectionEnv(sim) });

describe("did you mean", () => {
  it("a ruleName that differs only in case, or by a letter, names the rule meant; the plan is an error and nothing is written", async () => {
    ws.write([
      {
        name: "rules",
        lists: [
          { id: "cased", props: { ruleName: "endpoint exfiltration - engineering", mode: "additive", users: [] } },
          { id: "typo", props: { ruleName: "Legal hold file type mismach", mode: "additive", users: [] } },
        ],
      },
    ]);
    const result = await plan();
    expect(result.code).toBe(1);
    const out = result.stdout + result.stderr;
    expect(out).toContain("no rule is named 'endpoint exfiltration - engineering'");
    expect(out).toContain("Did you mean 'Endpoint exfiltration - Engineering'?");
    expect(out).toContain("Did you mean 'Legal hold file type mismatch'?");
    // one search for the declarations, one bounded page of the tenant's rules for the suggestions
    expect(sim.requestCounts()["query-rule-metadata"]).toBe(2);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("a rule's name given as the ruleId says to declare it with ruleName", async () => {
    ws.write([{ name: "rules", lists: [{ id: "named", props: { ruleId: "Finance file type mismatch watch", mode: "additive", users: [] } }] }]);
    const result = await plan();
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      `This looks like a rule name ('Finance file type mismatch watch'): declare it with ruleName: "Finance file type mismatch watch" instead of ruleId.`,
    );
  });

  it("a typo of a flag names the flag meant", async () => {
    const result = await plan(["--detailed-exit-code"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("plan: Unknown option '--detailed-exit-code'. Did you mean --detailed-exitcode?");
    expect(sim.requestCounts()).toEqual({});
  });

  it("a typo of a stack name in --stack names the stack meant, before any request", async () => {
    ws.write([{ name: "alert-rules", lists: [{ id: "x", props: { ruleName: "Legal hold file type mismatch", mode: "additive", users: [] } }] }]);
    const result = await plan(["--stack", "alert-rule"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Unknown stack "alert-rule" (did you mean "alert-rules"?).`);
    expect(sim.requestCounts()).toEqual({});
  });

  it("a typo of a command names the command meant", async () => {
    const result = await runCli(["pln"], { cwd: ws.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Error: unknown command 'pln'. Did you mean 'plan'?");
  });
});
