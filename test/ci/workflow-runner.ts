/**
 * Runs a GitHub workflow's jobs locally, step by step, as the runner would for one event: every
 * `run:` block with bash (`-eo pipefail`, `${{ }}` substituted, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * RUNNER_TEMP, GITHUB_WORKSPACE, GITHUB_SHA), jobs in `needs` order with their `if:`, `outputs:` and
 * `needs.*` (result, outputs), and the few actions the workflows use played by the test:
 *
 * - checkout copies the tree of the ref it names (the pull request's head or base, or any SHA the
 *   event knows), into `path` when given; without a ref, the event's own commit (a pull request's
 *   head; the default branch for a push, a schedule, a workflow_run or a hand-run);
 * - setup-node and setup-terraform are what is on PATH;
 * - upload/download-artifact copy directories (a download with `run-id` takes an earlier run's);
 * - github-script runs its script with a `github` that records the bodies it posts (comments,
 *   issues) and answers what the test gives it (`rest`).
 *
 * Secrets as GitHub gives them: the repository's to every job; the environment's only to a job that
 * names an environment (`environment:`), and only where the run's ref may deploy to it: the
 * environment's deployment branches are the default branch, so a job of a pull request's run
 * (refs/pull/N/merge) that names it fails before its first step, as GitHub refuses it. `npm` is a
 * stand-in (test/ci/npm-stand-in.ts: tests reach no registry). With `withoutNode`, `node` and `npm`
 * on the steps' PATH fail: what a runner without Node.js would do.
 * Expressions know `hashFiles(path, ...)` (of files named exactly, in the job's workspace).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { writeZip } from "../../src/io/provider-package/zip";
import { REPO } from "../support/cli";
import { providerCacheDir } from "../../src/io/provider-package/sea-node";
import { NO_NODE_SHIM, NPM_SHIM, REAL_NPM } from "./npm-stand-in";

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | boolean | number>;
  "working-directory"?: string;
  "continue-on-error"?: boolean;
}
export interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  environment?: string | { name: string };
  outputs?: Record<string, string>;
  permissions?: Record<string, string> | string;
  steps: Step[];
}
export interface Workflow {
  on?: unknown;
  env?: Record<string, string>;
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
}

type EventName = "pull_request" | "push" | "schedule" | "workflow_run" | "workflow_dispatch";

/** The event's trees and what GitHub knows of it. */
export interface RunEvent {
  /** @default "pull_request" */
  readonly name?: EventName;
  /** The tree a checkout without a ref gives: the pull request's head, or the default branch's commit (push, schedule, workflow_run, hand-run). */
  readonly head: string;
  /** The pull request's base (what checkout of `github.event.pull_request.base.sha` gives). @default - the head */
  readonly base?: string;
  /** The base commit's SHA. @default "bbb…" */
  readonly baseSha?: string;
  /** The event's commit (`github.sha`, `context.sha`): a pull request's head, the pushed commit. @default "aaa…" */
  readonly headSha?: string;
  /** More trees by SHA, for checkouts with `ref:` (a workflow_run's pull-request head). */
  readonly trees?: Record<string, string>;
  /** The pull request's number (pull_request events). @default 41 */
  readonly number?: number;
  /** The run that completed (workflow_run events). */
  readonly workflowRun?: { readonly id: number; readonly event: string; readonly headSha: string; readonly conclusion: string };
  /** The default branch's tip before a push (`github.event.before`). */
  readonly before?: string;
  /** `inputs.*` of a hand-run. */
  readonly inputs?: Record<string, string | boolean>;
  /** Artifacts of earlier runs (name → directory), for a download with `run-id`. */
  readonly earlierArtifacts?: Record<string, string>;
  /** More of github-script's `github.rest` (namespace → method → answer). */
  readonly rest?: Record<string, Record<string, (params: Record<string, unknown>) => Promise<{ data: unknown }>>>;
  readonly vars: Record<string, string>;
  /** The environment's secrets: given only to a job that names an environment, on the default branch's ref. */
  readonly secrets: Record<string, string>;
  /** The run's ref. @default - refs/pull/N/merge for a pull request, refs/heads/main otherwise */
  readonly ref?: string;
  /** The repository's secrets: given to every job. @default {} */
  readonly repositorySecrets?: Record<string, string>;
  /** Extra environment every step gets (PATH additions, the test's own HOME). */
  readonly env: NodeJS.ProcessEnv;
  /** `node` and `npm` fail on the steps' PATH (a runner without Node.js). @default false */
  readonly withoutNode?: boolean;
  /** Called before each `run:` step starts (e.g. to stop it midway); its answer is the step's process. */
  readonly onStep?: (job: string, step: string) => void;
  /** Receives each `run:` step's process as it starts (e.g. to kill it midway). */
  readonly onSpawn?: (job: string, step: string, pid: number) => void;
}

