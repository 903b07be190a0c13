/**
 * The release's one program (src/release/executable.ts), as the bundle every package is made of
 * (dist/provider/alertrules-provider.js, built by npm run build): with a command it runs the CI's
 * commands (no npm, no app); started by Terraform, or by hand with no command, it is the provider.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/cli";

const BUNDLE = join(REPO, "dist", "provider", "alertrules-provider.js");
const run = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO) => spawnSync(process.execPath, [BUNDLE, ...args], { cwd, env: { PATH: process.env["PATH"], ...env }, encoding: "utf8" });

describe("the release's executable", () => {
  it("lists the CI's commands, and none that builds or installs packages", () => {
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    const commands = help.stdout.split("\nCommands:\n")[1]!.split("\n\n")[0]!.split("\n").map((l) => l.trim().split(/\s+/)[0]);
    expect(commands).toEqual(["synth", "plan", "show", "data-answers", "rules", "who"]);
  });

  it("renders a Terraform plan's changes (show) from the bundle alone", () => {
    const dir = mkdtempSync(join(tmpdir(), "aru-release-"));
    try {
      const before = { rule_id: "r-1", users: { "1": { aliases: ["a@x.com"], expires_at: null } } };
      writeFileSync(join(dir, "tfplan.json"), JSON.stringify({ format_version: "1.2", resource_changes: [{ address: "alertrules_rule_user_list.x", mode: "managed", type: "alertrules_rule_user_list", change: { actions: ["update"], before, after: { ...before, users: {} } } }] }));
      const shown = run(["show", "--terraform-plan", "tfplan.json"], {}, dir);
      expect([shown.status, shown.stdout]).toEqual([0, 'alertrules_rule_user_list.x (rule r-1): updated in place\n    - user "1" (a@x.com)\n']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is the provider when started with no command: it says so and exits 1", () => {
    const byHand = run([]);
    expect(byHand.status).toBe(1);
    expect(byHand.stderr).toContain("This executable is the alertrules Terraform provider");
  });

  it("an unknown command is named, with the nearest", () => {
    const typo = run(["shwo"]);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/^Error: unknown command 'shwo'\. Did you mean 'show'\?/);
  });
});
