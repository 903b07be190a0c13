/**
 * A Terraform team's CI, played on this machine (docs/provider-workflows.md): a repository laid out
 * as the README's quick start writes it (`init --hcl alert-rules --workflows`, the lock committed,
 * a `pg` backend), the release served over HTTPS as a network mirror (a throwaway CA), this
 * package on no npm registry, and runners without Node.js. Each workflow is read from the tree
 * GitHub reads it from: a pull request's plan.yml from its head, review.yml (a workflow_run) from
 * the default branch, apply.yml from the pushed commit. GitHub's API is played from what the runs
 * left: the review runs' artifacts, the merged pull requests, the successful applies. Runs of one
 * concurrency group wait for each other, as GitHub queues them.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { parse } from "yaml";
import { CLI, REPO, runCommand } from "../support/cli";
import { startPostgres, type Postgres } from "../support/postgres";
import { startListener, type Listener } from "../ci/planted-token";
import { artifactZip, runWorkflow, type Commit, type Reviewed, type RunEvent, type RunResult, type Workflow } from "../ci/workflow-runner";

export type { Commit, Reviewed };
import { MINUTES, explain, terraform } from "./support";
import { buildRelease, serveRelease, type ServedRelease } from "./support-release";

interface ReviewArtifact {
  readonly id: number;
  readonly name: string;
  readonly dir: string;
  readonly runId: number;
}

const sha = (text: string): string => createHash("sha1").update(text).digest("hex");

export interface TeamCiOptions {
  readonly root: string;
  readonly release: ServedRelease;
  readonly pg: Postgres;
  readonly sim: { readonly url: string; readonly tenantId: string };
  readonly token: string;
  readonly planKey: string;
  /** Extra environment of every step (HOME, PATH). */
  readonly env: NodeJS.ProcessEnv;
}

/** The team's repository and the runs of its workflows. */
export class TeamCi {
  private nextRun = 1000;
  private readonly reviewArtifacts: ReviewArtifact[] = [];
  private readonly mergedPulls = new Map<string, { number: number; headSha: string }>();
  private readonly mainShas: string[] = [];
  private readonly appliedShas: string[] = [];
  private readonly groups = new Map<string, Promise<unknown>>();

  constructor(private readonly o: TeamCiOptions) {}

  /** The quick start's repository: init --hcl alert-rules --workflows, both locks, a pg backend, terraform.d/ left out (git-ignored). */
  async initialCommit(): Promise<Commit> {
    const dir = join(this.o.root, "initial");
    mkdirSync(dir, { recursive: true });
    spawnSync("git", ["init", "-q"], { cwd: dir });
    const init = await runCommand(process.execPath, [CLI, "init", "--hcl", "alert-rules", "--workflows"], { cwd: dir, env: { ...this.o.env }, timeoutMs: 10 * MINUTES });
    if (init.code !== 0) throw new Error(explain("init --hcl --workflows", init));
    rmSync(join(dir, ".git"), { recursive: true, force: true });
    rmSync(join(dir, "alert-rules", "terraform.d"), { recursive: true, force: true });
    // The configuration's lock, as the README says: from the release's mirror, every platform.
    const lock = await terraform(["providers", "lock", `-net-mirror=${this.o.release.url}`, ...["linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64", "windows_amd64"].map((p) => `-platform=${p}`), "-no-color"], join(dir, "alert-rules"), {
      ...this.o.env,
      SSL_CERT_FILE: this.o.release.ca,
    });
    if (lock.code !== 0) throw new Error(explain("terraform providers lock", lock));
    const main = readFileSync(join(dir, "alert-rules", "main.tf"), "utf8").replace("terraform {\n", 'terraform {\n  backend "pg" {}\n');
    writeFileSync(join(dir, "alert-rules", "main.tf"), main);
    const commit = { sha: sha("initial"), dir };
    this.mainShas.push(commit.sha);
    return commit;
  }

