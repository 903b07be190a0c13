/**
 * The HCL project's apply-on-merge and drift workflows (examples/github-actions-hcl/apply.yml and
 * drift.yml), run step by step on this machine (test/ci/workflow-runner.ts) against the simulator,
 * with a token and a plan key planted in the secrets (issue 41). A pull request whose
 * configuration adds a user and outputs `file("/proc/self/environ")` and its `base64encode` (a
 * `templatefile` of it and a precondition's `error_message`: hcl-workflow-run.test.ts) is
 * planned by plan.yml (declarations job without a secret, plan job from the base), merged, and
 * applied on the push by apply.yml: the reviewed plan (signed) is applied, the lists change, and neither secret is in the apply report artifact, the declarations or a
 * request to another host. drift.yml on a schedule then finds a user removed in the console: it
 * opens one issue with the CLI's rendering and fails, the secrets in neither the issue nor an
 * artifact. Needs terraform on PATH and the build (dist/).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { explain, secretFoundIn, startListener, type Listener } from "../ci/planted-token";
import { filesUnder, loadWorkflow, runWorkflow, type RunEvent, type RunResult } from "../ci/workflow-runner";
import { mainTf, userLine } from "./hcl-workflow-config";

const TOKEN = "planted-merge-secret-2b7d94e1c06f3a85";
const PLAN_KEY = "planted-merge-plan-key-6f19a0d3e82c4b71";
const sim = useSimulator({ token: TOKEN });
const VERSION = "0.1.0";
const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };
const NEW_USER = { userId: "9500", alias: "merged.person@example.com" };

let dir: string;
let listener: Listener;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "aru-hcl-merge-"));
  listener = await startListener();
});

afterAll(async () => {
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A repository tree: package.json and its lock at the root, the configuration in alert-rules/. */
function tree(name: string, main: string): string {
  const root = join(dir, name);
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "lists", private: true, dependencies: { "alert-rule-users": VERSION } }),
    "package-lock.json": JSON.stringify({
      lockfileVersion: 3,
      packages: { "": {}, "node_modules/alert-rule-users": { version: VERSION, resolved: `https://registry.npmjs.org/alert-rule-users/-/alert-rule-users-${VERSION}.tgz` } },
    }),
    ".gitignore": "node_modules/\n",
    "alert-rules/main.tf": main,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const fmt = spawnSync("terraform", ["fmt", "-recursive", root], { encoding: "utf8" });
  if (fmt.status !== 0) throw new Error(`terraform fmt: ${fmt.stderr}`);
  return root;
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();

/** Commits the tree and gives it an origin whose main is that commit (as the push's checkout has); returns the commit. */
function mergedRepository(root: string): string {
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "merge #41");
  execFileSync("git", ["clone", "-q", "--bare", root, `${root}.origin.git`]);
  git(root, "remote", "add", "origin", `${root}.origin.git`);
  return git(root, "rev-parse", "HEAD");
}

function event(extra: Partial<RunEvent> & Pick<RunEvent, "head">): RunEvent {
  const home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  return {
    base: extra.head,
    vars: { ALERTS_API_URL: sim.url, ALERTS_TENANT_ID: sim.tenantId },
    secrets: { ALERTS_API_TOKEN: TOKEN, ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY },
    env: { PATH: process.env["PATH"], HOME: home, CHECKPOINT_DISABLE: "1", npm_config_cache: join(home, "npm-cache"), ...GIT_ENV },
    ...extra,
  };
}

function expectNoSecretLeft(result: RunResult): void {
  expect(secretFoundIn(result, listener.received, TOKEN)).toEqual([]);
  expect(secretFoundIn(result, listener.received, PLAN_KEY)).toEqual([]);
}

const aliasesOf = (ruleId: string) => (sim.rule(ruleId)?.users ?? []).flatMap((u) => u.userAliasList).sort();

