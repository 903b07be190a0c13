/**
 * The Terraform path without Terraform: synthesize, evaluate the null_resource's local-exec
 * provisioner the way Terraform would (self.triggers substituted, template escapes resolved) and
 * run its command in the stack's working directory, from a project that depends on the package.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, REPO, connectionEnv, listing, runCli, runCommand, workspace } from "../support/cli";
import type { StackDecl, Workspace } from "../support/cli";
import { FINANCE_NAME, RULES } from "../support/sample";

const TOKEN = "local-exec-token-5e4d3c2b1a";

interface NullResource {
  triggers: Record<string, string>;
  provisioner: Array<{ "local-exec": { command: string; environment: Record<string, string> } }>;
}

/** Terraform's template evaluation of a literal string: `$${` and `%%{` are escapes. */
const unescape = (s: string) => s.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");

/** Evaluates a provisioner string: `${self.triggers.NAME}` becomes the trigger's value. */
function evaluate(template: string, triggers: Record<string, string>): string {
  return template.replace(/\$\$\{|%%\{|\$\{self\.triggers\.([A-Za-z0-9_]+)\}/g, (match, name: string | undefined) => {
    if (match === "$${") return "${";
    if (match === "%%{") return "%{";
    const value = triggers[name!];
    if (value === undefined) throw new Error(`the provisioner refers to a missing trigger ${name}`);
    return unescape(value);
  });
}

const sim = useSimulator({ token: TOKEN }, { perTest: true });
let ws: Workspace;

/** The workspace as a project that installed alert-rule-users: node_modules/.bin/alert-rule-users. */
function installPackage(dir: string): void {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "infra", version: "1.0.0", private: true }));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(REPO, join(dir, "node_modules", "alert-rule-users"));
  const shim = join(dir, "node_modules", ".bin", "alert-rule-users");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
}

async function synthAndRunProvisioners(stacks: StackDecl[], credentials: NodeJS.ProcessEnv = connectionEnv(sim)) {
  ws.write(stacks);
  const synth = await runCli(["plan"], { cwd: ws.dir, env: connectionEnv(sim) });
  expect(synth.stderr).toBe("");
  const results = [];
  for (const stack of stacks) {
    const stackDir = join(ws.dir, "cdktf.out", "stacks", stack.name);
    const tf = JSON.parse(readFileSync(join(stackDir, "cdk.tf.json"), "utf8"));
    for (const resource of Object.values<NullResource>(tf.resource.null_resource)) {
      const exec = resource.provisioner[0]!["local-exec"];
      const environment = Object.fromEntries(
        Object.entries(exec.environment).map(([k, v]) => [k, evaluate(v, resource.triggers)]),
      );
      const command = evaluate(exec.command, resource.triggers);
      const run = await runCommand("/bin/sh", ["-c", command], {
        cwd: stackDir,
        env: { ...credentials, ...environment },
      });
      results.push({ command, ...run });
    }
  }
  return results;
}

const aliasesOf = (ruleId: string) => listing(sim, ruleId);

beforeEach(() => {
  ws = workspace([]);
  installPackage(ws.dir);
});

afterEach(() => {
  ws.cleanup();
});

