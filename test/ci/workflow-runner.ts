/**
 * Runs a GitHub workflow's jobs locally, step by step, as the runner would for one event: every
 * `run:` block with bash (`-eo pipefail`, `${{ }}` substituted, GITHUB_OUTPUT, RUNNER_TEMP,
 * GITHUB_WORKSPACE), and the few actions the workflows use played by the test: checkout copies the
 * tree of the ref it names (the pull request's head, or the base), setup-node and setup-terraform
 * are what is on PATH, upload/download-artifact copy directories, github-script runs its script
 * with a `github` that records the bodies it posts (comments, issues) and answers what the test
 * gives it (e.g. the merged pull request of a push). The event is a pull request (head and base
 * trees), a push or a schedule (the head tree only, checked out without a ref). `npm` is a stand-in (tests reach no registry): `install
 * --prefix P alert-rule-users@V` and `ci` install this checkout's build, except that `ci` installs a
 * lock's `file:` dependency as that directory, as npm would.
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../support/cli";
import { providerCacheDir } from "../../src/io/provider-package/sea-node";

/** This machine's npm (found on PATH before the shims are put in front of it). */
const REAL_NPM = ((process.env["PATH"] ?? "").split(":").map((dir) => join(dir, "npm")).find((file) => existsSync(file)) ?? "npm");

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
interface Job {
  needs?: string | string[];
  env?: Record<string, string>;
  steps: Step[];
}
export interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

/** The event's trees: what checkout gives for the head (the pull request) and for the base. */
export interface RunEvent {
  /** @default "pull_request" */
  readonly name?: "pull_request" | "push" | "schedule";
  /** The pull request's tree, or the pushed (the default branch's) commit. */
  readonly head: string;
  /** The pull request's base (what checkout of `github.event.pull_request.base.sha` gives); unused by a push or a schedule. */
  readonly base: string;
  /** The base commit's SHA (a git repository's, for `--changed-since`). @default "bbb…" */
  readonly baseSha?: string;
  /** The head commit's SHA (`context.sha`, the pull request's head). @default "aaa…" */
  readonly headSha?: string;
  /** Artifacts of earlier runs (name → directory), for a download with `run-id`. */
  readonly earlierArtifacts?: Record<string, string>;
  /** More of github-script's `github.rest` (namespace → method → answer), e.g. repos.listPullRequestsAssociatedWithCommit. */
  readonly rest?: Record<string, Record<string, (params: Record<string, unknown>) => Promise<{ data: unknown }>>>;
  readonly vars: Record<string, string>;
  readonly secrets: Record<string, string>;
  /** Extra environment every step gets (PATH additions, the test's own HOME). */
  readonly env: NodeJS.ProcessEnv;
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
  /** Which tree each job's checkout took. */
  readonly checkouts: Record<string, "head" | "base">;
}

const BASE_SHA = "b".repeat(40);
const HEAD_SHA = "a".repeat(40);

/** The npm stand-in (see the file's comment). */
const NPM_SHIM = `#!/usr/bin/env bash
set -euo pipefail
echo "npm $*" >> "$NPM_LOG"
link_tool() { # $1: node_modules dir, $2: what alert-rule-users is
  mkdir -p "$1/.bin"
  rm -rf "$1/alert-rule-users"
  ln -s "$2" "$1/alert-rule-users"
  local bin
  bin=$(node -p 'const p=require(process.argv[1]+"/package.json"); typeof p.bin==="string"?p.bin:p.bin["alert-rule-users"]' "$2")
  ln -sf "../alert-rule-users/$bin" "$1/.bin/alert-rule-users"
}
case "$1" in
  install)
    prefix=""; spec=""
    while [ $# -gt 0 ]; do case "$1" in --prefix) prefix="$2"; shift 2;; alert-rule-users@*) spec="$1"; shift;; *) shift;; esac; done
    [ "$spec" = "alert-rule-users@$TOOL_VERSION" ] || { echo "npm stand-in: no such version: $spec" >&2; exit 1; }
    link_tool "$prefix/node_modules" "$TOOL_DIR"
    ;;
  ci)
    resolved=$(node -p 'const e=(require("./package-lock.json").packages||{})["node_modules/alert-rule-users"]||{}; e.resolved||""')
    case "$resolved" in
      file:*) link_tool "$PWD/node_modules" "$PWD/\${resolved#file:}" ;;
      *) link_tool "$PWD/node_modules" "$TOOL_DIR" ;;
    esac
    ;;
  pack)
    # the provider's Linux package is built from the npm registry's node-linux-* (npm pack): the real npm
    exec "$REAL_NPM" "$@"
    ;;
  *) echo "npm stand-in: npm $1 is not played" >&2; exit 1 ;;
esac
`;

