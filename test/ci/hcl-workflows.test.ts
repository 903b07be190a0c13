/**
 * The workflows of an HCL project (examples/github-actions-hcl/, written by `init --hcl DIR
 * --workflows`, docs/provider-workflows.md): valid for GitHub (action-validator), every `run:` block
 * parses (bash -n) and passes shellcheck where it is installed; the plan posts
 * `terraform plan -detailed-exitcode -out` and uploads the saved plan, the apply applies that saved
 * plan and nothing else, drift plans with -detailed-exitcode on a schedule; the secrets are only in
 * the environment of the steps that run terraform with the service, never in a job that runs the
 * pull request's code without a person's approval, never in a script.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../support/cli";
import { asBashFile, runBlocks } from "./run-blocks";

const FILES = ["plan.yml", "apply.yml", "drift.yml"].map((f) => join("examples", "github-actions-hcl", f));
const VALIDATOR = join(dirname(require.resolve("@action-validator/cli/package.json")), "cli.mjs");

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  env?: Record<string, string>;
  environment?: string;
  needs?: string;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  jobs: Record<string, Job>;
}

const load = (file: string) => parse(readFileSync(join(REPO, file), "utf8")) as Workflow;
const [PLAN, APPLY, DRIFT] = FILES as [string, string, string];

describe("the workflows of an HCL project", () => {
  it.each(FILES)("%s is a valid workflow whose run: blocks parse, and pass shellcheck where it is installed", (file) => {
    const validation = spawnSync(process.execPath, [VALIDATOR, join(REPO, file)], { encoding: "utf8" });
    expect(validation.status).toBe(0);
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

  it.each(FILES)("%s holds the secrets only in the environment of steps that run terraform, never in a script or a job's environment", (file) => {
    const workflow = load(file);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(`${name}: ${JSON.stringify(job.env ?? {})}`).not.toMatch(/secrets\./);
      for (const step of job.steps) {
        expect(step.run ?? "").not.toMatch(/secrets\.|ALERTS_API_TOKEN|--token/);
        expect(JSON.stringify(step.with ?? {})).not.toMatch(/secrets\./);
        const holdsSecret = JSON.stringify(step.env ?? {}).includes("secrets.");
        if (holdsSecret) {
          expect(step.run ?? "").toMatch(/terraform (plan|apply)/);
          expect(step.env?.["ALERTS_API_TOKEN"]).toBe("${{ secrets.ALERTS_API_TOKEN }}");
        }
      }
    }
  });

  it("plan: a check job without secrets first (local mirror only, fmt, validate); the plan job waits for approval, plans with -detailed-exitcode -out, comments and uploads the saved plan", () => {
    const workflow = load(PLAN);
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    const { check, plan } = workflow.jobs as { check: Job; plan: Job };
    expect(JSON.stringify(check)).not.toMatch(/secrets\./);
    expect(check.steps.map((s) => s.run ?? "").join("\n")).toMatch(/terraform init -backend=false[^]*terraform fmt -check[^]*terraform validate/);
    expect(plan.needs).toBe("check");
    expect(plan.environment).toBe("alert-rules-plan");
    const script = plan.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toContain("terraform plan -input=false -no-color -detailed-exitcode -out=tfplan");
    expect(script).toContain("npx --no -- alert-rule-users provider install");
    expect(script).toContain('include = ["registry.terraform.io/alert-rule-users/alertrules"]');
    expect(plan.steps.some((s) => s.uses?.startsWith("actions/github-script") && String(s.with?.["script"]).includes("<!-- alert-rule-users-terraform-plan -->"))).toBe(true);
    const upload = plan.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(upload.with?.["name"]).toBe("alert-rule-users-terraform-plan");
    expect(String(upload.with?.["path"])).toContain("tfplan");
    for (const job of [check, plan]) expect(job.steps.find((s) => s.run?.startsWith("npm ci"))?.run).toBe("npm ci --ignore-scripts");
  });

  it("apply: on pushes to main, in the tenant's apply group, applies the reviewed saved plan and never plans again", () => {
    const workflow = load(APPLY);
    expect(workflow.on["push"]).toMatchObject({ branches: ["main"] });
    expect(workflow.concurrency).toEqual({ group: "alert-rule-users-apply-${{ vars.ALERTS_TENANT_ID }}", "cancel-in-progress": false });
    const script = workflow.jobs["apply"]!.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toContain("terraform apply -input=false -no-color reviewed/tfplan");
    expect(script).not.toMatch(/terraform plan|-auto-approve/);
    const download = workflow.jobs["apply"]!.steps.find((s) => s.uses?.startsWith("actions/download-artifact"))!;
    expect(download.with?.["name"]).toBe("alert-rule-users-terraform-plan");
  });

  it("drift: on a schedule, terraform plan -detailed-exitcode, fails on drift, applies nothing", () => {
    const workflow = load(DRIFT);
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const script = workflow.jobs["drift"]!.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toMatch(/terraform plan [^\n]*-detailed-exitcode/);
    expect(script).not.toContain("terraform apply");
  });
});
