/**
 * A cdktf app's repository on GitHub, played on this machine for the CLI's workflows
 * (examples/github-actions/, docs/ci.md): commits in a real git repository whose `origin` is a bare
 * repository holding `main`, each workflow read from the tree GitHub reads it from (a pull
 * request's plan.yml from its head, review.yml, a workflow_run, from the default branch's tip,
 * apply.yml from the pushed commit), and GitHub's API answered from what the runs left: the review
 * runs' artifacts and conclusions, the merged pull requests. Runs with test/ci/workflow-runner.ts.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { artifactZip, runWorkflow, type Commit, type Reviewed, type RunEvent, type RunResult, type Workflow } from "./workflow-runner";

export type { Commit, Reviewed };


export interface CliRepositoryOptions {
  readonly root: string;
  readonly vars: Record<string, string>;
  /** The environment alert-rules's secrets. */
  readonly secrets: Record<string, string>;
  /** The repository's secrets (given to every job). @default {} */
  readonly repositorySecrets?: Record<string, string>;
  /** Extra environment of every step (PATH, HOME, git's identity). */
  readonly env: NodeJS.ProcessEnv;
}

const GIT_IDENTITY = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };
const REVIEW_PATH = ".github/workflows/alert-rule-users-review.yml";

/** The repository and the runs of its workflows. */
export class CliRepository {
  private readonly maker: string;
  private nextId = 2000;
  private orphans = 0;
  private readonly runs = new Map<number, { path: string; event: string; conclusion: string }>();
  private readonly artifacts: { id: number; name: string; dir: string; runId: number }[] = [];
  private readonly merged = new Map<string, { number: number; headSha: string }>();

  constructor(private readonly o: CliRepositoryOptions) {
    const origin = join(o.root, "origin.git");
    this.maker = join(o.root, "maker");
    mkdirSync(this.maker, { recursive: true });
    this.git(o.root, "init", "-q", "--bare", "-b", "main", origin);
    this.git(this.maker, "init", "-q", "-b", "main");
    this.git(this.maker, "remote", "add", "origin", origin);
  }

  private git(cwd: string, ...args: string[]): string {
    return execFileSync("git", args, { cwd, env: { ...process.env, ...GIT_IDENTITY }, encoding: "utf8" }).trim();
  }

