/**
 * `import --format hcl` on a hostile tenant (issue 30), with real Terraform and the native provider
 * against the simulator: rule names with quotes, `${`, `%{`, newlines, Unicode, an HCL keyword, two
 * rules of one name; aliases with template sequences. The file passes `terraform fmt -check` and
 * `terraform validate`; `terraform plan` imports every editable list and changes no list (nothing
 * ran as an interpolation: the imported users equal the live ones) and sends no write. Run by
 * `npm run test:terraform`.
 * The list with entries without a user ID is declared `additive` (import-hcl.ts: authoritative
 * would rebuild it) and imported as `additive:ID`, so it too is imported with no change. Then the
 * apply imports them all, sends no write, and the next plan is empty.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TenantSeed } from "../../src/simulator";
import { useSimulator } from "../support/simulator";
import { REPO, connectionEnv, runCli, writesOf } from "../support/cli";
import { MINUTES, explain, tfIn } from "./support";
import { nativeTerraformEnv, requireProvider } from "./native-support";

const TOKEN = "native-import-token-55e1a0";
const HOSTILE_NAMES = ['Quote " and \\ backslash', "Inter${polation} %{ if true }x%{ endif }", "Two\nlines", "Überwachung 日本 🚨", "for", "null", "Same name", "Same name"];

function hostileTenant(): TenantSeed {
  const sample = JSON.parse(readFileSync(join(REPO, "examples", "sample-tenant.json"), "utf8")) as TenantSeed & { rules: Array<{ metadata: Record<string, unknown> }> };
  const template = sample.rules[0]!;
  const rules = HOSTILE_NAMES.map((name, i) => ({
    metadata: { ...template.metadata, id: `f0000000-0000-4000-9000-${String(i).padStart(12, "0")}`, observerRuleId: `f0000000-0000-4000-8000-${String(i).padStart(12, "0")}`, name },
    usersToAlertOn: "SPECIFIED_USERS",
    users: [{ userIdFromAuthority: `h${i}`, userAliasList: [`user${i}@example.com`, "a${b}%{c}@example.com", 'q"uote@example.com'] }],
  }));
  return { ...sample, rules: [...sample.rules, ...rules] } as TenantSeed;
}

const sim = useSimulator({ token: TOKEN, seed: hostileTenant() });
let dir: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

beforeAll(() => {
  requireProvider();
  dir = mkdtempSync(join(tmpdir(), "aru-native-import-"));
  env = nativeTerraformEnv(dir, connectionEnv(sim));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

const tf = tfIn({ cwd: () => dir, env: () => env, outputs });

it("writes a configuration Terraform takes as is, whose plan shows only imports and sends no write", async () => {
  // given
  const imported = await runCli(["import", "--all", "--format", "hcl", "--out", "lists.tf"], { cwd: dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
  if (imported.code !== 0) throw new Error(explain("alert-rule-users import --format hcl", imported));
  const install = await runCli(["provider", "install"], { cwd: dir, timeoutMs: MINUTES });
  expect(install.code).toBe(0);
  const editable = sim.rules().filter((r) => !r.metadata.isSystem && r.usersToAlertOn !== "ALL_USERS").length;
  // when
  const fmt = await tf(["fmt", "-check", "-diff", "-no-color"]);
  const init = await tf(["init", "-input=false", "-no-color"]);
  if (init.code !== 0) throw new Error(explain("terraform init", init));
  const validate = await tf(["validate", "-no-color"]);
  sim.resetCounts();
  const plan = await tf(["plan", "-input=false", "-no-color", "-detailed-exitcode", "-out=import.tfplan"]);
  // then
  expect(fmt.code).toBe(0);
  expect(validate.code).toBe(0);
  if (plan.code !== 2) throw new Error(explain("terraform plan", plan));
  expect(plan.stdout).toMatch(new RegExp(`Plan: ${editable} to import, 0 to add, 0 to change, 0 to destroy\\.`));
  const shown = JSON.parse((await tf(["show", "-json", "import.tfplan"])).stdout) as {
    resource_changes: Array<{ address: string; change: { actions: string[]; importing?: { id: string }; before: Record<string, unknown>; after: Record<string, unknown> } }>;
  };
  expect(shown.resource_changes).toHaveLength(editable);
  for (const { address, change } of shown.resource_changes) {
    expect(`${address} ${String(change.importing?.id !== undefined)}`).toBe(`${address} true`);
    expect(change.after["users"]).toEqual(change.before["users"]);
    expect(change.actions).toEqual(["no-op"]);
  }
  expect(writesOf(sim.requestCounts())).toEqual({});
  // and applied: imported, nothing written, then nothing to do
  const apply = await tf(["apply", "-input=false", "-no-color", "import.tfplan"]);
  if (apply.code !== 0) throw new Error(explain("terraform apply", apply));
  expect(writesOf(sim.requestCounts())).toEqual({});
  const again = await tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"]);
  expect(again.code).toBe(0);
}, 15 * MINUTES);