function exec(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10 * 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status: status ?? 1, stdout, stderr });
    });
  });
}

/** Evaluates a `${{ }}` expression or an `if:` over the contexts given (paths, ==, !=, &&, ||, always()). */
function evaluate(expression: string, lookup: (path: string) => string): unknown {
  const js = expression
    .replace(/\balways\(\)/g, "true")
    .replace(/\b(?:steps|vars|secrets|github|runner|env|inputs|needs)(?:\.[A-Za-z0-9_-]+)+/g, (path) => `lookup(${JSON.stringify(path)})`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the workflow's own expression, as the runner evaluates it
  const compiled = new Function("lookup", `return (${js});`) as (l: typeof lookup) => unknown;
  return compiled(lookup);
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

/** Runs every job of `workflow` (in `needs` order) for a pull_request event of `event`. */
export async function runWorkflow(workflow: Workflow, event: RunEvent): Promise<RunResult> {
  const root = mkdtempSync(join(tmpdir(), "aru-workflow-run-"));
  const shims = join(root, "shims");
  mkdirSync(shims);
  writeFileSync(join(shims, "npm"), NPM_SHIM);
  chmodSync(join(shims, "npm"), 0o755);
  const toolVersion = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
  const result: RunResult = { jobs: {}, steps: [], comments: [], artifacts: {}, checkouts: {} };
  const pending = Object.keys(workflow.jobs);
  while (pending.length > 0) {
    const index = pending.findIndex((name) => needsOf(workflow.jobs[name]!).every((n) => result.jobs[n] !== undefined));
    const name = pending.splice(index, 1)[0]!;
    const job = workflow.jobs[name]!;
    if (needsOf(job).some((n) => result.jobs[n] !== "success")) {
      result.jobs[name] = "skipped";
      continue;
    }
    result.jobs[name] = await runJob(name, job, workflow, event, { root, shims, toolVersion, result });
  }
  return result;
}

async function runJob(
  name: string,
  job: Job,
  workflow: Workflow,
  event: RunEvent,
  context: { root: string; shims: string; toolVersion: string; result: RunResult },
): Promise<"success" | "failure"> {
  const jobDir = join(context.root, name);
  const workspace = join(jobDir, "workspace");
  const temp = join(jobDir, "temp");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp, { recursive: true });
  const outputs: Record<string, Record<string, string>> = {};
  let failed = false;
  const env: Record<string, string> = {};
  const lookup = (path: string): string => {
    const parts = path.split(".");
    const baseSha = event.baseSha ?? BASE_SHA;
    switch (parts[0]) {
      case "vars":
        return event.vars[parts[1]!] ?? "";
      case "secrets":
        return event.secrets[parts[1]!] ?? "";
      case "runner":
        return parts[1] === "temp" ? temp : "";
      case "steps":
        return outputs[parts[1]!]?.[parts[3]!] ?? "";
      case "env":
        return env[parts[1]!] ?? "";
      case "github":
        if (path === "github.event.pull_request.base.sha") return (event.name ?? "pull_request") === "pull_request" ? baseSha : "";
        if (path === "github.event.pull_request.number") return (event.name ?? "pull_request") === "pull_request" ? "41" : "";
        if (path === "github.token") return "github-token-of-the-run";
        if (path === "github.event_name") return event.name ?? "pull_request";
        if (path === "github.sha") return event.headSha ?? HEAD_SHA;
        return "";
      default:
        return "";
    }
  };
  for (const [k, v] of Object.entries({ ...workflow.env, ...job.env })) env[k] = substitute(v, lookup);
  for (const [i, step] of job.steps.entries()) {
    const label = step.name ?? step.id ?? step.uses ?? `step ${i}`;
    const condition = step.if ?? "success()";
    const run = failed ? /always\(\)|failure\(\)/.test(condition) : Boolean(evaluate(condition.replace(/\bsuccess\(\)/g, "true").replace(/\bfailure\(\)/g, "false"), lookup));
    if (!run) continue;
    const stepEnv: Record<string, string> = { ...env };
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = substitute(v, lookup);
    const withs: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.with ?? {})) withs[k] = substitute(String(v), lookup);
    let code = 0;
    let output = "";
    const uses = step.uses?.replace(/@.*$/, "");
    if (uses === "actions/checkout") {
      const baseSha = event.baseSha ?? BASE_SHA;
      const tree = withs["ref"] === baseSha ? "base" : "head";
      if (withs["ref"] !== undefined && withs["ref"] !== baseSha) throw new Error(`${name}: checkout of an unknown ref ${withs["ref"]}`);
      context.result.checkouts[name] = tree;
      cpSync(tree === "base" ? event.base : event.head, workspace, { recursive: true, verbatimSymlinks: true });
    } else if (uses === "actions/setup-node" || uses === "hashicorp/setup-terraform") {
      // what is on PATH
    } else if (uses === "actions/upload-artifact") {
      const target = join(context.root, "artifacts", withs["name"]!);
      for (const pattern of withs["path"]!.split("\n").map((p) => p.trim()).filter((p) => p !== "")) {
        const paths = expandWildcards(workspace, pattern);
        for (const path of paths) {
          const source = join(workspace, path);
          cpSync(source, statSync(source).isDirectory() ? target : join(target, path), { recursive: true });
        }
        if (paths.length === 0 && withs["if-no-files-found"] === "error") code = 1;
      }
      context.result.artifacts[withs["name"]!] = target;
    } else if (uses === "actions/download-artifact") {
      const source = withs["run-id"] === undefined ? context.result.artifacts[withs["name"]!] : event.earlierArtifacts?.[withs["name"]!];
      if (source === undefined) code = 1;
      else cpSync(source, join(workspace, withs["path"]!), { recursive: true });
    } else if (uses === "actions/github-script") {
      const comments = context.result.comments;
      const record = (params: { body: string }): Promise<{ data: object }> => {
        comments.push(params.body);
        return Promise.resolve({ data: {} });
      };
      const github = {
        paginate: () => Promise.resolve([]),
        rest: {
          ...event.rest,
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
      const headSha = event.headSha ?? HEAD_SHA;
      const payload = (event.name ?? "pull_request") === "pull_request" ? { pull_request: { number: 41, head: { sha: headSha } } } : {};
      const ctx = { serverUrl: "https://github.example", runId: 1, repo: { owner: "o", repo: "r" }, sha: headSha, payload };
      const stepOutputs: Record<string, string> = {};
      if (step.id !== undefined) outputs[step.id] = stepOutputs;
      const saved = { cwd: process.cwd(), env: { ...process.env } };
      try {
        process.chdir(workspace);
        Object.assign(process.env, stepEnv);
        const script = withs["script"]!;
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the workflow's own script, run as github-script runs it
        const body = new Function("github", "context", "core", "require", `return (async () => {\n${script}\n})();`) as (...args: unknown[]) => Promise<unknown>;
        const core = {
          info: (line: string) => void (output += `${line}\n`),
          setOutput: (key: string, value: string) => void (stepOutputs[key] = value),
          setFailed: (message: string) => {
            code = 1;
            output += `${message}\n`;
          },
        };
        await body(github, ctx, core, require);
      } catch (err) {
        code = 1;
        output = String(err);
      } finally {
        process.chdir(saved.cwd);
        process.env = saved.env;
      }
    } else if (step.run !== undefined) {
      const outputFile = join(temp, `output-${i}`);
      writeFileSync(outputFile, "");
      const script = join(temp, `step-${i}.sh`);
      writeFileSync(script, substitute(step.run, lookup));
      const cwd = step["working-directory"] === undefined ? workspace : join(workspace, substitute(step["working-directory"], lookup));
      // spawned, never spawnSync: the simulator the steps talk to runs in this process
      const ran = await exec("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
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
          GITHUB_STEP_SUMMARY: join(temp, "summary.md"),
          GITHUB_WORKSPACE: workspace,
          RUNNER_TEMP: temp,
          CI: "true",
        },
      });
      code = ran.status;
      output = `${ran.stdout}${ran.stderr}`;
      if (step.id !== undefined) outputs[step.id] = readOutputs(outputFile);
    } else {
      throw new Error(`${name}: ${label}: ${step.uses ?? "a step"} is not played by this runner`);
    }
    context.result.steps.push({ job: name, step: label, code, output });
    if (code !== 0 && step["continue-on-error"] !== true) failed = true;
  }
  return failed ? "failure" : "success";
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

export function loadWorkflow(file: string, configDir: string): Workflow {
  return parse(readFileSync(join(REPO, file), "utf8").replace('  ALERT_RULES_DIR: "."', `  ALERT_RULES_DIR: ${JSON.stringify(configDir)}`)) as Workflow;
}
