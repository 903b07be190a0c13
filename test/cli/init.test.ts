/**
 * `alert-rule-users init [DIR]` (docs/contract.md §9.2): the files it writes, and its refusal to
 * overwrite any file. (That the written app installs, plans and applies is test/package.)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { packageNameFor } from "../../src/core/init/init-files";
import { REPO } from "../support/cli";
import { majorsOf } from "../support/engines";
import { filesUnder } from "../support/files";
import { runMain, type MainResult } from "../support/run-main";

const init = (cwd: string, ...args: string[]): Promise<MainResult> => runMain(["init", ...args], cwd);

const ownPackage = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  version: string;
  engines: { node: string };
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};


/** Every file under `dir`, relative, sorted. */
const relativeFilesUnder = (dir: string): string[] => filesUnder(dir, { relativeTo: dir });

describe("alert-rule-users init", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "aru-init-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes package.json, cdktf.json, main.ts, tsconfig.json and .gitignore into a new directory, and says what to run next", async () => {
    // when
    const run = await init(root, "My Alert Rules");

    // then
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const dir = join(root, "My Alert Rules");
    expect(relativeFilesUnder(dir)).toEqual([".gitignore", "cdktf.json", "main.ts", "package.json", "tsconfig.json"]);
    expect(run.stdout).toContain(`Wrote a cdktf app in My Alert Rules: package.json, cdktf.json, main.ts, tsconfig.json, .gitignore.`);
    expect(run.stdout).toContain(`cd 'My Alert Rules'\n  npm install\n  npx --no alert-rule-users plan`);
  });

  it("package.json: alert-rule-users at this version, cdktf, constructs and the null provider in the ranges it supports, ts-node to run main.ts", async () => {
    await init(root, "rules");
    const pkg = JSON.parse(readFileSync(join(root, "rules", "package.json"), "utf8")) as Record<string, Record<string, string>>;
    expect(pkg["name"]).toBe("rules");
    expect(pkg["private"]).toBe(true);
    expect(pkg["dependencies"]).toEqual({
      "@cdktf/provider-null": ownPackage.peerDependencies["@cdktf/provider-null"],
      "alert-rule-users": `^${ownPackage.version}`,
      cdktf: ownPackage.peerDependencies["cdktf"],
      constructs: ownPackage.peerDependencies["constructs"],
    });
    expect(Object.keys(pkg["devDependencies"] ?? {})).toEqual(["@types/node", "ts-node", "typescript"]);
    expect(pkg["scripts"]).toMatchObject({ plan: "alert-rule-users plan", apply: "alert-rule-users apply" });
  });

  it("package.json: the app runs on the Node.js versions alert-rule-users supports (20, 22, 24), and builds against the types of the oldest", async () => {
    // given: this package supports Node 20 (end of life, still tested), 22 and 24 (LTS), and builds against @types/node of 20
    expect(majorsOf(ownPackage.engines.node)).toEqual([20, 22, 24]);
    expect(ownPackage.devDependencies["@types/node"]).toBe("^20");

    // when
    await init(root, "rules");

    // then: the same engines, and @types/node of the oldest of them (what main.ts may call runs on all)
    const pkg = JSON.parse(readFileSync(join(root, "rules", "package.json"), "utf8")) as { engines: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.engines).toEqual({ node: ownPackage.engines.node });
    expect(pkg.devDependencies["@types/node"]).toBe(`^${Math.min(...majorsOf(pkg.engines["node"] ?? ""))}`);
  });

  it("--package-spec puts a tarball (or any npm spec) in place of the version range", async () => {
    await init(root, "rules", "--package-spec", "file:../alert-rule-users-0.1.0.tgz");
    const pkg = JSON.parse(readFileSync(join(root, "rules", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["alert-rule-users"]).toBe("file:../alert-rule-users-0.1.0.tgz");
  });

  it("cdktf.json runs main.ts; main.ts declares one RuleUserList for a rule of the simulator's sample tenant", async () => {
    await init(root, "rules");
    const cdktf = JSON.parse(readFileSync(join(root, "rules", "cdktf.json"), "utf8")) as { app: string; language: string };
    expect(cdktf).toMatchObject({ language: "typescript", app: "npx ts-node --transpile-only main.ts" });
    const mainTs = readFileSync(join(root, "rules", "main.ts"), "utf8");
    expect(mainTs).toContain(`import { RuleUserList, RuleUserListPolicy } from "alert-rule-users";`);
    expect(mainTs.match(/new RuleUserList\(/g)).toHaveLength(1);
    const sample = JSON.parse(readFileSync(join(REPO, "examples", "sample-tenant.json"), "utf8")) as { rules: { metadata: { observerRuleId: string } }[] };
    const ruleId = /ruleId: "([^"]+)"/.exec(mainTs)?.[1];
    expect(sample.rules.map((r) => r.metadata.observerRuleId)).toContain(ruleId);
    expect(mainTs).toContain("app.synth();");
  });

  it("tsconfig.json is strict; .gitignore keeps node_modules, cdktf.out, Terraform state and saved plans out of git", async () => {
    await init(root, "rules");
    const tsconfig = JSON.parse(readFileSync(join(root, "rules", "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions["strict"]).toBe(true);
    const ignored = readFileSync(join(root, "rules", ".gitignore"), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["node_modules/", "cdktf.out/", ".terraform/", "terraform.tfstate*", "plan.json"]));
  });

  it(".gitignore keeps the access report out of git too: it lists the same people as the plans (issue 32)", async () => {
    await init(root, "rules");
    const ignored = readFileSync(join(root, "rules", ".gitignore"), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["access-report/", "access.html", "access.csv"]));
  });

  it("main.ts declares a RuleUserListPolicy that allows the sample tenant's alias domains only, covering every alias it declares (issue 32)", async () => {
    await init(root, "rules");
    const mainTs = readFileSync(join(root, "rules", "main.ts"), "utf8");
    expect(mainTs).toMatch(/new RuleUserListPolicy\(this, "guardrails", \{\s+allowedAliasDomains: \["example.com", "eng.example.com"\],\s+\}\);/);
    const domains = [...mainTs.matchAll(/"[^"@\s]+@([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(domains)).toEqual(new Set(["example.com", "eng.example.com"]));
  });

  it("pins TypeScript to this package's own version, below 7 (ts-node 10 fails on 7: 'reading fileExists')", async () => {
    await init(root, "rules");
    const pkg = JSON.parse(readFileSync(join(root, "rules", "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies["typescript"]).toBe(ownPackage.devDependencies["typescript"]);
    expect(pkg.devDependencies["typescript"]).toMatch(/^[~^]?[1-6]\.\d+\.\d+$/);
  });

  it("--cdktn writes a CDK Terrain app: main.ts imports cdktn and alert-rule-users/cdktn; package.json has cdktn, not cdktf or the null provider", async () => {
    const run = await init(root, "terrain", "--cdktn");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("Wrote a cdktn app in terrain:");
    const pkg = JSON.parse(readFileSync(join(root, "terrain", "package.json"), "utf8")) as Record<string, Record<string, string>>;
    expect(pkg["dependencies"]).toEqual({
      "alert-rule-users": `^${ownPackage.version}`,
      cdktn: ownPackage.peerDependencies["cdktn"],
      constructs: ">=10.6.0 <10.8.0",
    });
    expect(pkg["devDependencies"]?.["typescript"]).toBe(ownPackage.devDependencies["typescript"]);
    const mainTs = readFileSync(join(root, "terrain", "main.ts"), "utf8");
    expect(mainTs).toContain(`import { App, TerraformStack } from "cdktn";`);
    expect(mainTs).toContain(`import { RuleUserList, RuleUserListPolicy } from "alert-rule-users/cdktn";`);
    expect(mainTs).not.toMatch(/from "cdktf"/);
  });

  it("this package's cdktf and @cdktf/provider-null are optional peers, so a cdktn app installs neither", () => {
    const meta = (ownPackage as unknown as { peerDependenciesMeta: Record<string, { optional?: boolean }> }).peerDependenciesMeta;
    for (const name of ["cdktf", "@cdktf/provider-null", "cdktn"]) expect(meta[name]).toEqual({ optional: true });
    expect(meta["constructs"]).toBeUndefined();
  });

  it("writes into the current directory without DIR", async () => {
    expect((await init(root)).code).toBe(0);
    expect(existsSync(join(root, "main.ts"))).toBe(true);
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8"))).toMatchObject({ name: packageNameFor(root.split("/").pop() ?? "") });
  });

  it("--workflows adds the four example workflows under .github/workflows, named as review.yml and apply.yml expect, and says where the secrets go", async () => {
    const run = await init(root, "rules", "--workflows");
    expect(run.stdout).toContain('GitHub environment alert-rules, whose deployment branches are the default branch only: docs/ci.md, "Settings"');
    const dir = join(root, "rules", ".github", "workflows");
    expect(readdirSync(dir).sort()).toEqual(["alert-rule-users-apply.yml", "alert-rule-users-drift.yml", "alert-rule-users-plan.yml", "alert-rule-users-review.yml"]);
    for (const name of ["plan", "review", "apply", "drift"]) {
      const written = readFileSync(join(dir, `alert-rule-users-${name}.yml`), "utf8");
      expect(written).toBe(readFileSync(join(REPO, "examples", "github-actions", `${name}.yml`), "utf8"));
      expect(parseYaml(written)).toHaveProperty("jobs");
    }
  });

  it("refuses to overwrite: names every file that exists and writes nothing", async () => {
    // given a directory with a main.ts and a .gitignore of its own
    mkdirSync(join(root, "rules"));
    writeFileSync(join(root, "rules", "main.ts"), "// mine\n");
    writeFileSync(join(root, "rules", ".gitignore"), "dist/\n");

    // when
    const run = await init(root, "rules");

    // then
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("init: rules already has main.ts, .gitignore: nothing was written (init never overwrites a file).");
    expect(relativeFilesUnder(join(root, "rules"))).toEqual([".gitignore", "main.ts"]);
    expect(readFileSync(join(root, "rules", "main.ts"), "utf8")).toBe("// mine\n");
    expect(run.stdout).toBe("");
  });

  it("refuses when one of the workflows exists, and writes none of the app's files either", async () => {
    mkdirSync(join(root, ".github", "workflows"), { recursive: true });
    writeFileSync(join(root, ".github", "workflows", "alert-rule-users-plan.yml"), "name: mine\n");
    const run = await init(root, ".", "--workflows");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("already has .github/workflows/alert-rule-users-plan.yml:");
    expect(relativeFilesUnder(root)).toEqual([join(".github", "workflows", "alert-rule-users-plan.yml")]);
  });

  it("refuses a DIR that is a file", async () => {
    writeFileSync(join(root, "rules"), "not a directory\n");
    const run = await init(root, "rules");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("init: rules exists and is not a directory: nothing was written.");
    expect(readFileSync(join(root, "rules"), "utf8")).toBe("not a directory\n");
  });

  it("--help shows the files, the flags and the next steps; two directories are a usage error", async () => {
    const help = await init(root, "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: alert-rule-users init \[DIR\]/);
    expect(help.stdout).toContain("--workflows");
    expect(help.stdout).toContain("--package-spec SPEC");
    expect(help.stdout).toContain("--cdktn");
    const two = await init(root, "a", "b");
    expect(two.code).toBe(1);
    expect(two.stderr).toContain("init: takes one directory, got 2");
    expect(readdirSync(root)).toEqual([]);
  });

  it.each([
    ["My Alert Rules", "my-alert-rules"],
    ["alert_rules.v2", "alert_rules.v2"],
    [".hidden", "hidden"],
    ["Ünïcode Régles", "unicode-regles"],
    ["---", "alert-rules"],
  ])("names the package after the directory: %s -> %s", (dir, name) => {
    expect(packageNameFor(dir)).toBe(name);
  });

  describe("what a new user pastes and commits (issue 25)", () => {
    it("quotes DIR for the shell in the 'cd' it prints: a name with $(...) is not run when pasted", async () => {
      // given a directory name a shell would expand inside double quotes
      const run = await init(root, "$(id>x)");

      // then the printed cd is single-quoted, and a quote in the name is escaped as '\\''
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("  cd '$(id>x)'\n");
      expect(run.stdout).not.toContain('"$(id>x)"');
      const quoted = await init(root, "it's");
      expect(quoted.stdout).toContain("  cd 'it'\\''s'\n");
    });

    it(".gitignore keeps cdktf's per-stack state (terraform.<stack>.tfstate, which holds every alias) out of git", async () => {
      await init(root, "rules");
      const ignored = readFileSync(join(root, "rules", ".gitignore"), "utf8").split("\n");
      expect(ignored).toEqual(expect.arrayContaining(["terraform.tfstate*", "terraform.*.tfstate*"]));
    });

    it("main.ts uses terraform_data (built into Terraform, no provider to download), so terraform init works offline", async () => {
      await init(root, "rules");
      const mainTs = readFileSync(join(root, "rules", "main.ts"), "utf8");
      expect(mainTs).toContain(`resourceType: "terraform_data",`);
    });

    it("without --package-spec, says that the version range installs only once the package is published, and what to use until then", async () => {
      const run = await init(root, "rules");
      expect(run.stdout).toMatch(/alert-rule-users@\^\d+\.\d+\.\d+ .*will not install until the package is published/);
      expect(run.stdout).toContain("--package-spec file:");
      const withSpec = await init(root, "other", "--package-spec", "file:../alert-rule-users-0.1.0.tgz");
      expect(withSpec.stdout).not.toContain("will not install");
    });
  });
});