export interface StepResult {
  readonly job: string;
  readonly step: string;
  readonly code: number;
  readonly output: string;
}

export interface RunResult {
  readonly jobs: Record<string, "success" | "failure" | "skipped">;
  readonly steps: StepResult[];
  /** Every body github-script posted: comments and issues, created or updated. */
  readonly comments: string[];
  /** name → directory of every uploaded artifact. */
  readonly artifacts: Record<string, string>;
  /** Which trees each job checked out ("head", "base", or the SHA it named), in order. */
  readonly checkouts: Record<string, string[]>;
  /** Each job's step summary (GITHUB_STEP_SUMMARY). */
  readonly summaries: Record<string, string>;
  /** Each job's outputs (`outputs:`), as the jobs that need it read them. */
  readonly outputs: Record<string, Record<string, string>>;
}

/** A commit of a played repository: its SHA and a tree of it (a directory). */
export interface Commit {
  readonly sha: string;
  readonly dir: string;
}

/** What a pull request's plan came to: its own run, the trusted review's run (workflow_run), and the comment the review posted last. */
export interface Reviewed {
  readonly plan: RunResult;
  readonly review: RunResult;
  readonly comment: string | undefined;
}

const BASE_SHA = "b".repeat(40);
const HEAD_SHA = "a".repeat(40);
const REPOSITORY = "o/r";

function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  onSpawn: (pid: number) => void = () => undefined,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], detached: true });
    if (child.pid !== undefined) onSpawn(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status: status ?? (signal === null ? 1 : 128 + 9), stdout, stderr });
    });
  });
}

/** GitHub's format('{0} {1}', a, b). */
function format(template: string, ...args: unknown[]): string {
  return template.replace(/\{(\d+)\}/g, (_m, i: string) => {
    const arg = args[Number(i)];
    return typeof arg === "string" || typeof arg === "number" || typeof arg === "boolean" ? String(arg) : "";
  });
}

/** GitHub's hashFiles(path, ...) in `workspace`: '' when no file is there, else a sha256 over the files' sha256s. */
function hashFiles(workspace: string, ...paths: unknown[]): string {
  const files = paths.map(String).map((path) => {
    if (/[*?[]/.test(path)) throw new Error(`hashFiles(${path}): patterns are not played by this runner, only paths`);
    return join(workspace, path);
  });
  const found = workspace === "" ? [] : files.filter((file) => existsSync(file) && statSync(file).isFile());
  if (found.length === 0) return "";
  const outer = createHash("sha256");
  for (const file of found) outer.update(createHash("sha256").update(readFileSync(file)).digest());
  return outer.digest("hex");
}

/** Evaluates a `${{ }}` expression or an `if:` over the contexts given (paths, ==, !=, &&, ||, !, always(), format(), hashFiles()). */
function evaluate(expression: string, lookup: (path: string) => string): unknown {
  const js = expression
    .replace(/\balways\(\)/g, "true")
    .replace(/\b(?:steps|vars|secrets|github|runner|env|inputs|needs)(?:\.[A-Za-z0-9_-]+)+/g, (path) => `lookup(${JSON.stringify(path)})`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the workflow's own expression, as the runner evaluates it
  const compiled = new Function("lookup", "format", "hashFiles", `return (${js});`) as (l: typeof lookup, f: typeof format, h: (...paths: unknown[]) => string) => unknown;
  return compiled(lookup, format, (...paths: unknown[]) => hashFiles(lookup("github.workspace"), ...paths));
}

function substitute(text: string, lookup: (path: string) => string): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expression: string) => {
    const value = evaluate(expression, lookup);
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  });
}

function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

const needsOf = (job: Job): string[] => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);

/** Whether a job names an environment (and so gets the environment's secrets). */
export const namesEnvironment = (job: Job): boolean => job.environment !== undefined;

/** The run's ref: a pull request's merge ref, or the default branch. */
const refOf = (event: RunEvent): string => event.ref ?? ((event.name ?? "pull_request") === "pull_request" ? `refs/pull/${event.number ?? 41}/merge` : "refs/heads/main");

