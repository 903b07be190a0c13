/**
 * Real Terraform on a synthesized `terraform_data` stack (issue 12), against the simulator:
 * `terraform init` offline (the CLI configuration allows no provider download at all) and
 * `terraform apply -auto-approve`, whose local-exec provisioners run the built CLI
 * (`apply --from-env`). Run by `npm run test:terraform` (needs `terraform` on PATH; not part of
 * `npm test`). The tests run in order on one tenant and one Terraform state, as a team would:
 * each starts from what the one before left.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, listing, runCli, workspace, writesOf } from "../support/cli";
import type { CliResult, ListDecl, Workspace } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { MINUTES, explain, offlineTerraformEnv, provisionerRuns, terraform as runTerraform } from "./support";
const TOKEN = "terraform-e2e-token-7c1f09";
const STACK = "alert-rules";
const CLI_COMMAND = `"${process.execPath}" "${CLI}"`;

const sim = useSimulator({ token: TOKEN });
let ws: Workspace;
let tfEnv: NodeJS.ProcessEnv;

const stackDir = () => join(ws.dir, "cdktf.out", "stacks", STACK);

/** A RuleUserList carried by terraform_data, run by the built CLI. */
function list(id: string, props: Record<string, unknown>): ListDecl {
  return { id, props: { resourceType: "terraform_data", cliCommand: CLI_COMMAND, ...props } };
}

const engineering = (users: unknown[]) => list("engineering", { ruleId: RULES.engineering, users });
const finance = (users: unknown[]) => list("finance", { ruleName: "Finance file type mismatch watch", users });
// an alias with Terraform template sequences: Terraform must pass it through as written
const TEMPLATE_ALIAS = "a${weird}%{name}@example.com";
const legal = list("legal", { ruleId: RULES.legal, mode: "additive", users: [{ userId: "4242", aliases: ["counsel@example.com", TEMPLATE_ALIAS] }] });
const highRisk = list("high-risk", { ruleId: RULES.highRisk, users: [{ userId: "1", aliases: ["someone@example.com"] }] });

/** `count` generated users with 2 aliases each, the same ones for the same count. */
function people(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(5, "0");
    return { userId: `00u${n}x7k2m9q4w8`, aliases: [`first.last${n}@example.com`, `fl${n}@corp.example.com`] };
  });
}

const FINANCE_USERS = () =>
  sim.rule(RULES.finance)!.users.map((u) => ({ userId: u.userIdFromAuthority ?? "", aliases: u.userAliasList }));

/** Synthesizes the declarations with the CLI (`plan` runs the app), then `terraform init` offline. */
async function synthAndInit(lists: ListDecl[]): Promise<void> {
  ws.write([{ name: STACK, lists }]);
  const synthesized = join(stackDir(), "cdk.tf.json");
  rmSync(synthesized, { force: true });
  // plan's exit code may be 1 (a refusal it shows); what matters here is the synthesized stack
  const plan = await runCli(["plan"], { cwd: ws.dir, env: connectionEnv(sim), timeoutMs: 5 * MINUTES });
  if (!existsSync(synthesized)) throw new Error(explain("alert-rule-users plan (synth)", plan));
  const init = await terraform(["init", "-input=false", "-no-color"]);
  if (init.code !== 0) throw new Error(explain("terraform init", init));
}

function terraform(args: string[]): Promise<CliResult> {
  return runTerraform(args, stackDir(), tfEnv);
}

async function apply(): Promise<CliResult> {
  const result = await terraform(["apply", "-auto-approve", "-input=false", "-no-color"]);
  expect(result.stdout + result.stderr).not.toContain(TOKEN);
  return result;
}

/** The terraform_data addresses of the stack, by construct id (`engineering` → `terraform_data.engineering_resource_ABCD1234`). */
function addresses(): Record<string, string> {
  const json = JSON.parse(readFileSync(join(stackDir(), "cdk.tf.json"), "utf8")) as {
    resource: { terraform_data: Record<string, { "//": { metadata: { path: string } } }> };
  };
  return Object.fromEntries(
    Object.entries(json.resource.terraform_data).map(([name, r]) => [r["//"].metadata.path.split("/")[1]!, `terraform_data.${name}`]),
  );
}

async function planExitCode(): Promise<number | null> {
  return (await runCli(["plan", "--skip-synth", "--detailed-exitcode"], { cwd: ws.dir, env: connectionEnv(sim) })).code;
}

beforeAll(() => {
  ws = workspace([]);
  tfEnv = offlineTerraformEnv(ws.dir, connectionEnv(sim));
});

afterAll(() => ws?.cleanup());