describe("the local-exec provisioner", () => {
  it("converges its rule, including a rebuild, with the default command", async () => {
    // given two lists, one on a rule with entries without IDs
    const [first, second] = await synthAndRunProvisioners([
      {
        name: "rules",
        lists: [
          { id: "research", props: { ruleId: RULES.research, users: [{ userId: "8001", aliases: ["Maria.Santos@example.com", "visiting.scientist@example.com", "lab.intern@example.com"] }] } },
          { id: "legal", props: { ruleName: "Legal hold file type mismatch", mode: "additive", users: [{ userId: "9", aliases: ["$${weird}%{name}@example.com"] }] } },
        ],
      },
    ]);
    // then each command is the CLI's apply for one rule, and each converged
    expect(first!.command).toBe("npx --no -- alert-rule-users apply --from-env --auto-approve");
    expect(first!.code).toBe(0);
    expect(second!.code).toBe(0);
    expect(aliasesOf(RULES.research)).toEqual(["8001:Maria.Santos@example.com,lab.intern@example.com,visiting.scientist@example.com"]);
    expect(aliasesOf(RULES.legal)).toContain("9:$${weird}%{name}@example.com");
    // and the token was never printed
    for (const r of [first!, second!]) expect(r.stdout + r.stderr).not.toContain(TOKEN);
    // and a plan afterwards shows no changes
    expect((await runCli(["plan", "--skip-synth", "--detailed-exitcode"], { cwd: ws.dir, env: connectionEnv(sim) })).code).toBe(0);
  });

  it("inherits ALERTS_API_TOKEN_COMMAND from the environment of terraform apply, like the other connection variables", async () => {
    // given terraform apply run with a token command instead of ALERTS_API_TOKEN
    const { ALERTS_API_TOKEN: _unused, ...noToken } = connectionEnv(sim);
    void _unused;
    const credentials = {
      ...noToken,
      ALERTS_API_TOKEN_COMMAND: `"${process.execPath}" "${CLI}" simulator token --url ${sim.url}`,
      ALERTS_CLIENT_SECRET: TOKEN,
    };
    sim.resetCounts();
    // when the provisioner runs
    const [only] = await synthAndRunProvisioners(
      [{ name: "rules", lists: [{ id: "legal", props: { ruleId: RULES.legal, mode: "additive", users: [{ userId: "77", aliases: ["minted@example.com"] }] } }] }],
      credentials,
    );
    // then it converged with a token the command minted, and printed neither it nor the client secret
    expect(only!.code).toBe(0);
    expect(aliasesOf(RULES.legal)).toContain("77:minted@example.com");
    const applied = sim.requestLog().filter((r) => r.operation !== "oauth-token" && r.tokenSerial !== undefined);
    expect(applied.length).toBeGreaterThan(0);
    expect(sim.mintedTokens()).toBe(1);
    expect(only!.stdout + only!.stderr).not.toContain(TOKEN);
  });

  it("keeps the mass-removal guard unless the construct sets allowMassRemoval", async () => {
    const emptied = (allowMassRemoval: boolean): StackDecl[] => [
      { name: "rules", lists: [{ id: "finance", props: { ruleId: RULES.finance, users: [], allowMassRemoval } }] },
    ];
    const [refused] = await synthAndRunProvisioners(emptied(false));
    expect(refused!.code).toBe(1);
    expect(refused!.stderr).toMatch(/allowMassRemoval/);
    expect(sim.rule(RULES.finance)!.users).toHaveLength(2);

    const [allowed] = await synthAndRunProvisioners(emptied(true));
    expect(allowed!.code).toBe(0);
    expect(sim.rule(RULES.finance)!.users).toEqual([]);
  });

  it("refuses a list that violates its RuleUserListPolicy, as plan does, and sends nothing", async () => {
    // given a policy on the stack that the list breaks (an alias outside the allowed domain)
    const before = aliasesOf(RULES.finance);
    sim.resetCounts();
    const [result] = await synthAndRunProvisioners([
      {
        name: "rules",
        policies: [{ id: "guardrails", props: { allowedAliasDomains: ["example.com"] } }],
        lists: [{ id: "finance", props: { ruleId: RULES.finance, users: [{ userId: "7", aliases: ["someone@elsewhere.test"] }] } }],
      },
    ]);
    // then the provisioner fails naming the policy and the alias, and no write reached the service
    expect(result!.code).toBe(1);
    expect(result!.stdout + result!.stderr).toMatch(/allowedAliasDomains/);
    expect(result!.stdout + result!.stderr).toMatch(/someone@elsewhere\.test/);
    expect(Object.keys(sim.requestCounts()).filter((op) => !op.startsWith("query"))).toEqual([]);
    expect(aliasesOf(RULES.finance)).toEqual(before);
  });

  it("refuses one rule declared by ID in one stack and by name in another, in both provisioners, naming both, and sends nothing", async () => {
    // given finance declared twice: by ID in stack one, by its name in stack two (only the service can tell)
    const before = aliasesOf(RULES.finance);
    sim.resetCounts();
    const results = await synthAndRunProvisioners([
      { name: "one", lists: [{ id: "finance", props: { ruleId: RULES.finance, users: [{ userId: "7", aliases: ["seven@example.com"] }] } }] },
      { name: "two", lists: [{ id: "finance-by-name", props: { ruleName: FINANCE_NAME, users: [{ userId: "8", aliases: ["eight@example.com"] }] } }] },
    ]);
    // then each provisioner fails, naming both constructs, and no write reached the service
    expect(results.map((r) => r.code)).toEqual([1, 1]);
    for (const result of results) {
      expect(result.stdout + result.stderr).toContain("is declared by 2 RuleUserList constructs");
      expect(result.stdout + result.stderr).toContain("one/finance");
      expect(result.stdout + result.stderr).toContain("two/finance-by-name");
    }
    expect(Object.keys(sim.requestCounts()).filter((op) => !op.startsWith("query"))).toEqual([]);
    expect(aliasesOf(RULES.finance)).toEqual(before);
  });

  it("reports a skipped system rule and sends nothing", async () => {
    sim.resetCounts();
    const [result] = await synthAndRunProvisioners([
      { name: "rules", lists: [{ id: "hre", props: { ruleId: RULES.highRisk, users: [{ userId: "1", aliases: ["x@example.com"] }] } }] },
    ]);
    expect(result!.code).toBe(0);
    expect(result!.stdout).toMatch(/skipped/);
    const counts = sim.requestCounts();
    expect(Object.keys(counts).filter((op) => !op.startsWith("query"))).toEqual([]);
  });
});