/** Whether the run's ref may deploy to the job's environment (its deployment branches: the default branch only). */
const mayDeploy = (job: Job, event: RunEvent): boolean => !namesEnvironment(job) || refOf(event) === "refs/heads/main";

interface JobRecord {
  result: "success" | "failure" | "skipped";
  outputs: Record<string, string>;
}

interface RunContext {
  readonly root: string;
  readonly shims: string;
  readonly toolVersion: string;
  readonly result: RunResult;
  readonly done: Record<string, JobRecord>;
}

/**
 * The directories of this test file's runs (each job's workspace, runner.temp, artifacts: some
 * 370 MB a run), removed when the file is done: a suite of some eighty runs left 30 GB behind in
 * the system's temporary directory, every time it ran.
 */
const runRoots: string[] = [];
afterAll(() => {
  for (const root of runRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Runs every job of `workflow` (in `needs` order) for `event`. */
export async function runWorkflow(workflow: Workflow, event: RunEvent): Promise<RunResult> {
  const root = mkdtempSync(join(tmpdir(), "aru-workflow-run-"));
  runRoots.push(root);
  const shims = join(root, "shims");
  mkdirSync(shims);
  writeFileSync(join(shims, "npm"), event.withoutNode === true ? NO_NODE_SHIM : NPM_SHIM);
  chmodSync(join(shims, "npm"), 0o755);
  if (event.withoutNode === true) {
    writeFileSync(join(shims, "node"), NO_NODE_SHIM);
    chmodSync(join(shims, "node"), 0o755);
  }
  const toolVersion = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
  const result: RunResult = { jobs: {}, steps: [], comments: [], artifacts: {}, checkouts: {}, summaries: {}, outputs: {} };
  const context: RunContext = { root, shims, toolVersion, result, done: {} };
  const pending = Object.keys(workflow.jobs);
  while (pending.length > 0) {
    const index = pending.findIndex((name) => needsOf(workflow.jobs[name]!).every((n) => context.done[n] !== undefined));
    if (index < 0) throw new Error(`jobs ${pending.join(", ")} need jobs that do not exist`);
    const name = pending.splice(index, 1)[0]!;
    const job = workflow.jobs[name]!;
    const record = shouldRun(job, event, context) ? await runJob(name, job, workflow, event, context) : { result: "skipped" as const, outputs: {} };
    context.done[name] = record;
    result.jobs[name] = record.result;
    result.outputs[name] = record.outputs;
  }
  return result;
}

/** A job's `if:` (GitHub's default: every job it needs succeeded; `always()` runs it whatever they came to). */
function shouldRun(job: Job, event: RunEvent, context: RunContext): boolean {
  const allSucceeded = needsOf(job).every((n) => context.done[n]?.result === "success");
  if (job.if === undefined) return allSucceeded;
  const expression = job.if.replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  if (!/\balways\(\)/.test(expression) && !allSucceeded) return false;
  return Boolean(evaluate(expression.replace(/\bsuccess\(\)/g, String(allSucceeded)).replace(/\bfailure\(\)/g, "false"), (path) => lookupOf(event, context, {}, {}, "")(path)));
}

/** The contexts of expressions: vars, secrets (as this job gets them), runner, steps, env, github, inputs, needs. */
function lookupOf(event: RunEvent, context: RunContext, outputs: Record<string, Record<string, string>>, env: Record<string, string>, temp: string, job?: Job, workspace = ""): (path: string) => string {
  const eventName = event.name ?? "pull_request";
  return (path: string): string => {
    const parts = path.split(".");
    switch (parts[0]) {
      case "vars":
        return event.vars[parts[1]!] ?? "";
      case "secrets": {
        const environment = job !== undefined && namesEnvironment(job) ? event.secrets : {};
        return { ...event.repositorySecrets, ...environment }[parts[1]!] ?? "";
      }
      case "runner":
        return parts[1] === "temp" ? temp : "";
      case "steps":
        // steps.ID.outcome (success, failure, skipped) is kept under a key no output can have
        return parts[2] === "outcome" ? (outputs[parts[1]!]?.[" outcome"] ?? "") : (outputs[parts[1]!]?.[parts[3]!] ?? "");
      case "env":
        return env[parts[1]!] ?? "";
      case "inputs": {
        const value = event.inputs?.[parts[1]!];
        return value === undefined ? "" : (value as string);
      }
      case "needs": {
        const need = context.done[parts[1]!];
        if (parts[2] === "result") return need?.result ?? "";
        if (parts[2] === "outputs") return need?.outputs[parts[3]!] ?? "";
        return "";
      }
      case "github":
        return githubContext(path, event, eventName, workspace);
      default:
        return "";
    }
  };
}

function githubContext(path: string, event: RunEvent, eventName: EventName, workspace: string): string {
  const run = event.workflowRun;
  const values: Record<string, string> = {
    "github.event.pull_request.base.sha": eventName === "pull_request" ? (event.baseSha ?? BASE_SHA) : "",
    "github.event.pull_request.head.sha": eventName === "pull_request" ? (event.headSha ?? HEAD_SHA) : "",
    "github.event.pull_request.number": eventName === "pull_request" ? String(event.number ?? 41) : "",
    "github.event.before": eventName === "push" ? (event.before ?? "") : "",
    "github.event.workflow_run.id": run === undefined ? "" : String(run.id),
    "github.event.workflow_run.event": run?.event ?? "",
    "github.event.workflow_run.head_sha": run?.headSha ?? "",
    "github.event.workflow_run.conclusion": run?.conclusion ?? "",
    "github.token": "github-token-of-the-run",
    "github.event_name": eventName,
    "github.sha": event.headSha ?? HEAD_SHA,
    "github.workspace": workspace,
    "github.repository": REPOSITORY,
  };
  return values[path] ?? "";
}

/** The tree a checkout gives: its ref's, or the event's own commit's. */
function checkoutTree(ref: string | undefined, event: RunEvent, job: string): { dir: string; label: string } {
  if (ref === undefined || ref === "") return { dir: event.head, label: "head" };
  if (ref === (event.baseSha ?? BASE_SHA)) return { dir: event.base ?? event.head, label: "base" };
  if (ref === (event.headSha ?? HEAD_SHA)) return { dir: event.head, label: "head" };
  const tree = event.trees?.[ref];
  if (tree === undefined) throw new Error(`${job}: checkout of an unknown ref ${ref}`);
  return { dir: tree, label: ref };
}

async function runJob(name: string, job: Job, workflow: Workflow, event: RunEvent, context: RunContext): Promise<JobRecord> {
  const jobDir = join(context.root, name);
  const workspace = join(jobDir, "workspace");
  const temp = join(jobDir, "temp");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp, { recursive: true });
  const summary = join(jobDir, "step-summary.md");
  writeFileSync(summary, "");
  const outputs: Record<string, Record<string, string>> = {};
  let failed = false;
  const env: Record<string, string> = {};
  const lookup = lookupOf(event, context, outputs, env, temp, job, workspace);
  for (const [k, v] of Object.entries({ ...workflow.env, ...job.env })) env[k] = substitute(String(v), lookup);
  context.result.checkouts[name] = [];
  if (!mayDeploy(job, event)) {
    const environment = typeof job.environment === "string" ? job.environment : job.environment?.name;
    context.result.steps.push({ job: name, step: "(environment)", code: 1, output: `Branch "${refOf(event)}" is not allowed to deploy to ${environment ?? "?"} due to environment protection rules.` });
    context.result.summaries[name] = "";
    return { result: "failure", outputs: {} };
  }
  for (const [i, step] of job.steps.entries()) {
    const label = step.name ?? step.id ?? step.uses ?? `step ${i}`;
    const condition = step.if ?? "success()";
    const run = failed ? /always\(\)|failure\(\)/.test(condition) : Boolean(evaluate(condition.replace(/\bsuccess\(\)/g, "true").replace(/\bfailure\(\)/g, "false"), lookup));
    if (!run) {
      if (step.id !== undefined) outputs[step.id] = { " outcome": "skipped" };
      continue;
    }
    const stepEnv: Record<string, string> = { ...env };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = substitute(String(v), lookup);
    const withs: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.with ?? {})) withs[k] = substitute(String(v), lookup);
    const { code, output, stepOutputs } = await runStep({ name, label, index: i, step, withs, stepEnv, workspace, temp, summary, event, context, lookup });
    if (step.id !== undefined) outputs[step.id] = { ...stepOutputs, " outcome": code === 0 ? "success" : "failure" };
    context.result.steps.push({ job: name, step: label, code, output });
    if (code !== 0 && step["continue-on-error"] !== true) failed = true;
  }
  context.result.summaries[name] = readFileSync(summary, "utf8");
  const jobOutputs: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.outputs ?? {})) jobOutputs[k] = substitute(v, lookup);
  return { result: failed ? "failure" : "success", outputs: jobOutputs };
}

