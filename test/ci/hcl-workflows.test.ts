/**
 * The workflows of an HCL project (examples/github-actions-hcl/, written by `init --hcl DIR
 * --workflows`, docs/provider-workflows.md), read as files: valid for GitHub (action-validator),
 * every `run:` block and ci.sh parse (bash -n) and pass shellcheck where it is installed; no job
 * needs Node.js or npm; the provider and the tool come through terraform init -lockfile=readonly of
 * the trusted tool directory; the pull request's half holds nothing; the trusted half runs on
 * workflow_run and reads the pull request's evaluation as data after checking which run, pull
 * request and head it belongs to; the merge applies a saved terraform plan held against the
 * reviewed plans. How they behave: test/terraform/team-ci-*.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../support/cli";
import { asBashFile, runBlocks } from "./run-blocks";

const DIR = join("examples", "github-actions-hcl");
const FILES = ["plan.yml", "review.yml", "apply.yml", "drift.yml"].map((f) => join(DIR, f));
const CI_SH = join(REPO, DIR, "alert-rule-users", "ci.sh");
const VALIDATOR = join(dirname(require.resolve("@action-validator/cli/package.json")), "cli.mjs");

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  environment?: string;
  needs?: string | string[];
  if?: string;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  permissions?: unknown;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  jobs: Record<string, Job>;
}

const load = (file: string) => parse(readFileSync(join(REPO, file), "utf8")) as Workflow;
const [PLAN, REVIEW, APPLY, DRIFT] = FILES as [string, string, string, string];
const scriptOf = (job: Job): string => job.steps.map((s) => s.run ?? "").join("\n");

describe("the workflows of an HCL project", () => {
  it.each(FILES)("%s is a valid workflow whose run: blocks parse, and pass shellcheck where it is installed", (file) => {
    const validation = spawnSync(process.execPath, [VALIDATOR, join(REPO, file)], { encoding: "utf8" });
    expect(`${validation.status} ${validation.stdout}${validation.stderr}`).toMatch(/^0 /);
    const dir = mkdtempSync(join(tmpdir(), "aru-hcl-workflows-"));
    const shellcheck = spawnSync("shellcheck", ["--version"]).status === 0;
    try {
      for (const [i, block] of runBlocks(file).entries()) {
        const script = join(dir, `block-${i}.sh`);
        writeFileSync(script, asBashFile(block));
        const syntax = spawnSync("bash", ["-n", script], { encoding: "utf8" });
        expect(`${block.where}: ${syntax.stderr}`).toBe(`${block.where}: `);
        if (shellcheck) {
          const lint = spawnSync("shellcheck", ["--shell=bash", "--severity=style", "--format=gcc", script], { encoding: "utf8" });
          expect(`${block.where}: ${lint.stdout}`).toBe(`${block.where}: `);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ci.sh parses, passes shellcheck where it is installed, and installs only through terraform init -lockfile=readonly", () => {
    expect(spawnSync("bash", ["-n", CI_SH], { encoding: "utf8" }).stderr).toBe("");
    if (spawnSync("shellcheck", ["--version"]).status === 0) expect(spawnSync("shellcheck", ["--severity=style", "--format=gcc", CI_SH], { encoding: "utf8" }).stdout).toBe("");
    const script = readFileSync(CI_SH, "utf8");
    const inits = script.match(/terraform init -[^\n]*/g) ?? [];
    expect(inits.length).toBeGreaterThanOrEqual(2);
    for (const init of inits) expect(init).toContain("-lockfile=readonly");
    expect(script).toContain('rm -rf terraform.d .terraform .terraformrc terraform.rc');
    expect(script).toContain("ALERT_RULE_USERS_PROVIDER_OFFLINE=1 ALERT_RULE_USERS_PROVIDER_LOCKED=1");
  });

  it.each(FILES)("%s needs neither Node.js nor npm: no setup-node, no npm, no node in any step", (file) => {
    const workflow = load(file);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(`${name}: ${job.steps.filter((s) => s.uses?.startsWith("actions/setup-node")).length}`).toBe(`${name}: 0`);
      expect(`${name}: ${scriptOf(job)}`).not.toMatch(/(^|[\s;&|(])(npm|npx|node) /m);
    }
  });

  it("plan.yml, the pull request's half: no secret and no variable but the mirror; its evaluation uploaded as data", () => {
    const workflow = load(PLAN);
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    expect(workflow.on["pull_request"]).toBeNull();
    expect(JSON.stringify(workflow)).not.toMatch(/secrets\.|vars\.ALERTS_/);
    const job = workflow.jobs["evaluate"]!;
    expect(job.environment).toBeUndefined();
    expect(scriptOf(job)).toContain('bash .github/alert-rule-users/ci.sh evaluate "$ALERT_RULES_DIR"');
    expect(job.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))?.with).toMatchObject({ name: "alert-rule-users-evaluation", path: "alert-rule-users-evaluation" });
  });

  it("review.yml, the trusted half: runs on the plan workflow's completion, checks the artifact's pull request and head first, and runs the pull request's configuration only where no secret is", () => {
    const workflow = load(REVIEW);
    expect(workflow.on).toEqual({ workflow_run: { workflows: ["alert-rule-users terraform plan"], types: ["completed"] } });
    expect(workflow.permissions).toEqual({});
    const check = workflow.jobs["check"]!;
    expect(check.environment).toBeUndefined();
    const script = String(check.steps.find((s) => s.uses?.startsWith("actions/github-script"))?.with?.["script"]);
    expect(script).toContain("github.rest.pulls.get");
    expect(script).toContain("pull.head.sha !== run.head_sha");
    expect(script).toContain('claimed?.headSha !== run.head_sha');
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const checkouts = job.steps.filter((s) => s.uses?.startsWith("actions/checkout"));
      const ofPullRequest = checkouts.some((s) => s.with?.["ref"] !== undefined || s.with?.["repository"] !== undefined);
      // the pull request's tree only where no secret is; the secrets only with the default branch's tree
      if (job.environment !== undefined) expect(`${name}: ${ofPullRequest}`).toBe(`${name}: false`);
      if (ofPullRequest) expect(`${name}: ${JSON.stringify(job).includes("secrets.")}`).toBe(`${name}: false`);
    }
    expect(workflow.jobs["evaluate"]!.environment).toBeUndefined();
    expect(scriptOf(workflow.jobs["plan"]!)).toContain('"$tool" plan --skip-synth --output evaluation/declarations --format markdown --out reviewed/plan.json --detailed-exitcode');
  });

  it("apply.yml: on pushes to main, in the tenant's apply group, terraform plan -out held against the reviewed plans, then terraform apply of that very plan", () => {
    const workflow = load(APPLY);
    expect(workflow.on["push"]).toMatchObject({ branches: ["main"] });
    expect(workflow.concurrency).toEqual({ group: "alert-rule-users-apply-${{ vars.ALERTS_TENANT_ID }}", "cancel-in-progress": false });
    const job = workflow.jobs["apply"]!;
    expect(job.environment).toBe("alert-rules");
    const plan = job.steps.find((s) => s.id === "plan")!;
    expect(plan.env?.["ALERT_RULE_USERS_REVIEWED_PLANS"]).toContain("reviewed");
    expect(plan.run).toMatch(/terraform plan [^\n]*-out="\$RUNNER_TEMP\/merge.tfplan"/);
    expect(job.steps.find((s) => s.id === "apply")?.run).toMatch(/terraform apply -input=false -no-color "\$RUNNER_TEMP\/merge.tfplan"\n?$/);
    expect(scriptOf(job)).not.toMatch(/-auto-approve|alert-rule-users apply/);
  });

  it("drift.yml: on a schedule, terraform plan -detailed-exitcode of the default branch without the state's lock, an issue, nothing applied", () => {
    const workflow = load(DRIFT);
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const script = scriptOf(workflow.jobs["drift"]!);
    expect(script).toMatch(/terraform plan [^\n]*-lock=false -detailed-exitcode/);
    expect(script).not.toMatch(/terraform apply/);
  });
});