  /**
   * A new commit: `parent`'s tree (or an empty one) with `edits` (a path's new content, or null to
   * delete it); `main`: pushed as the default branch's new tip.
   */
  commit(name: string, parent: Commit | null, edits: Record<string, string | Buffer | null>, options: { readonly main: boolean }): Commit {
    if (parent === null) {
      this.git(this.maker, "checkout", "-q", "--orphan", `orphan-${this.orphans++}`);
      this.git(this.maker, "rm", "-rqf", "--ignore-unmatch", ".");
    } else {
      this.git(this.maker, "checkout", "-q", "-f", "--detach", parent.sha);
    }
    this.git(this.maker, "clean", "-qfdx");
    for (const [path, content] of Object.entries(edits)) {
      const file = join(this.maker, path);
      if (content === null) rmSync(file, { recursive: true, force: true });
      else {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, content);
      }
    }
    this.git(this.maker, "add", "-A");
    this.git(this.maker, "commit", "-q", "--allow-empty", "-m", name);
    const sha = this.git(this.maker, "rev-parse", "HEAD");
    if (options.main) this.git(this.maker, "push", "-q", "-f", "origin", "HEAD:refs/heads/main");
    const dir = join(this.o.root, name);
    rmSync(dir, { recursive: true, force: true });
    cpSync(this.maker, dir, { recursive: true, verbatimSymlinks: true });
    return { sha, dir };
  }

  private event(extra: Partial<RunEvent> & Pick<RunEvent, "head">): RunEvent {
    return { vars: this.o.vars, secrets: this.o.secrets, repositorySecrets: this.o.repositorySecrets ?? {}, env: this.o.env, ...extra };
  }

  /** A workflow file as GitHub reads it from `commit`. */
  workflow(commit: Commit, name: string): Workflow {
    return parse(readFileSync(join(commit.dir, ".github", "workflows", `alert-rule-users-${name}.yml`), "utf8")) as Workflow;
  }

  /** A pull request from `head` into the default branch at `main`: plan.yml (the head's copy) runs, then review.yml (the default branch's) on its completion. */
  async pullRequest(number: number, head: Commit, main: Commit, options: { readonly fromFork?: boolean } = {}): Promise<Reviewed> {
    const plan = await runWorkflow(this.workflow(head, "plan"), this.event({ name: "pull_request", head: head.dir, base: main.dir, headSha: head.sha, baseSha: main.sha, number }));
    const planRunId = this.nextId++;
    this.runs.set(planRunId, { path: ".github/workflows/alert-rule-users-plan.yml", event: "pull_request", conclusion: concluded(plan) });
    const review = await runWorkflow(
      this.workflow(main, "review"),
      this.event({
        name: "workflow_run",
        head: main.dir,
        headSha: main.sha,
        trees: { [head.sha]: head.dir },
        workflowRun: { id: planRunId, event: "pull_request", headSha: head.sha, conclusion: concluded(plan) },
        earlierArtifacts: plan.artifacts,
        rest: { pulls: { get: () => Promise.resolve({ data: pullOf(number, head.sha, options.fromFork === true) }) } },
      }),
    );
    const reviewRunId = this.nextId++;
    this.runs.set(reviewRunId, { path: REVIEW_PATH, event: "workflow_run", conclusion: concluded(review) });
    for (const [name, dir] of Object.entries(review.artifacts)) this.artifacts.push({ id: this.nextId++, name, dir, runId: reviewRunId });
    // whatever the pull request's own run uploaded, under any name, is listed too (as GitHub lists it)
    for (const [name, dir] of Object.entries(plan.artifacts)) this.artifacts.push({ id: this.nextId++, name, dir, runId: planRunId });
    return { plan, review, comment: review.comments.at(-1) };
  }

  /** Pull request `number` (head `headSha`) merged as `merged`, a commit pushed to main. */
  merge(number: number, headSha: string, merged: Commit): void {
    this.merged.set(merged.sha, { number, headSha });
  }

  /** A push of `commit` to main after `before`: apply.yml, the commit's own copy. */
  push(commit: Commit, before: Commit): Promise<RunResult> {
    return runWorkflow(this.workflow(commit, "apply"), this.event({ name: "push", head: commit.dir, headSha: commit.sha, before: before.sha, rest: this.rest() }));
  }

  /** GitHub's API as apply.yml's script asks it, answered from what the runs left. */
  private rest(): NonNullable<RunEvent["rest"]> {
    const reply = (data: unknown) => Promise.resolve({ data });
    return {
      actions: {
        listArtifactsForRepo: (p) =>
          reply({ artifacts: this.artifacts.filter((a) => a.name === p["name"]).reverse().map((a) => ({ id: a.id, name: a.name, expired: false, workflow_run: { id: a.runId } })) }),
        getWorkflowRun: (p) => {
          const run = this.runs.get(Number(p["run_id"]));
          return run === undefined ? Promise.reject(new Error("Not Found")) : reply(run);
        },
        downloadArtifact: (p) => {
          const artifact = this.artifacts.find((a) => a.id === p["artifact_id"]);
          return artifact === undefined ? Promise.reject(new Error("Not Found")) : reply(artifactZip(artifact.dir));
        },
      },
      repos: {
        listPullRequestsAssociatedWithCommit: (p) => {
          const pull = this.merged.get(String(p["commit_sha"]));
          return reply(pull === undefined ? [] : [{ number: pull.number, merged_at: "2026-11-28T00:00:00Z", merge_commit_sha: p["commit_sha"], head: { sha: pull.headSha } }]);
        },
      },
    };
  }
}

/** What GitHub's pulls.get answers of an open pull request into o/r at `headSha`, from a branch of o/r or from a fork. */
const pullOf = (number: number, headSha: string, fromFork: boolean) => ({
  state: "open",
  number,
  head: { sha: headSha, repo: { full_name: fromFork ? "someone/r" : "o/r" } },
  base: { repo: { full_name: "o/r" } },
});

/** A run's conclusion as GitHub reports it: failure when any job failed. */
const concluded = (run: RunResult): string => (Object.values(run.jobs).includes("failure") ? "failure" : "success");