describe("terraform apply of a terraform_data stack", () => {
  it("inits offline, converges every rule, skips the system rule, and leaves nothing to plan", async () => {
    // given an empty engineering rule to fill, finance as it is, an additive legal list and a system rule
    sim.setUsers(RULES.engineering, []);
    await synthAndInit([engineering(ENGINEERING_USERS), finance(FINANCE_USERS()), legal, highRisk]);
    expect(existsSync(join(stackDir(), ".terraform", "providers"))).toBe(false);
    // when
    sim.resetCounts();
    const result = await apply();
    // then
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Apply complete! Resources: 4 added, 0 changed, 0 destroyed.");
    expect(provisionerRuns(result.stdout)).toBe(4);
    expect(listing(sim, RULES.engineering)).toEqual(
      ENGINEERING_USERS.map((u) => `${u.userId}:${[...u.aliases].sort().join(",")}`).sort(),
    );
    expect(listing(sim, RULES.legal)).toContain(`4242:${TEMPLATE_ALIAS},counsel@example.com`);
    // the system rule: reported as skipped, nothing written to it
    expect(result.stdout).toMatch(/\(local-exec\):.*skipped/);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 2 }); // engineering and legal only
    expect(await planExitCode()).toBe(0);
  }, 10 * MINUTES);

  it("applies nothing for an unchanged declaration", async () => {
    // given the same declarations, synthesized again
    await synthAndInit([engineering(ENGINEERING_USERS), finance(FINANCE_USERS()), legal, highRisk]);
    sim.resetCounts();
    // when
    const result = await apply();
    // then no resource is replaced, no provisioner runs, and the service gets no request at all
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.");
    expect(provisionerRuns(result.stdout)).toBe(0);
    expect(sim.requestLog()).toEqual([]);
  }, 10 * MINUTES);

  it("re-applies only the rule whose declaration changed", async () => {
    // given one user fewer on engineering, the other lists as they were
    const fewer = ENGINEERING_USERS.slice(1);
    await synthAndInit([engineering(fewer), finance(FINANCE_USERS()), legal, highRisk]);
    const engineeringAddress = addresses()["engineering"]!;
    sim.resetCounts();
    // when
    const result = await apply();
    // then one resource is replaced and its provisioner alone ran
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
    expect(provisionerRuns(result.stdout)).toBe(1);
    expect(result.stdout).toContain(`${engineeringAddress} (local-exec): Executing:`);
    expect(listing(sim, RULES.engineering)).toEqual(fewer.map((u) => `${u.userId}:${[...u.aliases].sort().join(",")}`).sort());
    expect(Object.keys(writesOf(sim.requestCounts()))).toEqual(["remove-users"]);
    expect(await planExitCode()).toBe(0);
  }, 10 * MINUTES);

  it("fails the apply on the mass-removal guard, with its message in terraform's output, and sends no write", async () => {
    // given the finance list emptied without allowMassRemoval
    const before = listing(sim, RULES.finance);
    await synthAndInit([engineering(ENGINEERING_USERS.slice(1)), finance([]), legal, highRisk]);
    sim.resetCounts();
    // when
    const result = await apply();
    // then terraform fails, showing why and how to allow it
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain("mass-removal guard refused the plan");
    expect(output).toContain("set allowMassRemoval: true on the RuleUserList");
    expect(output).toMatch(/local-exec provisioner error/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.finance)).toEqual(before);
  }, 10 * MINUTES);

  it("applies a 2,500-user list", async () => {
    // given 2,500 users on engineering: the 3 it has and 2,497 more with 2 aliases each (finance declared as it is again)
    const many = [...ENGINEERING_USERS.slice(1), ...people(2_497)];
    await synthAndInit([engineering(many), finance(FINANCE_USERS()), legal, highRisk]);
    // (its users are over one environment variable's share, so Terraform passes them in chunks)
    const stackJson = JSON.parse(readFileSync(join(stackDir(), "cdk.tf.json"), "utf8")) as { resource: { terraform_data: Record<string, { triggers_replace: Record<string, string> }> } };
    const carried = stackJson.resource.terraform_data[addresses()["engineering"]!.replace("terraform_data.", "")]!.triggers_replace;
    expect(Number(carried["users_chunks"])).toBeGreaterThan(1);
    // when
    const result = await apply();
    // then
    if (result.code !== 0) throw new Error(explain("terraform apply", result));
    expect(sim.rule(RULES.engineering)!.users).toHaveLength(2_500);
    expect(await planExitCode()).toBe(0);
    // and applying again changes nothing
    sim.resetCounts();
    const again = await apply();
    expect(again.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.");
    expect(sim.requestLog()).toEqual([]);
  }, 10 * MINUTES);

  it("applies a 10,000-user list, 2 aliases each, and re-runs nothing after", async () => {
    // given engineering grown to 10,000 users (about 1.1 MiB of JSON in the provisioner's environment)
    const many = [...ENGINEERING_USERS.slice(1), ...people(9_997)];
    await synthAndInit([engineering(many), finance(FINANCE_USERS()), legal, highRisk]);
    // when
    const result = await apply();
    // then
    if (result.code !== 0) throw new Error(explain("terraform apply", result));
    expect(result.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
    expect(sim.rule(RULES.engineering)!.users).toHaveLength(10_000);
    expect(await planExitCode()).toBe(0);
    sim.resetCounts();
    const again = await apply();
    expect(again.stdout).toContain("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.");
    expect(sim.requestLog()).toEqual([]);
  }, 10 * MINUTES);
});
