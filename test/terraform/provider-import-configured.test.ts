/**
 * `import --format hcl --out FILE` into a directory that already configures the provider (as
 * `init --hcl` leaves it): the file holds resources and import blocks only, so `terraform init` and
 * `terraform plan` take the directory as it is (no "Duplicate required providers configuration")
 * and plan imports and no change, with no write. Real Terraform against the simulator; run by
 * `npm run test:terraform`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerBlocks } from "../../src/core/import/import-hcl";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, runCli, runCommand, writesOf } from "../support/cli";
import { MINUTES, explain, terraform } from "./support";
import { nativeTerraformEnv, requireProvider } from "./native-support";

const TOKEN = "import-configured-token-7a21";
const sim = useSimulator({ token: TOKEN });
let dir: string;

beforeAll(() => {
  requireProvider();
  dir = mkdtempSync(join(tmpdir(), "aru-import-configured-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("import --format hcl into a directory that configures the provider", () => {
  it("writes resources and import blocks only; terraform plans the imports and no change, with no write", async () => {
    // given a directory whose main.tf has the provider's blocks (its version, as the package's)
    const version = (JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;
    writeFileSync(join(dir, "main.tf"), `${providerBlocks(version).join("\n")}\n`);
    const env = nativeTerraformEnv(dir, connectionEnv(sim));
    const installed = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, timeoutMs: 2 * MINUTES });
    if (installed.code !== 0) throw new Error(explain("provider install", installed));
    // when the lists are imported into a file beside it
    const imported = await runCli(["import", "--all", "--format", "hcl", "--out", "lists.tf"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 2 * MINUTES });
    if (imported.code !== 0) throw new Error(explain("alert-rule-users import", imported));
    const lists = readFileSync(join(dir, "lists.tf"), "utf8");
    // then the file leaves the provider's blocks to main.tf, and Terraform takes the directory
    expect(lists).not.toMatch(/^\s*required_providers \{|^provider "alertrules"/m);
    expect(lists).toMatch(/^import \{/m);
    const init = await terraform(["init", "-input=false", "-no-color"], dir, env);
    if (init.code !== 0) throw new Error(explain("terraform init", init));
    sim.resetCounts();
    const plan = await terraform(["plan", "-input=false", "-no-color"], dir, env);
    if (plan.code !== 0) throw new Error(explain("terraform plan", plan));
    expect(plan.stdout).not.toContain("Duplicate required providers configuration");
    expect(plan.stdout).toMatch(/Plan: \d+ to import, 0 to add, 0 to change, 0 to destroy/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(plan.stdout + plan.stderr + lists).not.toContain(TOKEN);
  }, 10 * MINUTES);
});
