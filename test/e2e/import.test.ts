/**
 * `alert-rule-users import` end to end: the generated TypeScript, dropped into a cdktf app that
 * imports `alert-rule-users` as a user's app does, synthesizes and plans with no changes.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { REPO, writesOf } from "../support/cli";
import { RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";

const TOKEN = "import-e2e-token-5a4b3c2d";
const sim = useSimulator({ token: TOKEN });
let dir: string;
const outputs: string[] = [];

/**
 * A TypeScript cdktf app in a temp dir, like a user's project: `alert-rule-users`, `cdktf` and
 * `constructs` resolve from its node_modules (links to this repository and its dependencies),
 * and the app runs with ts-node.
 */
function tsWorkspace(): string {
  const ws = mkdtempSync(join(tmpdir(), "aru-import-"));
  mkdirSync(join(ws, "node_modules"));
  symlinkSync(REPO, join(ws, "node_modules", "alert-rule-users"), "dir");
  for (const dep of ["cdktf", "constructs", "@cdktf"]) symlinkSync(join(REPO, "node_modules", dep), join(ws, "node_modules", dep), "dir");
  const tsNode = join(REPO, "node_modules", ".bin", "ts-node");
  writeFileSync(join(ws, "cdktf.json"), JSON.stringify({ language: "typescript", app: `${JSON.stringify(tsNode)} --transpile-only main.ts` }));
  writeFileSync(
    join(ws, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "commonjs",
        moduleResolution: "node",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noUnusedLocals: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
      },
      include: ["*.ts"],
    }),
  );
  writeFileSync(
    join(ws, "main.ts"),
    [
      `import { App, TerraformStack } from "cdktf";`,
      `import { declareRuleUserLists } from "./rule-user-lists";`,
      `const app = new App();`,
      `declareRuleUserLists(new TerraformStack(app, "imported"));`,
      `app.synth();`,
      "",
    ].join("\n"),
  );
  return ws;
}

const cli = cliAgainst(sim, { cwd: () => dir, outputs, timeoutMs: 120_000 });

beforeAll(() => {
  dir = tsWorkspace();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

describe("import", () => {
  it("round trip on the sample tenant: import --all, synth, plan shows no changes", async () => {
    // given the sample tenant: system, all-users and id-less rules among plain ones
    // when
    const imported = await cli(["import", "--all", "--out", "rule-user-lists.ts"]);
    // then
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe("");
    expect(imported.stderr).toMatch(/Imported 9 rules: 6 declared, 3 as comments/);
    expect(imported.stderr).toContain("no user ID");
    const source = readFileSync(join(dir, "rule-user-lists.ts"), "utf8");
    expect(source).toContain("export function declareRuleUserLists(scope: Construct)");
    expect(source).toMatch(/\/\/ "Departing Employee - Exfiltration".*\n\s*\/\/ Not declared: system rule/);
    expect(source).toMatch(/\/\/ "Company-wide cloud share monitor".*\n\s*\/\/ Not declared: the rule monitors all users/);
    expect(source).toMatch(/mode: "additive"/);
    expect(source).not.toContain(sim.tenantId);
    expect(source).not.toContain(sim.url);

    // the generated module type-checks strictly against the published types
    const tsc = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);

    sim.resetCounts();
    const plan = await cli(["plan", "--detailed-exitcode"]);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/Plan: 0 rules to update/);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("import --all --out FILE runs as an app by itself: plan --app with FILE shows no changes, with no edits", async () => {
    // when
    const imported = await cli(["import", "--all", "--out", "all-rules.ts"]);
    // then it says how to run it
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(`Plan it as an app by itself: npx --no alert-rule-users plan --app 'npx ts-node --transpile-only all-rules.ts'`);
    // and planned as the app (ts-node from this repository: the workspace has no node_modules/.bin)
    sim.resetCounts();
    const plan = await cli(["plan", "--app", `${JSON.stringify(join(REPO, "node_modules", ".bin", "ts-node"))} --transpile-only all-rules.ts`, "--detailed-exitcode", "--format", "json"]);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    const json = JSON.parse(plan.stdout) as { rules: { constructPath: string; action: string }[] };
    expect(json.rules.filter((r) => r.action !== "skip")).toHaveLength(6);
    expect(json.rules.every((r) => r.constructPath.startsWith("alert-rules/"))).toBe(true);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("--rule imports the named rules only and prints to stdout; an unknown rule is an error", async () => {
    const one = await cli(["import", "--rule", RULES.finance, "--rule", RULES.departing]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`ruleId: "${RULES.finance}"`);
    expect(one.stdout).toContain("Departing Employee - Exfiltration");
    expect(one.stdout).not.toContain(RULES.engineering);
    expect(one.stderr).toMatch(/Imported 2 rules: 1 declared, 1 as comments/);

    const unknown = await cli(["import", "--rule", "no-such-rule", "--out", "unknown.ts"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no-such-rule");
    expect(() => readFileSync(join(dir, "unknown.ts"))).toThrow();
  });

  it("aliases with quotes, backslashes, ${ and comment markers survive the round trip", async () => {
    // given aliases that need escaping in a TypeScript string literal
    sim.setUsers(RULES.sales, [
      { userIdFromAuthority: "u-1", userAliasList: ['quote"d@example.com', "back\\slash@example.com", "${process.exit(1)}@example.com"] },
      { userIdFromAuthority: "u-2", userAliasList: ["*/ // end@example.com"] },
    ]);
    const imported = await cli(["import", "--rule", RULES.sales, "--out", "rule-user-lists.ts"]);
    expect(imported.code).toBe(0);
    const plan = await cli(["plan", "--detailed-exitcode"]);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
  });

  it("--help names every flag; bad usage exits 1", async () => {
    const help = await cli(["import", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of ["--rule", "--all", "--out", "--function-name"]) expect(help.stdout).toContain(flag);
    expect((await cli(["import"])).code).toBe(1);
    expect((await cli(["import", "--all", "--rule", RULES.finance])).code).toBe(1);
  });
});
