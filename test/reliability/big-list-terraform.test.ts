/**
 * Big lists on the Terraform path (issue 11, item 7). The local-exec provisioner passes the users
 * to the CLI in its environment; Linux refuses an environment string over 128 KiB
 * (`argument list too long`, E2BIG), which a single users variable passed at about 2,000 users.
 * Here 10,000 users with 2 aliases each go through a real child process started with the
 * environment Terraform would give it (no Terraform needed: `self.<triggers>.<name>` substituted,
 * template escapes resolved), and synth refuses a list beyond what can be passed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { RuleUserList } from "../../src/constructs";
import { DECLARED_RULES_FILE, MAX_USERS_BYTES, encodeDeclaredRules, unescapeTemplate } from "../../src/core/declaration";
import { useSimulator } from "../support/simulator";
import { CLI, connectionEnv, writesOf } from "../support/cli";
import { RULES } from "../support/sample";

/** Linux's MAX_ARG_STRLEN: the longest one argument or `NAME=value` environment string may be. */
const MAX_ARG_STRLEN = 128 * 1024;

interface Carrier {
  triggers?: Record<string, string>;
  triggers_replace?: Record<string, string>;
  provisioner: Array<{ "local-exec": { command: string; environment: Record<string, string> } }>;
}

/** `count` users with realistic IDs and 2 aliases each (about 120 bytes of JSON a user). */
function people(count: number, aliasExtra = "") {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(5, "0");
    return { userId: `00u${n}a1b2c3d4e5f6g7`, aliases: [`firstname.lastname${n}${aliasExtra}@example.com`, `fl${n}${aliasExtra}@corp.example.com`] };
  });
}

/** The one list resource of a synthesized stack (null_resource or terraform_data). */
function onlyResource(stack: TerraformStack): { resource: Carrier; triggers: Record<string, string> } {
  const json = JSON.parse(Testing.synth(stack, true)) as { resource: Record<string, Record<string, Carrier>> };
  const [resource] = Object.values(json.resource).flatMap((byName) => Object.values(byName));
  if (resource === undefined) throw new Error("the stack synthesized no resource");
  return { resource, triggers: resource.triggers_replace ?? resource.triggers ?? {} };
}

/** The provisioner's environment and command as Terraform evaluates them. */
function evaluated(resource: Carrier, triggers: Record<string, string>) {
  const evaluate = (template: string) =>
    template.replace(/\$\$\{|%%\{|\$\{self\.(?:triggers|triggers_replace)\.([A-Za-z0-9_]+)\}/g, (match, name: string | undefined) => {
      if (match === "$${") return "${";
      if (match === "%%{") return "%{";
      const value = triggers[name!];
      if (value === undefined) throw new Error(`the provisioner refers to a missing trigger ${name}`);
      return unescapeTemplate(value);
    });
  const exec = resource.provisioner[0]!["local-exec"];
  return {
    command: evaluate(exec.command),
    environment: Object.fromEntries(Object.entries(exec.environment).map(([k, v]) => [k, evaluate(v)])),
  };
}

/** Runs `/bin/sh -c command` with exactly this environment (as Terraform's local-exec does). */
/**
 * The stack's working directory as Terraform runs the provisioner in it: the file of the app's rule
 * declarations (`alert-rule-users.rules.json`, written beside `cdk.tf.json` at synth) holding this
 * one list.
 */
function stackDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), "aru-big-stack-"));
  writeFileSync(join(dir, DECLARED_RULES_FILE), encodeDeclaredRules([{ constructPath: "big/everyone", ruleId: RULES.engineering, ruleName: null }]));
  return dir;
}

function runShell(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const sim = useSimulator({}, { perTest: true });

function declare(users: ReturnType<typeof people>) {
  const stack = new TerraformStack(Testing.app(), "big");
  new RuleUserList(stack, "everyone", {
    ruleId: RULES.engineering,
    resourceType: "terraform_data",
    users,
    cliCommand: `"${process.execPath}" "${CLI}"`,
  });
  return stack;
}

describe("a 10,000-user list on the Terraform path", () => {
  it("reaches the CLI through the provisioner's environment and converges the rule", async () => {
    // given an empty rule and 10,000 users with 2 aliases each, synthesized for terraform apply
    sim.setUsers(RULES.engineering, []);
    const users = people(10_000);
    const { resource, triggers } = onlyResource(declare(users));
    const { command, environment } = evaluated(resource, triggers);
    // then no environment string is near Linux's per-string limit
    for (const [name, value] of Object.entries(environment)) {
      expect(Buffer.byteLength(`${name}=${value}`)).toBeLessThan(MAX_ARG_STRLEN / 2 + 100);
    }
    // when the provisioner command runs in a real child process with that environment
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...connectionEnv(sim), ...environment };
    const stackDir = stackDirectory();
    try {
      const first = await runShell(command, env, stackDir);
      // then it applied the whole list
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      const live = sim.rule(RULES.engineering)!.users;
      expect(live).toHaveLength(10_000);
      expect(live.find((u) => u.userIdFromAuthority === users[9_999]!.userId)?.userAliasList.slice().sort()).toEqual(users[9_999]!.aliases.slice().sort());
      // and the same provisioner run again sends no write
      sim.resetCounts();
      const second = await runShell(command, env, stackDir);
      expect(second.code).toBe(0);
      expect(writesOf(sim.requestCounts())).toEqual({});
    } finally {
      rmSync(stackDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("keeps the triggers of an unchanged list byte-identical, whatever the declared order", () => {
    const users = people(10_000);
    expect(onlyResource(declare([...users].reverse())).triggers).toEqual(onlyResource(declare(users)).triggers);
  });
});

describe("a list too big for the provisioner's environment", () => {
  it("fails synth naming the construct path, the size, the limit and what to do", () => {
    // given 12,000 users whose aliases are long enough to pass 1.5 MiB of JSON
    const stack = declare(people(12_000, ".engineering-platform"));
    // when / then
    let message = "";
    try {
      Testing.synth(stack, true);
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(new RegExp(`\\[big/everyone\\] users: 12000 users make \\d+ bytes of JSON, over the ${MAX_USERS_BYTES} bytes \\(1\\.5 MiB\\)`));
    expect(message).toContain("Split the users across several rules");
  });
});
