/**
 * A declaration that fails the RuleUserList checks at synth (a rule declared twice, an invalid
 * mode) ends with what to fix, never with cdktf's footer inviting `skipValidation: true`, which
 * would turn those safety checks off (issue 32, wrong turn 6).
 */
import { runCli, workspace, type Workspace } from "../support/cli";

let ws: Workspace;
afterEach(() => ws.cleanup());

it("a duplicate rule and an invalid mode: the errors with their construct paths, our advice, and no skipValidation footer", async () => {
  ws = workspace([
    {
      name: "rules",
      lists: [
        { id: "first", props: { ruleId: "r-1", users: [] } },
        { id: "again", props: { ruleId: "r-1", users: [] } },
        { id: "moody", props: { ruleId: "r-2", mode: "sometimes", users: [] } },
      ],
    },
  ]);
  const result = await runCli(["plan"], { cwd: ws.dir, env: { ALERTS_API_URL: "http://127.0.0.1:9", ALERTS_API_TOKEN: "t-1234567890", ALERTS_TENANT_ID: "t" } });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("[rules/first] ruleId: rule 'r-1' is declared again by rules/again");
  expect(result.stderr).toContain(`[rules/moody] mode: "sometimes" is not a list mode`);
  expect(result.stderr).not.toMatch(/If you wish to ignore these validations|skipValidation: true/);
  expect(result.stderr).toContain("Fix the errors above and run again. These are the declarations' safety checks");
});
