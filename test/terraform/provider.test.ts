/**
 * The native provider with real Terraform (docs/provider.md), against the simulator: HCL written by
 * hand, `alert-rule-users provider install` into the directory's implied local mirror, offline
 * `terraform init`, then what a team does over weeks: apply, plan empty, a change in the console
 * seen as an in-place update and repaired, refusals at plan time, import, the data source,
 * destroy keep and clear, and no token anywhere Terraform writes. Run by `npm run test:terraform`.
 * The tests run in order on one tenant and one state, each starting from what the one before left.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, runCommand } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { MINUTES, explain, providerTestEnv, tfIn, type Tf } from "./support";
import { isWrite } from "../support/write-operations";

const TOKEN = "provider-e2e-token-5d2a77c1";
const sim = useSimulator({ token: TOKEN });
let dir: string;
let env: NodeJS.ProcessEnv;

const writes = (): string[] => sim.requestLog().filter((e) => isWrite(e.operation)).map((e) => e.operation);

function hcl(users: ReadonlyArray<{ userId: string; aliases: readonly string[]; expiresAt?: string }>): string {
  return users
    .map((u) => `    ${JSON.stringify(u.userId)} = { aliases = ${JSON.stringify(u.aliases)}${u.expiresAt === undefined ? "" : `, expires_at = ${JSON.stringify(u.expiresAt)}`} }`)
    .join("\n");
}

/** The configuration of the directory: the provider and the resources given. */
function configure(resources: string): void {
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {}\n\n${resources}\n`,
  );
}

/** The engineering rule's users as the configuration writes them: one user's aliases in capitals (the live list has them in lower case). */
const DECLARED = ENGINEERING_USERS.map((u, i) => (i === 0 ? { ...u, aliases: u.aliases.map((a) => a.toUpperCase()) } : u));

const engineering = (users: string, extra = "") => `resource "alertrules_rule_user_list" "engineering" {\n  rule_id = ${JSON.stringify(RULES.engineering)}\n${extra}  users = {\n${users}\n  }\n}\n`;

const tfRun = tfIn({ cwd: () => dir, env: () => env, noColor: true });
/** terraform in the test's folder; any exit code but `expected` (0 unless given) fails the test. */
const tf: Tf = (args, expected = 0, extraEnv) => tfRun(args, expected, extraEnv);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertrules-provider-"));
  // A CLI configuration without provider_installation: Terraform then uses the implied local mirror.
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  env = providerTestEnv(dir, sim, TOKEN);
  const installed = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, env, timeoutMs: 2 * MINUTES });
  if (installed.code !== 0) throw new Error(explain("alert-rule-users provider install", installed));
}, 3 * MINUTES);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the alertrules provider under real Terraform", () => {
  it("initializes offline from the implied local mirror and applies a list; the next plan is empty", async () => {
    configure(engineering(hcl(DECLARED)));
    const init = await tf(["init"]);
    expect(init.stdout).toMatch(/Installing alert-rule-users\/alertrules/);
    await tf(["apply", "-auto-approve"]);
    // the live list already matched (aliases compare case-insensitively): nothing was written
    expect(writes()).toEqual([]);
    await tf(["plan", "-detailed-exitcode"], 0);
  }, 10 * MINUTES);

  it("shows a user added in the console as an in-place update naming the user, and repairs it with one call", async () => {
    const live = sim.rule(RULES.engineering)!.users;
    sim.setUsers(RULES.engineering, [...live, { userIdFromAuthority: "31337", userAliasList: ["mallory@example.com"] }]);
    const plan = await tf(["plan", "-detailed-exitcode"], 2);
    expect(plan.stdout).toMatch(/~ resource "alertrules_rule_user_list" "engineering"/);
    expect(plan.stdout).toMatch(/update in-place/);
    expect(plan.stdout).toMatch(/31337/);
    expect(plan.stdout).toMatch(/mallory@example\.com/);
    expect(plan.stdout).not.toMatch(/must be replaced/);
    sim.resetCounts();
    await tf(["apply", "-auto-approve"]);
    expect(writes()).toEqual(["remove-users"]);
    expect(sim.rule(RULES.engineering)!.users.map((u) => u.userIdFromAuthority)).not.toContain("31337");
    await tf(["plan", "-detailed-exitcode"], 0);
  }, 10 * MINUTES);

  it("refuses a mass removal at plan time and sends nothing", async () => {
    configure(engineering(""));
    sim.resetCounts();
    const plan = await tf(["plan"], 1);
    expect(plan.stderr).toMatch(/Mass removal refused/);
    expect(plan.stderr).toMatch(/allow_mass_removal/);
    expect(writes()).toEqual([]);
  }, 10 * MINUTES);

  it("refuses an unknown rule and two resources for one rule at plan time", async () => {
    configure(
      engineering(hcl(DECLARED)) +
        `resource "alertrules_rule_user_list" "ghost" {\n  rule_name = "No such rule"\n  users = {}\n}\n`,
    );
    const unknown = await tf(["plan"], 1);
    expect(unknown.stderr).toMatch(/No such rule/);
    configure(
      engineering(hcl(DECLARED)) +
        `resource "alertrules_rule_user_list" "finance_by_id" {\n  rule_id = ${JSON.stringify(RULES.finance)}\n  users = {}\n  allow_mass_removal = true\n}\n` +
        `resource "alertrules_rule_user_list" "finance_by_name" {\n  rule_name = ${JSON.stringify(FINANCE_NAME)}\n  users = {}\n  allow_mass_removal = true\n}\n`,
    );
    const twice = await tf(["plan"], 1);
    expect(twice.stderr).toMatch(/more than one alertrules_rule_user_list/);
    expect(writes()).toEqual([]);
  }, 10 * MINUTES);

  it("imports a list with an import block and -generate-config-out: the generated configuration plans no change", async () => {
    configure(engineering(hcl(DECLARED)) + `import {\n  to = alertrules_rule_user_list.finance\n  id = ${JSON.stringify(RULES.finance)}\n}\n`);
    await tf(["plan", "-generate-config-out=generated.tf"], [0, 2]);
    const generated = readFileSync(join(dir, "generated.tf"), "utf8");
    expect(generated).toMatch(/resource "alertrules_rule_user_list" "finance"/);
    const plan = await tf(["plan"]);
    expect(plan.stdout).toMatch(/1 to import, 0 to add, 0 to change, 0 to destroy/);
    await tf(["apply", "-auto-approve"]);
    await tf(["plan", "-detailed-exitcode"], 0);
  }, 10 * MINUTES);

  it("reads every rule with the alertrules_rules data source", async () => {
    writeFileSync(join(dir, "rules.tf"), `data "alertrules_rules" "all" {}\noutput "rule_names" {\n  value = [for r in data.alertrules_rules.all.rules : r.name]\n}\n`);
    await tf(["apply", "-auto-approve"]);
    const out = await tf(["output", "-json", "rule_names"]);
    const names = JSON.parse(out.stdout) as string[];
    expect(names).toContain(FINANCE_NAME);
    expect(names.length).toBe(sim.rules().length);
    rmSync(join(dir, "rules.tf"));
  }, 10 * MINUTES);

  it("never writes the token to state, plans or Terraform's trace log", async () => {
    const trace = await tf(["plan", "-out=tfplan"], [0, 2], { TF_LOG: "trace" });
    const show = await tf(["show", "-json", "tfplan"]);
    const state = readFileSync(join(dir, "terraform.tfstate"), "utf8");
    const files = readdirSync(dir).filter((f) => f.endsWith(".tfstate") || f.endsWith(".backup"));
    for (const text of [trace.stdout, trace.stderr, show.stdout, state, ...files.map((f) => readFileSync(join(dir, f), "utf8"))]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(Buffer.from(TOKEN).toString("base64"));
    }
  }, 10 * MINUTES);

  it("keeps the live list on destroy by default, and clears it with on_destroy = clear", async () => {
    configure(engineering(hcl(DECLARED)) + `resource "alertrules_rule_user_list" "legal" {\n  rule_id = ${JSON.stringify(RULES.legal)}\n  on_destroy = "clear"\n  users = {\n${hcl(sim.rule(RULES.legal)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList })))}\n  }\n}\n`);
    rmSync(join(dir, "generated.tf"), { force: true });
    await tf(["apply", "-auto-approve"]);
    const destroyed = await tf(["destroy", "-auto-approve"]);
    expect(destroyed.stdout + destroyed.stderr).toMatch(/left as it is/);
    expect(sim.rule(RULES.engineering)!.users.length).toBe(ENGINEERING_USERS.length);
    expect(sim.rule(RULES.legal)!.users).toEqual([]);
  }, 10 * MINUTES);
});