interface StepRun {
  readonly name: string;
  readonly label: string;
  readonly index: number;
  readonly step: Step;
  readonly withs: Record<string, string>;
  readonly stepEnv: Record<string, string>;
  readonly workspace: string;
  readonly temp: string;
  readonly summary: string;
  readonly event: RunEvent;
  readonly context: RunContext;
  readonly lookup: (path: string) => string;
}

async function runStep(s: StepRun): Promise<{ code: number; output: string; stepOutputs: Record<string, string> }> {
  const { name, step, withs, workspace, event, context } = s;
  const uses = step.uses?.replace(/@.*$/, "");
  if (uses === "actions/checkout") {
    const { dir, label } = checkoutTree(withs["ref"], event, name);
    context.result.checkouts[name]!.push(label);
    cpSync(dir, withs["path"] === undefined ? workspace : join(workspace, withs["path"]), { recursive: true, verbatimSymlinks: true });
    return { code: 0, output: "", stepOutputs: {} };
  }
  if (uses === "actions/setup-node" || uses === "hashicorp/setup-terraform") return { code: 0, output: "", stepOutputs: {} };
  if (uses === "actions/upload-artifact") return { code: upload(withs, workspace, context), output: "", stepOutputs: {} };
  if (uses === "actions/download-artifact") {
    const source = withs["run-id"] === undefined ? context.result.artifacts[withs["name"]!] : event.earlierArtifacts?.[withs["name"]!];
    if (source === undefined) return { code: 1, output: `Unable to download artifact(s): Artifact not found for name: ${withs["name"]}`, stepOutputs: {} };
    cpSync(source, join(workspace, withs["path"]!), { recursive: true });
    return { code: 0, output: "", stepOutputs: {} };
  }
  if (uses === "actions/github-script") return githubScript(s);
  if (step.run !== undefined) return shellStep(s);
  throw new Error(`${name}: ${s.label}: ${step.uses ?? "a step"} is not played by this runner`);
}

