/**
 * The package as a new user gets it (`npm run test:package`; needs the npm registry, so it is not
 * part of `npm test`): `npm pack` → `alert-rule-users init` → `npm install` of the tarball and
 * the registry only → synth, plan, apply and plan again against the simulator, with the CLI and the
 * construct the app installed; `import --all --out FILE` planned as the app by itself; and an app
 * with an older constructs stopped by the dependency check (src/constructs/compat.ts). One pack and one install serve every test here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, connectionEnv, listing, runCli, runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";
import { useSimulator, withSimulator } from "../support/simulator";

const MINUTES = 60_000;
const RULE = "a33e7c21-5cb0-4cf5-a266-852063111751"; // the rule init's main.ts declares
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

function explain(step: string, result: CliResult): string {
  return `${step} exited ${String(result.code)}:\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`;
}

async function succeed(step: string, run: Promise<CliResult>): Promise<CliResult> {
  const result = await run;
  if (result.code !== 0) throw new Error(explain(step, result));
  return result;
}

describe("the packed package in a new user's project", () => {
  const sim = useSimulator();
  let root: string;
  let tarball: string;
  let app: string;
  /** The CLI the app installed, as a user runs it (the workflows use `npx --no --`). */
  const installedCli = (args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
    runCommand(NPX, ["--no", "--", "alert-rule-users", ...args], { cwd: opts.cwd ?? app, env: { ...connectionEnv(sim), ...opts.env }, timeoutMs: 5 * MINUTES });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "aru-package-"));
    // npm pack runs prepack (the build), so a clean checkout packs the CLI too
    const packed = await succeed("npm pack", runCommand(NPM, ["pack", "--pack-destination", root, "--silent"], { cwd: REPO, timeoutMs: 10 * MINUTES }));
    tarball = join(root, packed.stdout.trim().split("\n").pop() ?? "");
    expect(existsSync(tarball)).toBe(true);

    // init with this checkout's CLI (the same code as the tarball), depending on the tarball
    app = join(root, "my-alert-rules");
    await succeed("init", runCli(["init", app, "--package-spec", `file:${tarball}`], { cwd: root }));
    await succeed(
      "npm install",
      runCommand(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], { cwd: app, timeoutMs: 10 * MINUTES }),
    );
  }, 20 * MINUTES);

  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("the tarball ships the built CLI, the construct and its types, and the files init copies; no sources or tests", () => {
    const files = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" }).stdout.split("\n").filter((f) => f !== "");
    expect(files).toEqual(
      expect.arrayContaining([
        "package/package.json",
        "package/dist/src/cli/main.js",
        "package/dist/src/index.js",
        "package/dist/src/index.d.ts",
        "package/examples/sample-tenant.json",
        "package/examples/github-actions/plan.yml",
        "package/examples/github-actions/apply.yml",
        "package/examples/github-actions/drift.yml",
      ]),
    );
    expect(files.filter((f) => f.startsWith("package/test/") || f.startsWith("package/src/") || /\.test\.js$/.test(f))).toEqual([]);
  });

  it("installs one copy of constructs and cdktf (peer dependencies), none nested under alert-rule-users", () => {
    const nested = join(app, "node_modules", "alert-rule-users", "node_modules");
    const under = existsSync(nested) ? readdirSync(nested) : [];
    expect(under).not.toContain("constructs");
    expect(under).not.toContain("cdktf");
    expect(existsSync(join(app, "node_modules", "constructs", "package.json"))).toBe(true);
    expect(existsSync(join(app, "node_modules", "cdktf", "package.json"))).toBe(true);
    expect(existsSync(join(app, "node_modules", ".bin", "alert-rule-users"))).toBe(true);
  });

  it(
    "a plain JavaScript app of the installed package synthesizes and plans against the simulator",
    async () => {
      // given an app that requires the package by its name, as any cdktf app does
      writeFileSync(
        join(app, "plain.js"),
        `const { App, TerraformStack } = require("cdktf");
const { RuleUserList } = require("alert-rule-users");
const app = new App();
const stack = new TerraformStack(app, "plain");
new RuleUserList(stack, "legal-hold", { ruleId: "0bb8a318-ce64-4661-96f2-ea8ad764f3ca", users: [{ userId: "908712345678909001", aliases: ["nina.petrova@example.com"] }] });
app.synth();
`,
      );
      // when
      const plan = await installedCli(["plan", "--app", "node plain.js", "--output", "plain.out", "--format", "json"]);
      // then: synthesized (cdktf.out written by the app) and planned (the live list matches)
      expect(plan.code).toBe(0);
      expect(existsSync(join(app, "plain.out", "manifest.json"))).toBe(true);
      const json = JSON.parse(plan.stdout) as { rules: { ruleId: string; action: string; constructPath: string }[] };
      expect(json.rules).toEqual([expect.objectContaining({ ruleId: "0bb8a318-ce64-4661-96f2-ea8ad764f3ca", action: "no-op", constructPath: "plain/legal-hold" })]);
    },
    5 * MINUTES,
  );

  it(
    "init → npm install → plan → apply --auto-approve → plan --detailed-exitcode exits 0",
    async () => {
      const before = listing(sim, RULE);
      // plan: main.ts as init wrote it adds Erin to the engineering rule
      const plan = await succeed("plan", installedCli(["plan"]));
      expect(plan.stdout).toContain(`~ rule "Endpoint exfiltration - Engineering" (${RULE})`);
      expect(plan.stdout).toContain("+ 908712345678901238  erin.walker@example.com");
      expect(listing(sim, RULE)).toEqual(before);

      // apply
      const apply = await succeed("apply", installedCli(["apply", "--auto-approve"]));
      expect(apply.stdout).toContain("Apply complete: 1 rule applied and verified, 0 failed");
      expect(listing(sim, RULE)).toEqual([...before, "908712345678901238:erin.walker@example.com"].sort());

      // plan again: nothing left to do
      const again = await installedCli(["plan", "--detailed-exitcode"]);
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: expect.not.stringContaining("Error") as unknown });
      expect(again.stdout).toContain("Plan: 0 rules to update");
    },
    10 * MINUTES,
  );

  it(
    "import --all --out FILE in the app, then plan with FILE as the app (the command import prints): no changes",
    async () => {
      const imported = await succeed("import", installedCli(["import", "--all", "--out", "all-rules.ts"]));
      const hint = /plan --app '([^']+)'/.exec(imported.stderr)?.[1];
      expect(hint).toBe("npx ts-node --transpile-only all-rules.ts");
      const plan = await installedCli(["plan", "--app", hint ?? "", "--output", "all-rules.out", "--detailed-exitcode"]);
      expect(plan.stderr).not.toMatch(/Error/);
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain("Plan: 0 rules to update");
    },
    5 * MINUTES,
  );

  it(
    "the app init wrote type-checks (strict) against the installed package's types",
    async () => {
      await succeed("tsc", runCommand(NPX, ["--no", "--", "tsc", "--noEmit", "-p", "."], { cwd: app, timeoutMs: 5 * MINUTES }));
    },
    5 * MINUTES,
  );

  it(
    "an app with an older constructs (installed past the peer ranges with --legacy-peer-deps) stops at the first RuleUserList, saying what to install",
    async () => {
      // given an app pinned to constructs 10.0.0, which npm only installs beside alert-rule-users without its peer checks
      const old = join(root, "old-constructs");
      mkdirSync(old);
      writeFileSync(join(old, "package.json"), JSON.stringify({ name: "old-constructs", version: "0.0.0", private: true }));
      await succeed(
        "npm install (legacy peer deps)",
        runCommand(
          NPM,
          ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error", "--legacy-peer-deps", `file:${tarball}`, "cdktf@0.21.0", "constructs@10.0.0", "@cdktf/provider-null@^11"],
          { cwd: old, timeoutMs: 10 * MINUTES },
        ),
      );
      writeFileSync(join(old, "plain.js"), readFileSync(join(app, "plain.js"), "utf8"));
      writeFileSync(join(old, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node plain.js" }));

      // when
      const plan = await installedCli(["plan"], { cwd: old });

      // then: plan fails with the check's message, not constructs' "_scopes is not iterable"
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(`alert-rule-users loads constructs 10.0.0 at ${join(old, "node_modules", "constructs")}, outside the supported range ^10.4.2.`);
      expect(plan.stderr).toContain("npm install constructs@'^10.4.2' cdktf@'^0.21.0'");
      expect(plan.stderr).not.toContain("_scopes");
    },
    10 * MINUTES,
  );

  it(
    "the installed CLI's init --workflows writes the workflows the package ships",
    async () => {
      const target = join(root, "with-workflows");
      await succeed("init --workflows", installedCli(["init", target, "--workflows"]));
      const workflows = readdirSync(join(target, ".github", "workflows")).sort();
      expect(workflows).toEqual(["alert-rule-users-apply.yml", "alert-rule-users-drift.yml", "alert-rule-users-plan.yml", "alert-rule-users-review.yml"]);
      expect(readFileSync(join(target, ".github", "workflows", "alert-rule-users-plan.yml"), "utf8")).toBe(
        readFileSync(join(REPO, "examples", "github-actions", "plan.yml"), "utf8"),
      );
      const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(pkg.dependencies["alert-rule-users"]).toMatch(/^\^\d+\.\d+\.\d+/);
    },
    5 * MINUTES,
  );

  it(
    "init --cdktn writes a CDK Terrain app that installs from the tarball without cdktf or the null provider, with TypeScript below 7, and plans (issue 32)",
    async () => {
      // given a cdktn app from the installed CLI, depending on the tarball
      const terrain = join(root, "my-terrain-rules");
      await succeed("init --cdktn", installedCli(["init", terrain, "--cdktn", "--package-spec", `file:${tarball}`]));
      // when installed
      await succeed(
        "npm install (cdktn)",
        runCommand(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], { cwd: terrain, timeoutMs: 10 * MINUTES }),
      );
      // then cdktf and its null provider (optional peers) are not installed, TypeScript is a 5.x ts-node runs
      expect(existsSync(join(terrain, "node_modules", "cdktn"))).toBe(true);
      expect(existsSync(join(terrain, "node_modules", "cdktf"))).toBe(false);
      expect(existsSync(join(terrain, "node_modules", "@cdktf", "provider-null"))).toBe(false);
      const typescript = JSON.parse(readFileSync(join(terrain, "node_modules", "typescript", "package.json"), "utf8")) as { version: string };
      expect(Number(typescript.version.split(".")[0])).toBeLessThan(7);
      // and it type-checks and plans the sample rule with the installed CLI
      await succeed("tsc --noEmit", runCommand(NPX, ["--no", "--", "tsc", "--noEmit"], { cwd: terrain, timeoutMs: 5 * MINUTES }));
      // against a simulator of its own: the suite's shared one already has Erin from the cdktf app's apply
      const plan = await withSimulator({}, (own) => installedCli(["plan", "--detailed-exitcode"], { cwd: terrain, env: connectionEnv(own) }));
      expect(plan.code).toBe(2);
      expect(plan.stdout).toContain("erin.walker@example.com");
    },
    20 * MINUTES,
  );
});
