/**
 * The workflows of an HCL project (examples/github-actions-hcl/, written by `init --hcl DIR
 * --workflows`, docs/provider-workflows.md): valid for GitHub (action-validator), every `run:` block
 * parses (bash -n) and passes shellcheck where it is installed; the plan turns
 * the pull request's configuration into declarations where no secret is, and plans them with the
 * CLI from the base's checkout; the apply applies that reviewed plan and nothing else; drift plans
 * with --detailed-exitcode on a schedule; the secrets are only in
 * the environment of the steps that run the CLI on declarations as data, never in a job that
 * evaluates a configuration (terraform runs only in the declarations job, offline and locked),
 * never in a script; a job holding a secret in a pull-request workflow checks out only the base.
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
  permissions?: Record<string, string>;
  environment?: string;
  needs?: string;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
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

  it.each(FILES)("%s holds the secrets only in the environment of steps that run the CLI on data, never in a script, a job's environment or a job that runs terraform", (file) => {
    const workflow = load(file);
    expect(JSON.stringify(workflow.env ?? {})).not.toMatch(/secrets\./);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(`${name}: ${JSON.stringify(job.env ?? {})}`).not.toMatch(/secrets\./);
      const holdsSecret = JSON.stringify(job).includes("secrets.");
      // a job that evaluates a configuration (terraform) holds no secret
      if (holdsSecret) expect(`${name}: ${job.steps.map((s) => s.run ?? "").join("\n")}`).not.toMatch(/terraform |\.bin\/alert-rule-users/);
      for (const step of job.steps) {
        expect(step.run ?? "").not.toMatch(/secrets\.|ALERTS_API_TOKEN|--token/);
        expect(JSON.stringify(step.with ?? {})).not.toMatch(/secrets\./);
        if (JSON.stringify(step.env ?? {}).includes("secrets.")) {
          expect(step.run ?? "").toMatch(/npx --no -- alert-rule-users (plan|apply) [^\n]*--skip-synth --output (pr|main)-declarations/);
          expect(step.env?.["ALERTS_API_TOKEN"]).toBe("${{ secrets.ALERTS_API_TOKEN }}");
        }
      }
    }
  });

  it.each(FILES)("%s locks the provider, names the configuration's directory, and checks the alert-rule-users dependency before every install", (file) => {
    const workflow = load(file);
    expect(workflow.env?.["ALERT_RULE_USERS_PROVIDER_LOCKED"]).toBe("1");
    expect(workflow.env?.["ALERT_RULES_DIR"]).toBe(".");
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const steps = job.steps.map((s) => s.run ?? "");
      const check = steps.findIndex((r) => r === 'node -e "$CHECK_DEPENDENCY"');
      const install = steps.findIndex((r) => /npm (ci|install)/.test(r));
      expect(`${name}: ${check >= 0 && check < install}`).toBe(`${name}: true`);
      for (const r of steps.filter((x) => x.startsWith("npm ci"))) expect(r).toBe("npm ci --ignore-scripts --no-audit --no-fund");
    }
  });

  it("the declarations job: no secret, the provider installed outside the checkout at the lock's version, the checkout's terraform.d deleted, offline and locked, only the declarations uploaded", () => {
    for (const file of FILES) {
      const job = load(file).jobs["declarations"]!;
      expect(JSON.stringify(job)).not.toMatch(/secrets\.|vars\.ALERTS_|ALERTS_API/);
      const script = job.steps.map((s) => s.run ?? "").join("\n");
      expect(script).toContain('rm -rf "$ALERT_RULES_DIR/terraform.d"');
      expect(script).toContain('npm install --prefix "$RUNNER_TEMP/alert-rule-users" --ignore-scripts --no-audit --no-fund --no-save "alert-rule-users@$VERSION"');
      expect(script).toContain('include = ["registry.terraform.io/alert-rule-users/alertrules"]');
      expect(script).toMatch(/terraform validate[^]*terraform plan [^\n]*-out="\$RUNNER_TEMP\/offline.tfplan"[^]*terraform show -json[^]*synth --from-terraform-plan/);
      const evaluate = job.steps.find((s) => s.run?.includes("terraform plan"))!;
      expect(evaluate.env?.["ALERT_RULE_USERS_PROVIDER_OFFLINE"]).toBe("1");
      const upload = job.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
      expect(upload.with).toMatchObject({ name: "alert-rule-users-declarations", path: "alert-rule-users-declarations" });
    }
  });

  it("plan: the plan job checks out the base, plans the pull request's declarations with the CLI, comments its markdown and uploads the saved plan", () => {
    const workflow = load(PLAN);
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    const plan = workflow.jobs["plan"]!;
    expect(plan.needs).toBe("declarations");
    expect(plan.steps.find((s) => s.uses?.startsWith("actions/checkout"))?.with).toEqual({ ref: "${{ github.event.pull_request.base.sha }}", "persist-credentials": false });
    const script = plan.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toContain("npx --no -- alert-rule-users plan --skip-synth --output pr-declarations --format markdown --out plan.json --detailed-exitcode > plan.md");
    expect(plan.steps.some((s) => s.uses?.startsWith("actions/github-script") && String(s.with?.["script"]).includes('fs.readFileSync("plan.md"'))).toBe(true);
    const upload = plan.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(upload.with?.["name"]).toBe("alert-rule-users-terraform-plan");
    expect(String(upload.with?.["path"])).toContain("plan.json");
  });

  it("apply: on pushes to main, in the tenant's apply group, applies the reviewed plan only when this commit declares what it covered, and never plans again", () => {
    const workflow = load(APPLY);
    expect(workflow.on["push"]).toMatchObject({ branches: ["main"] });
    expect(workflow.concurrency).toEqual({ group: "alert-rule-users-apply-${{ vars.ALERTS_TENANT_ID }}", "cancel-in-progress": false });
    const script = workflow.jobs["apply"]!.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toContain("npx --no -- alert-rule-users apply reviewed/plan.json --require-declarations --skip-synth --output main-declarations --require-tip origin/main");
    expect(script).not.toMatch(/terraform |--auto-approve/);
    const downloads = workflow.jobs["apply"]!.steps.filter((s) => s.uses?.startsWith("actions/download-artifact")).map((s) => s.with?.["name"]);
    expect(downloads).toEqual(["alert-rule-users-terraform-plan", "alert-rule-users-declarations"]);
  });

  it("drift: on a schedule, plans the default branch's declarations with --detailed-exitcode, fails on drift, applies nothing", () => {
    const workflow = load(DRIFT);
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const script = workflow.jobs["drift"]!.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toMatch(/alert-rule-users plan --skip-synth --output main-declarations [^\n]*--detailed-exitcode/);
    expect(script).not.toMatch(/terraform |alert-rule-users apply/);
  });
});

/** Every workflow of the package that runs for a pull request: the CLI's and the HCL project's. */
const PULL_REQUEST_WORKFLOWS = [join("examples", "github-actions", "plan.yml"), PLAN];