  /** A new commit: `from`'s tree with `edits` (a path's new content, or null to delete it), formatted as terraform fmt would. */
  commit(name: string, from: Commit, edits: Record<string, string | null>): Commit {
    const dir = join(this.o.root, name);
    rmSync(dir, { recursive: true, force: true });
    cpSync(from.dir, dir, { recursive: true });
    for (const [path, content] of Object.entries(edits)) {
      const file = join(dir, path);
      if (content === null) rmSync(file, { recursive: true, force: true });
      else {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, content);
      }
    }
    spawnSync("terraform", ["fmt", "-recursive", join(dir, "alert-rules")], { encoding: "utf8" });
    return { sha: sha(name), dir };
  }

  private vars(): Record<string, string> {
    return { ALERTS_API_URL: this.o.sim.url, ALERTS_TENANT_ID: this.o.sim.tenantId, ALERT_RULE_USERS_PROVIDER_MIRROR: this.o.release.url };
  }

  /** The environment's secrets: only jobs that name the environment get them. */
  private secrets(): Record<string, string> {
    return { ALERTS_API_TOKEN: this.o.token, ALERT_RULE_USERS_PLAN_KEY: this.o.planKey, PG_CONN_STR: this.o.pg.connStr };
  }

  private event(extra: Partial<RunEvent> & Pick<RunEvent, "head">): RunEvent {
    return { vars: this.vars(), secrets: this.secrets(), env: { ...this.o.env, SSL_CERT_FILE: this.o.release.ca }, withoutNode: true, ...extra };
  }

  /** A workflow file as GitHub reads it from `commit`. */
  private workflow(commit: Commit, name: string): Workflow {
    return parse(readFileSync(join(commit.dir, ".github", "workflows", `alert-rule-users-terraform-${name}.yml`), "utf8")) as Workflow;
  }

  /** Runs `run` after every earlier run of `group` (GitHub's concurrency groups, cancel-in-progress false). */
  private async inGroup<T>(group: string, run: () => Promise<T>): Promise<T> {
    const before = this.groups.get(group) ?? Promise.resolve();
    const mine = before.then(run, run);
    this.groups.set(group, mine.catch(() => undefined));
    return mine;
  }

  /** A pull request from `head` into `base`: plan.yml (the head's file) runs, then review.yml (the default branch's) on its completion. */
  async pullRequest(number: number, head: Commit, base: Commit, options: { readonly fromFork?: boolean } = {}): Promise<Reviewed> {
    const plan = await runWorkflow(this.workflow(head, "plan"), this.event({ name: "pull_request", head: head.dir, base: base.dir, headSha: head.sha, baseSha: base.sha, number }));
    const planRunId = this.nextRun++;
    const pull = { state: "open", number, head: { sha: head.sha, repo: { full_name: options.fromFork === true ? "someone/fork" : "o/r" } }, base: { repo: { full_name: "o/r" } } };
    const review = await runWorkflow(
      this.workflow(base, "review"),
      this.event({
        name: "workflow_run",
        head: base.dir,
        headSha: base.sha,
        trees: { [head.sha]: head.dir },
        workflowRun: { id: planRunId, event: "pull_request", headSha: head.sha, conclusion: plan.jobs["evaluate"] === "success" ? "success" : "failure" },
        earlierArtifacts: plan.artifacts,
        rest: { pulls: { get: () => Promise.resolve({ data: pull }) } },
      }),
    );
    const reviewRunId = this.nextRun++;
    for (const [name, dir] of Object.entries(review.artifacts)) {
      if (name.startsWith("alert-rule-users-reviewed-plan-")) this.reviewArtifacts.push({ id: this.nextRun++, name, dir, runId: reviewRunId });
    }
    return { plan, review, comment: review.comments.at(-1) };
  }

  /** Merges `number` (head `headSha`) as `merged`, a commit on the default branch. */
  merge(number: number, headSha: string, merged: Commit): void {
    this.mainShas.push(merged.sha);
    this.mergedPulls.set(merged.sha, { number, headSha });
  }

  /** A push of `commit` to the default branch: apply.yml (the commit's own file), queued in its concurrency group. */
  async push(commit: Commit, options: { readonly onSpawn?: RunEvent["onSpawn"] } = {}): Promise<RunResult> {
    return this.inGroup("apply", async () => {
      const result = await runWorkflow(this.workflow(commit, "apply"), this.event({ name: "push", head: commit.dir, headSha: commit.sha, rest: this.rest(), ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }) }));
      if (result.jobs["apply"] === "success") this.appliedShas.push(commit.sha);
      return result;
    });
  }

  /** drift.yml of the default branch's commit, on a schedule. */
  drift(commit: Commit): Promise<RunResult> {
    return runWorkflow(this.workflow(commit, "drift"), this.event({ name: "schedule", head: commit.dir, headSha: commit.sha }));
  }

  /** GitHub's API as the apply job's script asks it, answered from what the runs left. */
  private rest(): NonNullable<RunEvent["rest"]> {
    const reply = (data: unknown) => Promise.resolve({ data });
    return {
      actions: {
        listWorkflowRuns: () => reply({ workflow_runs: this.appliedShas.slice(-1).map((head_sha) => ({ head_sha })) }),
        listArtifactsForRepo: (p) => reply({ artifacts: this.reviewArtifacts.filter((a) => a.name === p["name"]).map((a) => ({ id: a.id, name: a.name, expired: false, workflow_run: { id: a.runId } })) }),
        getWorkflowRun: () => reply({ path: ".github/workflows/alert-rule-users-terraform-review.yml", event: "workflow_run", conclusion: "success" }),
        downloadArtifact: (p) => {
          const artifact = this.reviewArtifacts.find((a) => a.id === p["artifact_id"]);
          if (artifact === undefined) return Promise.reject(new Error("Not Found"));
          return reply(artifactZip(artifact.dir));
        },
      },
      repos: {
        compareCommitsWithBasehead: (p) => {
          const [from, to] = String(p["basehead"]).split("...");
          const start = this.mainShas.indexOf(from!);
          const end = this.mainShas.indexOf(to!);
          return reply({ commits: this.mainShas.slice(start + 1, end + 1).map((s) => ({ sha: s })) });
        },
        listPullRequestsAssociatedWithCommit: (p) => {
          const pull = this.mergedPulls.get(String(p["commit_sha"]));
          return reply(pull === undefined ? [] : [{ number: pull.number, merged_at: "2026-11-28T00:00:00Z", merge_commit_sha: p["commit_sha"], head: { sha: pull.headSha } }]);
        },
      },
    };
  }

  /** `terraform ARGS` on `commit` as a person on main would run it: the team's backend, the mirror, the token. */
  async terraformOn(commit: Commit, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const dir = join(this.o.root, `main-${commit.sha.slice(0, 7)}-${this.nextRun++}`);
    cpSync(commit.dir, dir, { recursive: true });
    const rc = join(dir, "person.tfrc");
    writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = ${JSON.stringify(this.o.release.url)}\n  }\n}\n`);
    const env = { ...this.o.env, TF_CLI_CONFIG_FILE: rc, SSL_CERT_FILE: this.o.release.ca, PG_CONN_STR: this.o.pg.connStr, ALERTS_API_URL: this.o.sim.url, ALERTS_API_TOKEN: this.o.token, ALERTS_TENANT_ID: this.o.sim.tenantId, TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
    const init = await terraform(["init", "-input=false", "-no-color", "-lockfile=readonly"], join(dir, "alert-rules"), env);
    if (init.code !== 0) throw new Error(explain("terraform init (main)", init));
    return terraform([...args, "-no-color"], join(dir, "alert-rules"), env);
  }
}


/** What a team-CI test file works with: the repository's CI, its first commit, and the planted places. */
export interface TeamCiSetup {
  readonly ci: TeamCi;
  /** The quick start's first commit (each test moves its own `main` on from it). */
  readonly initial: Commit;
  readonly root: string;
  readonly pg: Postgres;
  readonly listener: Listener;
}

/**
 * The hooks of a team-CI test file: the release built into `.tmp/<name>` and served over HTTPS, a
 * throwaway PostgreSQL, a listener standing for another host, and the quick start's repository;
 * all torn down after the file. Read the setup inside a test (it is made in beforeAll).
 */
export function useTeamCi(name: string, sim: { readonly url: string; readonly tenantId: string }, secrets: { readonly token: string; readonly planKey: string }): () => TeamCiSetup {
  let setup: TeamCiSetup | undefined;
  let release: ServedRelease | undefined;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), `aru-${name}-`));
    const dir = join(REPO, ".tmp", `${name}-release`);
    await buildRelease(dir);
    release = await serveRelease(dir, join(root, "pki"));
    const pg = await startPostgres();
    const listener = await startListener();
    const ci = new TeamCi({ root, release, pg, sim, token: secrets.token, planKey: secrets.planKey, env: { PATH: process.env["PATH"], HOME: root, CHECKPOINT_DISABLE: "1" } });
    setup = { ci, initial: await ci.initialCommit(), root, pg, listener };
  }, 15 * MINUTES);
  afterAll(async () => {
    await setup?.listener.close();
    await release?.close();
    setup?.pg.stop();
    if (setup !== undefined) rmSync(setup.root, { recursive: true, force: true });
  });
  return () => {
    if (setup === undefined) throw new Error("the team CI is set up in beforeAll: read it inside a test");
    return setup;
  };
}
