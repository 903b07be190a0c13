/**
 * `npm run demo` (the built dist/src/demo/main.js): plan, apply of the saved plan, plan again, with
 * the plan of changes shown once (apply of a saved plan does not print it again).
 */
import { join } from "node:path";
import { REPO, runCommand } from "../support/cli";

describe("the demo", () => {
  it("shows the plan once with its legend, applies the saved plan, and ends with no changes", async () => {
    // given the built demo / when
    const run = await runCommand(process.execPath, [join(REPO, "dist", "src", "demo", "main.js")], { cwd: REPO, timeoutMs: 120_000 });

    // then
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("== 2/3  alert-rule-users apply plan.json");
    expect(run.stdout.split('~ rule "Cloud sharing outside the company"').length - 1).toBe(1);
    expect(run.stdout.split("Symbols:").length - 1).toBe(1);
    expect(run.stdout).toContain("No changes. The lists match the declaration.");
    expect(run.stdout).toContain("Demo complete");
  });
});