function upload(withs: Record<string, string>, workspace: string, context: RunContext): number {
  const target = join(context.root, "artifacts", withs["name"]!);
  let code = 0;
  for (const pattern of withs["path"]!.split("\n").map((p) => p.trim()).filter((p) => p !== "")) {
    const paths = expandWildcards(workspace, pattern);
    for (const path of paths) {
      const source = join(workspace, path);
      cpSync(source, statSync(source).isDirectory() ? target : join(target, path), { recursive: true });
    }
    if (paths.length === 0 && withs["if-no-files-found"] === "error") code = 1;
  }
  context.result.artifacts[withs["name"]!] = target;
  return code;
}

async function githubScript(s: StepRun): Promise<{ code: number; output: string; stepOutputs: Record<string, string> }> {
  const { event, context, workspace, stepEnv, withs } = s;
  const comments = context.result.comments;
  const record = (params: { body: string }): Promise<{ data: object }> => {
    comments.push(params.body);
    return Promise.resolve({ data: {} });
  };
  const headSha = event.headSha ?? HEAD_SHA;
  const number = event.number ?? 41;
  const eventName = event.name ?? "pull_request";
  const openPull = { state: "open", number, head: { sha: eventName === "workflow_run" ? (event.workflowRun?.headSha ?? headSha) : headSha, repo: { full_name: REPOSITORY } }, base: { repo: { full_name: REPOSITORY } } };
  const github = {
    paginate: () => Promise.resolve([]),
    rest: {
      ...event.rest,
      pulls: { get: () => Promise.resolve({ data: openPull }), ...event.rest?.["pulls"] },
      issues: {
        listComments: () => Promise.resolve({ data: [] }),
        createComment: record,
        updateComment: record,
        listForRepo: () => Promise.resolve({ data: [] }),
        create: record,
        update: record,
        ...event.rest?.["issues"],
      },
    },
  };
  const payload =
    eventName === "pull_request"
      ? { pull_request: { number, head: { sha: headSha } } }
      : eventName === "workflow_run" && event.workflowRun !== undefined
        ? { workflow_run: { id: event.workflowRun.id, event: event.workflowRun.event, head_sha: event.workflowRun.headSha, conclusion: event.workflowRun.conclusion } }
        : {};
  const ctx = { serverUrl: "https://github.example", runId: 1, repo: { owner: "o", repo: "r" }, sha: headSha, payload, eventName };
  const stepOutputs: Record<string, string> = {};
  let code = 0;
  let output = "";
  const saved = { cwd: process.cwd(), env: { ...process.env } };
  try {
    process.chdir(workspace);
    Object.assign(process.env, stepEnv);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the workflow's own script, run as github-script runs it
    const body = new Function("github", "context", "core", "require", `return (async () => {\n${withs["script"]!}\n})();`) as (...args: unknown[]) => Promise<unknown>;
    const core = {
      info: (line: string) => void (output += `${line}\n`),
      warning: (line: string) => void (output += `::warning::${line}\n`),
      setOutput: (key: string, value: string) => void (stepOutputs[key] = value),
      setFailed: (message: string) => {
        code = 1;
        output += `${message}\n`;
      },
    };
    await body(github, ctx, core, require);
  } catch (err) {
    code = 1;
    output += String(err instanceof Error ? (err.stack ?? err.message) : err);
  } finally {
    process.chdir(saved.cwd);
    process.env = saved.env;
  }
  return { code, output, stepOutputs };
}

