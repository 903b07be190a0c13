/**
 * No secret in a file a pull request or a branch can edit (design §13.1): every workflow that
 * `init --workflows` and `init --hcl --workflows` write, read as GitHub reads it.
 * - A workflow triggered by `pull_request` runs the pull request's own copy of its file: it names
 *   no secret (`secrets.*` other than GITHUB_TOKEN), in any job, step or expression.
 * - Repository secrets reach every workflow that any branch pushes: every job that names a secret
 *   names an environment (whose deployment branches the team limits to the default branch).
 * - Every checkout leaves no token in .git/config; no workflow runs on pull_request_target.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { shippedWorkflows } from "../../src/io/init-app";
import { shippedHclWorkflows } from "../../src/io/init-hcl";

interface Job {
  environment?: unknown;
  steps?: { uses?: string; with?: Record<string, unknown> }[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

/** Every secret a text names, but GitHub's own token. */
const secretsIn = (text: string): string[] => [...text.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1]!).filter((name) => name !== "GITHUB_TOKEN");

/** The file without its comments (a comment may name a secret in prose). */
const uncommented = (text: string): string => text.replace(/(^|\s)#[^\n]*/g, "$1");

const WORKFLOWS = [...shippedWorkflows(), ...shippedHclWorkflows()].map((f) => ({ name: f.path, text: f.content, workflow: parse(f.content) as Workflow }));

describe("no secret in a file a pull request or a branch can edit", () => {
  it("init writes the CLI's and the HCL project's workflows (the files this test reads)", () => {
    expect(WORKFLOWS.map((w) => w.name)).toEqual(expect.arrayContaining(["alert-rule-users-plan.yml", "alert-rule-users-apply.yml", "alert-rule-users-terraform-plan.yml", "alert-rule-users-terraform-review.yml", "alert-rule-users-terraform-apply.yml"]));
  });

  it.each(WORKFLOWS.map((w) => [w.name, w] as const))("%s: a pull_request-triggered file names no secret", (_name, { text, workflow }) => {
    const triggers = Object.keys(workflow.on);
    expect(triggers).not.toContain("pull_request_target");
    if (triggers.includes("pull_request")) expect(secretsIn(uncommented(text))).toEqual([]);
  });

  it.each(WORKFLOWS.map((w) => [w.name, w] as const))("%s: every job that names a secret names an environment", (_name, { workflow }) => {
    for (const [job, body] of Object.entries(workflow.jobs)) {
      const named = secretsIn(JSON.stringify(body));
      if (named.length > 0) expect(`${job} (${named.join(", ")}): ${body.environment === undefined ? "no environment" : "environment"}`).toBe(`${job} (${named.join(", ")}): environment`);
    }
  });

  it.each(WORKFLOWS.map((w) => [w.name, w] as const))("%s: no secret at the workflow's level (where every job would get it)", (_name, { workflow, text }) => {
    const top = Object.fromEntries(Object.entries(parse(text) as Record<string, unknown>).filter(([key]) => key !== "jobs"));
    expect(secretsIn(JSON.stringify(top))).toEqual([]);
    expect(workflow.jobs).toBeDefined();
  });

  it.each(WORKFLOWS.map((w) => [w.name, w] as const))("%s: every checkout leaves no token in .git/config", (_name, { workflow }) => {
    for (const [job, body] of Object.entries(workflow.jobs)) {
      for (const step of (body.steps ?? []).filter((s) => s.uses?.startsWith("actions/checkout"))) expect(`${job}: ${String(step.with?.["persist-credentials"])}`).toBe(`${job}: false`);
    }
  });

  it("a pull_request file that names a secret, or a job that names one without an environment, is caught (the checks above can fail)", () => {
    const planted = parse("on:\n  pull_request:\njobs:\n  x:\n    steps:\n      - run: echo ${{ secrets.ALERTS_API_TOKEN }}\n") as Workflow;
    expect(secretsIn(uncommented(JSON.stringify(planted)))).toEqual(["ALERTS_API_TOKEN"]);
    expect(planted.jobs["x"]!.environment).toBeUndefined();
    expect(secretsIn(uncommented("# secrets.ALERTS_API_TOKEN in prose\nrun: echo ok\n"))).toEqual([]);
    expect(readFileSync).toBeDefined();
  });
});
