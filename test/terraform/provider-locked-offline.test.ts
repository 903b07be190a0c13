/**
 * The provider locked to its job and the provider offline (docs/provider.md), with real Terraform:
 * with ALERT_RULE_USERS_PROVIDER_LOCKED=1, `url`, `token` and `token_command` in the provider block
 * each fail the plan with one sentence, and nothing reaches the service; with
 * ALERT_RULE_USERS_PROVIDER_OFFLINE=1 and no connection at all, a plan shows the configuration as
 * declared (computed attributes known after apply), reads nothing, and an apply writes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, runCommand } from "../support/cli";
import { RULES } from "../support/sample";
import { MINUTES, explain, terraform } from "./support";

const TOKEN = "locked-provider-token-4b1e";
const sim = useSimulator({ token: TOKEN });
let dir: string;
let env: NodeJS.ProcessEnv;

const config = (provider: string) =>
  `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {\n${provider}}\n\n` +
  `resource "alertrules_rule_user_list" "engineering" {\n  rule_id = ${JSON.stringify(RULES.engineering)}\n  mode    = "additive"\n  users = {\n    "9102" = { aliases = ["alice@example.com"] }\n  }\n}\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertrules-locked-"));
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  env = { PATH: process.env["PATH"], HOME: dir, TF_CLI_CONFIG_FILE: join(dir, "terraform.rc"), TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  const install = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, env });
  if (install.code !== 0) throw new Error(explain("provider install", install));
  writeFileSync(join(dir, "main.tf"), config(""));
  const init = await terraform(["init", "-input=false", "-no-color"], dir, env);
  if (init.code !== 0) throw new Error(explain("terraform init", init));
}, 5 * MINUTES);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a locked provider (ALERT_RULE_USERS_PROVIDER_LOCKED=1)", () => {
  const connection = () => ({ ...env, ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId, ALERTS_API_TOKEN: TOKEN, ALERT_RULE_USERS_PROVIDER_LOCKED: "1" });

  it.each([
    ["url", `  url = "http://127.0.0.1:9"\n`, "remove url from the provider block; the endpoint comes from ALERTS_API_URL in the job's environment."],
    ["token", `  token = "another-token"\n`, "remove token from the provider block; the token comes from ALERTS_API_TOKEN in the job's environment."],
    ["token_command", `  token_command = "echo another-token"\n`, "remove token_command from the provider block; a token command comes from ALERTS_API_TOKEN_COMMAND in the job's environment."],
  ])("%s in the provider block fails the plan with one sentence, and nothing reaches the service", async (name, block, sentence) => {
    // given
    writeFileSync(join(dir, "main.tf"), config(block));
    const before = sim.requestLog().length;
    // when
    const plan = await terraform(["plan", "-input=false", "-no-color"], dir, connection());
    // then
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${name} is not allowed in a locked provider`);
    expect(plan.stderr.replace(/\s+/g, " ")).toContain(sentence);
    expect(sim.requestLog().length).toBe(before);
  });

  it("with the connection from the environment only, plans as usual", async () => {
    writeFileSync(join(dir, "main.tf"), config(""));
    const plan = await terraform(["plan", "-input=false", "-no-color", "-detailed-exitcode"], dir, connection());
    expect(plan.code === 2 ? "2" : explain("plan", plan)).toBe("2");
    expect(plan.stdout).toContain("alice@example.com");
  });
});

describe("an offline provider (ALERT_RULE_USERS_PROVIDER_OFFLINE=1)", () => {
  it("plans the configuration as declared with no connection (computed attributes known after apply), and an apply writes nothing", async () => {
    writeFileSync(join(dir, "main.tf"), config(""));
    const offline = { ...env, ALERT_RULE_USERS_PROVIDER_OFFLINE: "1", ALERT_RULE_USERS_PROVIDER_LOCKED: "1" };
    const before = sim.requestLog().length;
    const plan = await terraform(["plan", "-input=false", "-no-color", "-out=offline.tfplan"], dir, offline);
    if (plan.code !== 0) throw new Error(explain("offline plan", plan));
    expect(plan.stdout).toContain('+ rule_id                 = "a33e7c21');
    expect(plan.stdout).toMatch(/\+ list_type\s+= \(known after apply\)/);
    const show = await terraform(["show", "-json", "offline.tfplan"], dir, offline);
    const values = (JSON.parse(show.stdout) as { planned_values: { root_module: { resources: { values: Record<string, unknown> }[] } } }).planned_values.root_module.resources[0]!.values;
    // users is planned exactly as written (a dynamic value: no key added)
    expect(values["users"]).toEqual({ "9102": { aliases: ["alice@example.com"] } });
    const apply = await terraform(["apply", "-input=false", "-no-color", "offline.tfplan"], dir, offline);
    expect(apply.code).toBe(1);
    expect(apply.stderr.replace(/\s+/g, " ")).toContain("The alertrules provider is offline (ALERT_RULE_USERS_PROVIDER_OFFLINE=1): it contacts no service and applies nothing.");
    expect(sim.requestLog().length).toBe(before);
  });
});