describe("pull-request workflows (docs/contract.md §12.3)", () => {
  it.each(PULL_REQUEST_WORKFLOWS)("%s: every job that holds a secret checks out only the base commit; every other job holds none", (file) => {
    const workflow = load(file);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const holdsSecret = JSON.stringify({ job, env: workflow.env ?? {} }).includes("secrets.");
      const checkouts = job.steps.filter((s) => s.uses?.startsWith("actions/checkout@"));
      if (holdsSecret) {
        expect(`${name}: ${JSON.stringify(checkouts.map((s) => s.with?.["ref"]))}`).toBe(`${name}: ["\${{ github.event.pull_request.base.sha }}"]`);
        // no pull-request tree reaches it but the declarations, read as data
        expect(job.steps.filter((s) => s.uses?.startsWith("actions/download-artifact@")).map((s) => s.with?.["path"])).toEqual([expect.stringMatching(/^pr-/)]);
      }
    }
    expect(Object.values(workflow.jobs).some((job) => JSON.stringify(job).includes("secrets."))).toBe(true);
  });

  const ALL_WORKFLOWS = ["github-actions", "github-actions-hcl"].flatMap((d) => ["plan.yml", "apply.yml", "drift.yml"].map((f) => join("examples", d, f)));
  it.each(ALL_WORKFLOWS)("%s (written by init): a job holding a secret checks out the base of a pull request, or the pushed or scheduled commit itself; never pull_request_target", (file) => {
    const workflow = load(file);
    const triggers = Object.keys(workflow.on);
    expect(triggers).not.toContain("pull_request_target");
    expect(triggers).not.toContain("workflow_run");
    for (const [name, job] of Object.entries(workflow.jobs)) {
      if (!JSON.stringify({ job, env: workflow.env ?? {} }).includes("secrets.")) continue;
      const refs = job.steps.filter((s) => s.uses?.startsWith("actions/checkout@")).map((s) => s.with?.["ref"] ?? "(the event's commit)");
      const want = triggers.includes("pull_request") ? "${{ github.event.pull_request.base.sha }}" : "(the event's commit)";
      expect(`${name}: ${JSON.stringify(refs)}`).toBe(`${name}: ${JSON.stringify([want])}`);
    }
  });
});
