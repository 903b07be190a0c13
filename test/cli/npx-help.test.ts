/**
 * What the docs say works for the tool's help through npx (docs/provider/guides/troubleshooting.md,
 * docs/provider-migration.md): in a project that has the package, `npx --no alert-rule-users help`
 * and `npx --no -- alert-rule-users plan --help` print the tool's help, while npm takes a bare
 * `--help` for itself (`npx --no alert-rule-users --help` prints npm's help).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, runCommand } from "../support/cli";

let project: string;
const npx = (args: string[]) => runCommand("npx", args, { cwd: project, env: { npm_config_offline: "true", npm_config_update_notifier: "false" }, timeoutMs: 60_000 });

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`the CLI is not built: ${CLI} is missing (npm run build)`);
  // a project with the package installed: its node_modules as npm links it
  project = mkdtempSync(join(tmpdir(), "aru-npx-help-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", version: "1.0.0", private: true }));
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(REPO, join(project, "node_modules", "alert-rule-users"));
  symlinkSync(join("..", "alert-rule-users", "dist", "src", "cli", "main.js"), join(project, "node_modules", ".bin", "alert-rule-users"));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the tool's help through npx, as the docs say", () => {
  it("npx --no alert-rule-users help prints the tool's commands", async () => {
    expect((await npx(["--no", "alert-rule-users", "help"])).stdout).toContain("Usage: alert-rule-users <command>");
  }, 90_000);

  it("npx --no -- alert-rule-users plan --help prints the command's help", async () => {
    expect((await npx(["--no", "--", "alert-rule-users", "plan", "--help"])).stdout).toContain("Usage: alert-rule-users plan");
  }, 90_000);

  it("a bare --help goes to npm (why the docs never write it), and the docs say so", async () => {
    expect((await npx(["--no", "alert-rule-users", "--help"])).stdout).not.toContain("Usage: alert-rule-users");
    const guide = readFileSync(join(REPO, "docs", "provider", "guides", "troubleshooting.md"), "utf8");
    expect(guide).toContain("npx --no alert-rule-users help");
    expect(guide).toContain("npx --no -- alert-rule-users plan --help");
  }, 90_000);
});