async function shellStep(s: StepRun): Promise<{ code: number; output: string; stepOutputs: Record<string, string> }> {
  const { name, index, step, stepEnv, workspace, temp, event, context, lookup } = s;
  const outputFile = join(temp, `output-${index}`);
  writeFileSync(outputFile, "");
  const script = join(temp, `step-${index}.sh`);
  writeFileSync(script, substitute(step.run!, lookup));
  const cwd = step["working-directory"] === undefined ? workspace : join(workspace, substitute(step["working-directory"], lookup));
  // spawned, never spawnSync: the simulator the steps talk to runs in this process
  const ran = await exec(
    "bash",
    ["--noprofile", "--norc", "-eo", "pipefail", script],
    {
      cwd,
      env: {
        ...event.env,
        ...stepEnv,
        PATH: `${context.shims}:${event.env["PATH"] ?? process.env["PATH"] ?? ""}`,
        NPM_LOG: join(context.root, "npm.log"),
        REAL_NPM: REAL_NPM,
        // the provider's build cache of this machine (a runner keeps its own): built once, not per job
        ALERT_RULE_USERS_PROVIDER_CACHE: providerCacheDir(),
        TOOL_DIR: REPO,
        TOOL_VERSION: context.toolVersion,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: s.summary,
        GITHUB_WORKSPACE: workspace,
        GITHUB_SHA: event.headSha ?? HEAD_SHA,
        GITHUB_EVENT_NAME: event.name ?? "pull_request",
        RUNNER_TEMP: temp,
        CI: "true",
        GITHUB_ACTIONS: "true",
      },
    },
    (pid) => event.onSpawn?.(name, s.label, pid),
  );
  return { code: ran.status, output: `${ran.stdout}${ran.stderr}`, stepOutputs: readOutputs(outputFile) };
}

/**
 * The paths (relative to `workspace`) an upload-artifact `path:` line names: itself when it exists,
 * or, with `*` in its last part, the entries of that directory it matches (as the action's globs do).
 */
function expandWildcards(workspace: string, pattern: string): string[] {
  if (!pattern.includes("*")) return existsSync(join(workspace, pattern)) ? [pattern] : [];
  const slash = pattern.lastIndexOf("/");
  const dir = slash < 0 ? "" : pattern.slice(0, slash);
  const last = pattern.slice(slash + 1);
  if (dir.includes("*")) throw new Error(`upload-artifact: a wildcard before the last part of ${pattern} is not played by this runner`);
  const matcher = new RegExp(`^${last.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  const full = join(workspace, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((entry) => matcher.test(entry))
    .map((entry) => (dir === "" ? entry : `${dir}/${entry}`));
}

/** Every file under `dir`, read as bytes (for a search of the token in any encoding). */
export function filesUnder(dir: string): { path: string; content: Buffer }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => {
      const path = join(d.parentPath, d.name);
      return { path, content: readFileSync(path) };
    });
}

/** An artifact's directory as GitHub's downloadArtifact answers it: a zip of its files, as an ArrayBuffer. */
export function artifactZip(dir: string): ArrayBuffer {
  const zip = writeZip(filesUnder(dir).map((file) => ({ name: relative(dir, file.path), mode: 0o644 as const, data: file.content })));
  return zip.buffer.slice(zip.byteOffset, zip.byteOffset + zip.byteLength) as ArrayBuffer;
}

/** A workflow file of this repository, with ALERT_RULES_DIR set to `configDir`. */
export function loadWorkflow(file: string, configDir: string): Workflow {
  return parse(readFileSync(join(REPO, file), "utf8").replace('  ALERT_RULES_DIR: "."', `  ALERT_RULES_DIR: ${JSON.stringify(configDir)}`)) as Workflow;
}
