/**
 * The `alert-rule-users/cdktn` entry (docs/contract.md §9.1): RuleUserList and RuleUserListPolicy for CDK
 * Terrain apps. The same JSON as the cdktf entry, `terraform_data` by default (there is no
 * `@cdktn/provider-null`); a cdktn app plans, applies and plans again with no changes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformStack as CdktnStack, Testing as CdktnTesting } from "cdktn";
import { TerraformStack as CdktfStack, Testing as CdktfTesting } from "cdktf";
import { RuleUserList as CdktnRuleUserList, RuleUserListPolicy as CdktnPolicy } from "../../src/constructs/cdktn";
import { RuleUserList as CdktfRuleUserList } from "../../src/constructs";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import { useSimulator } from "../support/simulator";
import { REPO, connectionEnv, listing, runCli, runCommand } from "../support/cli";
import { RULES } from "../support/sample";

interface Synthesized {
  provider?: unknown;
  terraform?: { required_providers?: unknown };
  resource: Record<string, Record<string, { triggers?: unknown; triggers_replace?: unknown; provisioner: unknown }>>;
}

const alice = { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] };

function cdktnSynth(props: ConstructorParameters<typeof CdktnRuleUserList>[2]): Synthesized {
  const stack = new CdktnStack(CdktnTesting.app(), "stack");
  new CdktnRuleUserList(stack, "watch", props);
  return JSON.parse(CdktnTesting.synth(stack, true)) as Synthesized;
}

function cdktfSynth(props: ConstructorParameters<typeof CdktfRuleUserList>[2]): Synthesized {
  const stack = new CdktfStack(CdktfTesting.app(), "stack");
  new CdktfRuleUserList(stack, "watch", props);
  return JSON.parse(CdktfTesting.synth(stack, true)) as Synthesized;
}

describe("RuleUserList from alert-rule-users/cdktn", () => {
  it("synthesizes terraform_data by default: the cdktf entry's JSON for that type, no provider", () => {
    // given the same list from each entry
    const props = { ruleId: "c3e0", users: [alice] };
    // then the cdktn default is the cdktf entry's terraform_data, byte for byte
    const cdktn = cdktnSynth(props);
    expect(Object.keys(cdktn.resource)).toEqual(["terraform_data"]);
    expect(cdktn).toEqual(cdktfSynth({ ...props, resourceType: "terraform_data" }));
    expect(cdktn.provider).toBeUndefined();
    expect(cdktn.terraform?.required_providers).toBeUndefined();
  });

  it("synthesizes a null_resource on request, with the cdktf entry's triggers and provisioner (Terraform installs hashicorp/null itself)", () => {
    const props = { ruleId: "c3e0", users: [alice], resourceType: "null_resource" as const };
    const cdktn = cdktnSynth(props);
    const cdktf = cdktfSynth(props);
    expect(cdktn.resource["null_resource"]).toEqual(cdktf.resource["null_resource"]);
    expect(cdktn.provider).toBeUndefined();
  });

  it("is read by decodeStack, with the policies of a RuleUserListPolicy from the same entry", () => {
    // given a cdktn stack with a list and a policy
    const stack = new CdktnStack(CdktnTesting.app(), "stack");
    new CdktnRuleUserList(stack, "watch", { ruleName: "Exfiltration", users: [alice] });
    new CdktnPolicy(stack, "guardrails", { maxUsers: 10 });
    CdktnTesting.synth(stack, true);
    // when
    const [list] = decodeStack("stack", JSON.parse(JSON.stringify(stack.toTerraform())));
    // then
    expect(list).toMatchObject({ constructPath: "stack/watch", ruleName: "Exfiltration", users: [{ userId: "9102" }] });
    expect(list!.policies).toEqual([expect.objectContaining({ path: "stack/guardrails", maxUsers: 10 })]);
  });

  it("validates props at synth with the construct path, as the cdktf entry", () => {
    const stack = new CdktnStack(CdktnTesting.app(), "prod");
    new CdktnRuleUserList(stack, "watch", { users: [] });
    expect(() => CdktnTesting.synth(stack, true)).toThrow("[prod/watch] ruleId/ruleName: neither is set");
  });
});

describe("a cdktn app, through the CLI", () => {
  const sim = useSimulator({}, { perTest: true });
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-cdktn-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("plans, applies, and plans again with no changes", async () => {
    // given a cdktn app that imports the package's ./cdktn export (resolved as a user's app would)
    const entry = require.resolve("alert-rule-users/cdktn", { paths: [REPO] });
    expect(entry).toBe(join(REPO, "dist", "src", "constructs", "cdktn.js"));
    writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
    // the legal rule's users as they are, and one more
    const users = [
      ...sim.rule(RULES.legal)!.users.map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })),
      { userId: "4242", aliases: ["counsel@example.com", "Counsel@legal.example.com"] },
    ];
    writeFileSync(
      join(dir, "app.js"),
      `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktn", { paths: [REPO] }))});
const { RuleUserList, RuleUserListPolicy } = require(${JSON.stringify(entry)});
const app = new App();
const stack = new TerraformStack(app, "terrain");
new RuleUserList(stack, "legal", { ruleId: ${JSON.stringify(RULES.legal)}, users: ${JSON.stringify(users)} });
new RuleUserListPolicy(stack, "guardrails", { maxUsers: 10 });
app.synth();
`,
    );
    const env = connectionEnv(sim);
    // when planned
    const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env });
    // then it shows the change
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("counsel@example.com");
    // when applied
    const apply = await runCli(["apply", "--auto-approve"], { cwd: dir, env });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(listing(sim, RULES.legal)).toContain("4242:Counsel@legal.example.com,counsel@example.com");
    // then a new plan has nothing to do
    const again = await runCli(["plan", "--detailed-exitcode"], { cwd: dir, env });
    expect(again.code).toBe(0);
  }, 240_000);
});

describe("the types of alert-rule-users/cdktn", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-cdktn-types-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(["node", "node16"])("resolve in a TypeScript app with moduleResolution %s (init writes node)", async (moduleResolution) => {
    // given an app that installed the package, cdktn and constructs
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(REPO, join(dir, "node_modules", "alert-rule-users"));
    for (const name of ["cdktn", "constructs"]) symlinkSync(join(REPO, "node_modules", name), join(dir, "node_modules", name));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: moduleResolution === "node" ? "commonjs" : "node16", moduleResolution, strict: true, noEmit: true, skipLibCheck: true }, include: ["main.ts"] }),
    );
    writeFileSync(
      join(dir, "main.ts"),
      `import { App, TerraformStack } from "cdktn";
import { RuleUserList, RuleUserListPolicy } from "alert-rule-users/cdktn";
import type { RuleUserListProps } from "alert-rule-users/cdktn";
const stack = new TerraformStack(new App(), "s");
const props: RuleUserListProps = { ruleId: "1", users: [], resourceType: "null_resource" };
new RuleUserList(stack, "x", props);
new RuleUserListPolicy(stack, "p", { maxUsers: 1 });
// @ts-expect-error resourceType is one of two names
new RuleUserList(stack, "y", { ruleId: "1", users: [], resourceType: "aws_instance" });
`,
    );
    // when type-checked
    const tsc = await runCommand(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { cwd: dir });
    // then
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 240_000);
});