describe("the HCL apply-on-merge and drift workflows, run step by step with a planted token and plan key", () => {
  const outputs = [
    'output "x" {\n  value = file("/proc/self/environ")\n}',
    'output "y" {\n  value = base64encode(file("/proc/self/environ"))\n}',
  ].join("\n\n");
  let merged: string;
  let mergedSha: string;
  let planRun: RunResult;

  beforeAll(async () => {
    const base = tree("base", mainTf());
    const pr = tree("pr", mainTf([userLine(NEW_USER.userId, NEW_USER.alias)], { extra: outputs }));
    planRun = await runWorkflow(loadWorkflow("examples/github-actions-hcl/plan.yml", "alert-rules"), event({ head: pr, base }));
    merged = tree("merged", mainTf([userLine(NEW_USER.userId, NEW_USER.alias)], { extra: outputs }));
    mergedSha = mergedRepository(merged);
  });

  it("apply.yml on the merge's push: the reviewed plan of the pull request is applied from the declarations of the pushed commit; no secret in any artifact or request elsewhere", async () => {
    // given the pull request's plan run: planned, commented, its saved plan uploaded
    expect(`${JSON.stringify(planRun.jobs)}\n${explain(planRun)}`).toMatch(/^\{"declarations":"success","plan":"success"\}/);
    expect(planRun.comments[0]).toContain(NEW_USER.alias);
    expect(aliasesOf(RULES.engineering)).not.toContain(NEW_USER.alias);
    // when the merge is pushed
    const result = await runWorkflow(
      loadWorkflow("examples/github-actions-hcl/apply.yml", "alert-rules"),
      event({
        name: "push",
        head: merged,
        headSha: mergedSha,
        earlierArtifacts: planRun.artifacts,
        rest: {
          repos: {
            listPullRequestsAssociatedWithCommit: () =>
              Promise.resolve({ data: [{ number: 41, merged_at: "2026-11-27T06:00:00Z", merge_commit_sha: mergedSha, head: { sha: "a".repeat(40) } }] }),
          },
          actions: { listWorkflowRuns: () => Promise.resolve({ data: { workflow_runs: [{ id: 7 }] } }) },
        },
      }),
    );
    // then the reviewed plan was applied, from the base of a push (no pull-request tree)
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"declarations":"success","apply":"success"\}/);
    expect(result.checkouts).toEqual({ declarations: "head", apply: "head" });
    expect(aliasesOf(RULES.engineering)).toContain(NEW_USER.alias);
    expect(Object.keys(result.artifacts).sort()).toEqual(["alert-rule-users-apply-report", "alert-rule-users-declarations"]);
    expect(filesUnder(result.artifacts["alert-rule-users-apply-report"]!).map((f) => basename(f.path)).sort()).toEqual(["apply-report.json", "apply-report.md"]);
    expectNoSecretLeft(planRun);
    expectNoSecretLeft(result);
  });

  it("drift.yml on a schedule: a user removed in the console opens one issue with the CLI's rendering, the job fails; no secret in the issue or an artifact", async () => {
    // given a user removed in the console
    const rule = sim.rule(RULES.engineering)!;
    sim.setUsers(
      RULES.engineering,
      rule.users.filter((u) => !u.userAliasList.includes(NEW_USER.alias)).map((u) => ({ userIdFromAuthority: u.userIdFromAuthority, userAliasList: [...u.userAliasList] })),
    );
    // when the drift workflow runs
    const result = await runWorkflow(loadWorkflow("examples/github-actions-hcl/drift.yml", "alert-rules"), event({ name: "schedule", head: merged, headSha: mergedSha }));
    // then it found the drift, said so in one issue and failed, applying nothing
    expect(`${JSON.stringify(result.jobs)}\n${explain(result)}`).toMatch(/^\{"declarations":"success","drift":"failure"\}/);
    expect(result.steps.find((s) => s.step === "Plan")?.code).toBe(0);
    expect(result.comments).toHaveLength(1);
    expect(result.comments[0]).toContain("The live lists differ from the configuration");
    expect(result.comments[0]).toContain(NEW_USER.alias);
    expect(aliasesOf(RULES.engineering)).not.toContain(NEW_USER.alias);
    expectNoSecretLeft(result);
  });
});
