/**
 * `alert-rule-users init --hcl DIR` (issue 30): a starter Terraform configuration for the native
 * provider (main.tf with required_providers, a provider block that reads the environment, one
 * alertrules_rule_user_list for the sample tenant's rule; a .gitignore that keeps state, plans,
 * .terraform and the machine's provider out of git), the provider installed into DIR, the next
 * steps printed; never over a file. (That the three README commands run: test/terraform/native-init-hcl.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/cli";
import { RULES } from "../support/sample";
import { readHcl } from "../support/hcl-reader";
import { runMain } from "../support/run-main";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

const cli = (cwd: string, ...args: string[]) => runMain(args, cwd);
/** With terraform on PATH: `--workflows` writes the tool directory's lock with `terraform providers lock`. */
const cliWithTerraform = (cwd: string, ...args: string[]) => runMain(args, cwd, { PATH: process.env["PATH"], HOME: process.env["HOME"], ALERT_RULE_USERS_PROVIDER_CACHE: process.env["ALERT_RULE_USERS_PROVIDER_CACHE"] });

const TARGET = `${process.platform === "darwin" ? "darwin" : "linux"}_${process.arch === "arm64" ? "arm64" : "amd64"}`;

describe("alert-rule-users init --hcl", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "aru-init-hcl-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes main.tf and .gitignore, installs the provider into DIR, and prints terraform init and plan for DIR", async () => {
    const run = await cli(root, "init", "--hcl", "alert rules");
    expect(run.code).toBe(0);
    const dir = join(root, "alert rules");
    const config = readHcl(readFileSync(join(dir, "main.tf"), "utf8"));
    const terraform = config.blocks.find((b) => b.type === "terraform")!;
    expect(terraform.blocks[0]!.attributes["alertrules"]).toEqual({ source: "alert-rule-users/alertrules", version: VERSION });
    expect(config.blocks.filter((b) => b.type === "provider")).toEqual([{ type: "provider", labels: ["alertrules"], attributes: {}, blocks: [] }]);
    const [resource, ...others] = config.blocks.filter((b) => b.type === "resource");
    expect(others).toEqual([]);
    expect(resource!.labels).toEqual(["alertrules_rule_user_list", "engineering_exfiltration"]);
    expect(resource!.attributes["rule_id"]).toBe(RULES.engineering);
    expect(Object.keys(resource!.attributes["users"] as object)).toHaveLength(5);
    const gitignore = readFileSync(join(dir, ".gitignore"), "utf8").split("\n");
    expect(gitignore).toEqual(expect.arrayContaining([".terraform/", "terraform.tfstate", "terraform.tfstate.*", "*.tfplan", "terraform.d/"]));
    // the lock file is committed: its hashes are the same on every machine (design §12.2)
    expect(gitignore).not.toContain(".terraform.lock.hcl");
    const zip = join(dir, "terraform.d", "plugins", "registry.terraform.io", "alert-rule-users", "alertrules", `terraform-provider-alertrules_${VERSION}_${TARGET}.zip`);
    expect(existsSync(zip)).toBe(true);
    expect(run.stdout).toContain("Wrote a Terraform configuration in alert rules: main.tf, .gitignore.");
    expect(run.stdout).toContain("cd 'alert rules' && npx --no alert-rule-users provider install --lock");
    expect(run.stdout).toContain("\n  terraform init\n  terraform plan");
  });

  it("gives the package.json above DIR (the quick start's layout) a .gitignore of node_modules/, never over one", async () => {
    // given the quick start's layout: a package.json that holds alert-rule-users, the configuration below it
    writeFileSync(join(root, "package.json"), '{ "dependencies": { "alert-rule-users": "file:alert-rule-users-0.1.0.tgz" } }\n');
    // when
    const run = await cli(root, "init", "--hcl", "alert-rules");
    // then
    expect(run.code).toBe(0);
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain("node_modules/");
    expect(run.stdout).toContain("Wrote .gitignore (node_modules/) for the package.json that holds alert-rule-users.");
    // and a .gitignore already there is left as it is
    writeFileSync(join(root, ".gitignore"), "dist/\n");
    expect((await cli(root, "init", "--hcl", "more-rules")).code).toBe(0);
    expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe("dist/\n");
  });

  it("with --workflows writes the four workflows and the trusted tool directory where GitHub reads them: at the repository's root (.git), naming DIR", async () => {
    // given a repository's root here, the configuration in tf/
    mkdirSync(join(root, ".git"));
    // when
    const run = await cliWithTerraform(root, "init", "--hcl", "tf", "--workflows");
    // then
    expect(`${run.code} ${run.stderr}`).toBe("0 ");
    expect(existsSync(join(root, "tf", ".github"))).toBe(false);
    for (const name of ["plan", "review", "apply", "drift"]) {
      const file = join(root, ".github", "workflows", `alert-rule-users-terraform-${name}.yml`);
      const shipped = readFileSync(join(REPO, "examples", "github-actions-hcl", `${name}.yml`), "utf8");
      expect(shipped).toContain('  ALERT_RULES_DIR: "."\n');
      expect(readFileSync(file, "utf8")).toBe(shipped.replace('  ALERT_RULES_DIR: "."\n', '  ALERT_RULES_DIR: "tf"\n'));
    }
    // the tool directory: the shared script (executable), the provider pinned at this version, its lock for every platform
    const tool = join(root, ".github", "alert-rule-users");
    expect(readFileSync(join(tool, "ci.sh"), "utf8")).toBe(readFileSync(join(REPO, "examples", "github-actions-hcl", "alert-rule-users", "ci.sh"), "utf8"));
    expect(statSync(join(tool, "ci.sh")).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(tool, "versions.tf"), "utf8")).toContain(`      version = "${VERSION}"\n`);
    const lock = readFileSync(join(tool, ".terraform.lock.hcl"), "utf8");
    // written by terraform providers lock, as the configuration's own: the version the tool directory pins, every platform's hash
    expect(lock).toMatch(new RegExp(`provider "registry\\.terraform\\.io/alert-rule-users/alertrules" \\{\\n  version += "${VERSION.replace(/\./g, "\\.")}"\\n  constraints = "${VERSION.replace(/\./g, "\\.")}"`));
    expect(lock.match(/"h1:/g)?.length).toBeGreaterThanOrEqual(4);
    expect(run.stdout).toContain("Wrote the GitHub workflows at the repository's root . (terraform runs in tf)");
    expect(run.stdout).toContain("Commit .github/ with its .github/alert-rule-users/.terraform.lock.hcl");
  });

  it("with --workflows and no repository above DIR, writes them where package.json is (else where init runs); refuses, writing nothing, when one is there already", async () => {
    mkdirSync(join(root, "tf"));
    writeFileSync(join(root, "tf", "package.json"), "{}\n");
    expect((await cliWithTerraform(root, "init", "--hcl", "tf", "--workflows")).code).toBe(0);
    expect(readFileSync(join(root, "tf", ".github", "workflows", "alert-rule-users-terraform-plan.yml"), "utf8")).toContain('  ALERT_RULES_DIR: "."\n');
    writeFileSync(join(root, "package.json"), "{}\n");
    mkdirSync(join(root, ".github", "workflows"), { recursive: true });
    writeFileSync(join(root, ".github", "workflows", "alert-rule-users-terraform-drift.yml"), "# mine\n");
    const again = await cliWithTerraform(root, "init", "--hcl", "other", "--workflows");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already has .github/workflows/alert-rule-users-terraform-drift.yml: nothing was written");
    expect(existsSync(join(root, "other"))).toBe(false);
  });

  it("writes nothing when a file exists, and refuses --package-spec", async () => {
    mkdirSync(join(root, "tf"));
    writeFileSync(join(root, "tf", "main.tf"), "# mine\n");
    const run = await cli(root, "init", "--hcl", "tf");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("init: tf already has main.tf: nothing was written");
    expect(existsSync(join(root, "tf", ".gitignore"))).toBe(false);
    expect(existsSync(join(root, "tf", "terraform.d"))).toBe(false);
    expect(statSync(join(root, "tf", "main.tf")).size).toBe(7);
    const spec = await cli(root, "init", "--hcl", "other", "--package-spec", "^0.1.0");
    expect(spec.code).toBe(1);
    expect(spec.stderr).toContain("init: --package-spec is for a cdktf app; --hcl writes a Terraform configuration");
  });
});
