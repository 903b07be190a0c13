/**
 * The example GitHub Actions workflows (examples/github-actions/, docs/ci.md; design §13.1): their
 * triggers, concurrency, environments and secrets, the wall between the pull request's run (no
 * secret) and the trusted review (the default branch's code, the pull request's upload as data),
 * the tarball check before every npm ci, and every `alert-rule-users <command> --flags` they run,
 * checked against the built CLI's own parser: `<command> <flags> --help` exits 0 only when the
 * command exists and takes every flag (and positional) given. Run step by step:
 * test/ci/plan-workflow-run.test.ts.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { buildPlan } from "../../src/core/engine/build-plan";
import { serializePlan } from "../../src/core/engine/plan-schema";
import { PLAN_COMMENT_MARKER } from "../../src/core/render";
import { REPO, runCli } from "../support/cli";

const DIR = join(REPO, "examples", "github-actions");

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  "continue-on-error"?: boolean;
}
interface Job {
  env?: Record<string, string>;
  environment?: string;
  permissions?: Record<string, string>;
  needs?: string | string[];
  if?: string;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILES = ["plan.yml", "review.yml", "apply.yml", "drift.yml"] as const;

const user = (userId: string) => ({ userId, aliases: [`${userId}@example.com`] });
const expiring = (userId: string, expiresAt: string) => ({ ...user(userId), expiresAt });
const entry = (userId: string) => ({ userId, aliases: [`${userId}@example.com`] });
const text = (file: string) => readFileSync(join(DIR, file), "utf8");
const load = (file: string) => parse(text(file)) as Workflow;

/** One invocation of the CLI in a `run:` script: the command and its arguments, as the shell would pass them. */
interface Invocation {
  file: string;
  line: string;
  args: string[];
}

const SHELL_STOP = /^(?:\d?>>?.*|<.*|\||\|\||&&|;|&|\))$/;

/** Splits the part of a line after `alert-rule-users` into words, stopping at redirections and operators. */
function words(rest: string): string[] {
  const out: string[] = [];
  for (const match of rest.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const word = match[1] ?? match[2] ?? match[3] ?? "";
    if (match[3] !== undefined && SHELL_STOP.test(word)) break;
    if (match[3] !== undefined && word.endsWith(";")) {
      out.push(word.slice(0, -1));
      break;
    }
    out.push(word);
  }
  return out;
}

/**
 * `$VAR` arguments: the flags the variable can hold, read from the job's or workflow's `env:`
 * (e.g. `${{ inputs.x && '--allow-mass-removal' || '' }}` holds `--allow-mass-removal` or nothing).
 */
function expand(word: string, env: Record<string, string>): string[] {
  const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(word);
  if (variable === null) return [word];
  const value = env[variable[1]!];
  if (value === undefined) throw new Error(`${word} is not set in the workflow's env`);
  const flags = [...value.matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0]);
  // a variable that can hold no flag is a value (a commit, a ref): the word stays as it is
  return flags.length === 0 ? [word] : flags;
}

function invocations(file: string): Invocation[] {
  const workflow = load(file);
  const found: Invocation[] = [];
  for (const job of Object.values(workflow.jobs)) {
    const env = { ...workflow.env, ...job.env };
    for (const step of job.steps) {
      if (step.run === undefined) continue;
      const script = step.run.replace(/\\\n/g, " ");
      for (const raw of script.split("\n")) {
        const line = raw.trim();
        if (line.startsWith("#")) continue;
        for (const match of line.matchAll(/\bnpx\s+(?:--no\s+--\s+)?alert-rule-users\s+(.*)$/g)) {
          found.push({ file, line, args: words(match[1] ?? "").flatMap((w) => expand(w, { ...env, ...step.env })) });
        }
      }
    }
  }
  return found;
}

/** Exit 0 only when the CLI's parser takes the command, every flag and every positional given. */
async function accepted(args: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const result = await runCli([...args, "--help"], { cwd: REPO });
  const command = args[0] ?? "";
  return { ok: result.code === 0 && result.stdout.startsWith(`Usage: alert-rule-users ${command}`), output: result.stdout + result.stderr };
}

describe("the example workflows", () => {
  it("plan.yml runs on pull requests; review.yml when a plan run completes; apply.yml on pushes to main and by hand; drift.yml on a schedule and by hand", () => {
    expect(Object.keys(load("plan.yml").on)).toEqual(["pull_request"]);
    // every pull request and every push: an app may read any file, so no path filter
    expect(load("plan.yml").on["pull_request"]).toBeNull();
    expect(load("review.yml").on).toEqual({ workflow_run: { workflows: [load("plan.yml").name], types: ["completed"] } });
    const apply = load("apply.yml").on as { push: { branches: string[]; paths?: unknown }; workflow_dispatch: unknown };
    expect(apply.push).toEqual({ branches: ["main"] });
    expect(Object.keys(apply)).toEqual(["push", "workflow_dispatch"]);
    const drift = load("drift.yml").on as { schedule: { cron: string }[]; workflow_dispatch: unknown };
    expect(drift.schedule.length).toBeGreaterThan(0);
    for (const s of drift.schedule) expect(s.cron.split(/\s+/)).toHaveLength(5);
    expect(Object.keys(drift)).toEqual(["schedule", "workflow_dispatch"]);
  });

  it("applies to one tenant never run at once: one queued, never-cancelled group per tenant", () => {
    const apply = load("apply.yml");
    expect(apply.concurrency).toEqual({ group: "alert-rule-users-apply-${{ vars.ALERTS_TENANT_ID }}", "cancel-in-progress": false });
    // the read-only workflows do not share it (a queued one would replace a queued apply)
    for (const file of ["plan.yml", "review.yml", "drift.yml"]) expect(load(file).concurrency?.group).not.toBe(apply.concurrency?.group);
  });

  /** The jobs of a workflow that read the service. */
  const serviceJobs = (file: string): Array<[string, Job]> => Object.entries(load(file).jobs).filter(([name]) => !["synth", "check"].includes(name));
  /** The review and apply workflows also carry the plan key, which signs (review) and checks (apply) the saved plan. */
  const secretsOf = (file: string): string[] =>
    file === "plan.yml" ? [] : file === "drift.yml" ? ["ALERTS_API_TOKEN", "ALERTS_CLIENT_SECRET"] : ["ALERTS_API_TOKEN", "ALERTS_CLIENT_SECRET", "ALERT_RULE_USERS_PLAN_KEY"];

  it.each(FILES)("%s takes the token (or the token command's client secret) from the environment alert-rules's secrets, into the job's environment only", (file) => {
    const uses = [...text(file).matchAll(/\$\{\{\s*secrets\.([A-Za-z_]+)\s*\}\}/g)].map((m) => m[1]);
    // the secrets, once per job that reads the service each (drift.yml has three jobs); none in plan.yml
    expect([...new Set(uses)]).toEqual(secretsOf(file));
    expect(uses).toHaveLength(secretsOf(file).length * (file === "plan.yml" ? 0 : serviceJobs(file).length));
    for (const [name, job] of Object.entries(load(file).jobs)) {
      const holds = JSON.stringify(job).includes("secrets.");
      // every job that names a secret names the environment whose deployment branches are the default branch
      expect(`${name}: ${holds ? job.environment : "no secret"}`).toBe(`${name}: ${serviceJobs(file).some(([n]) => n === name) ? "alert-rules" : "no secret"}`);
      if (!holds) continue;
      expect(job.env?.ALERTS_API_TOKEN).toBe("${{ secrets.ALERTS_API_TOKEN }}");
      expect(job.env?.ALERTS_CLIENT_SECRET).toBe("${{ secrets.ALERTS_CLIENT_SECRET }}");
      expect(job.env?.ALERTS_API_TOKEN_COMMAND).toBe("${{ vars.ALERTS_API_TOKEN_COMMAND }}");
    }
    for (const job of Object.values(load(file).jobs)) {
      for (const step of job.steps) {
        expect(step.run ?? "").not.toMatch(/secrets\.|ALERTS_API_TOKEN|--token/);
        expect(JSON.stringify(step.with ?? {})).not.toMatch(/secrets\.|ALERTS_API_TOKEN/);
      }
    }
  });

  /** What each job may do with the run's token. */
  const GRANTS: Record<string, string[]> = {
    "plan.yml:synth": ["contents"],
    "review.yml:check": ["actions", "pull-requests"],
    "review.yml:plan": ["actions", "contents", "pull-requests"],
    "apply.yml:apply": ["actions", "contents", "pull-requests"],
    "drift.yml:expire-check": ["contents"],
    "drift.yml:expire": ["contents"],
    "drift.yml:drift": ["contents", "issues"],
  };

  it.each(FILES)("%s: every job grants only what it uses; every checkout leaves no token in .git/config", (file) => {
    const workflow = load(file);
    expect(workflow.permissions).toEqual(file === "plan.yml" ? { contents: "read" } : {});
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(`${name}: ${JSON.stringify(Object.keys(job.permissions ?? {}).sort())}`).toBe(`${name}: ${JSON.stringify(GRANTS[`${file}:${name}`])}`);
      for (const step of job.steps.filter((s) => s.uses?.startsWith("actions/checkout@"))) expect(step.with?.["persist-credentials"]).toBe(false);
    }
    // the only write besides the plan comment is drift's issues
    expect(JSON.stringify(workflow.jobs)).not.toMatch(/"contents":"write"|"actions":"write"/);
  });

  it("plan.yml, the pull request's own run: no secret, no variable of the service; synthesizes the app and always uploads the outcome, what npm ci and synth said, the pull request and head, and the declarations", () => {
    const plan = load("plan.yml");
    expect(Object.keys(plan.jobs)).toEqual(["synth"]);
    const synth = plan.jobs["synth"]!;
    expect(text("plan.yml").replace(/#[^\n]*/g, "")).not.toMatch(/secrets\.|vars\.|ALERTS_|environment:/);
    expect(invocations("plan.yml").map((c) => c.args)).toEqual([["synth", "--output", "$out/cdktf.out"]]);
    const script = synth.steps.map((s) => s.run ?? "").join("\n");
    expect(script).toContain('> "$out/pr.json"');
    expect(script).toContain('echo "$outcome" > "$out/outcome"');
    expect(script).toMatch(/\} > "\$out\/evaluation\.log" 2>&1 \|\| true/);
    const upload = synth.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.if).toBe("always()");
    expect(upload?.with).toMatchObject({ name: "alert-rule-users-synth", path: "alert-rule-users-synth" });
  });

  it("review.yml, the trusted half: the check (no secret) verifies the upload's pull request and head with GitHub's API; the plan job runs only the default branch's code and reads the upload as data", () => {
    const review = load("review.yml");
    expect(Object.keys(review.jobs)).toEqual(["check", "plan"]);
    const check = review.jobs["check"]!;
    expect(check.if).toBe("github.event.workflow_run.event == 'pull_request' && github.event.workflow_run.conclusion != 'cancelled'");
    expect(JSON.stringify(check)).not.toMatch(/secrets\.|environment/);
    const checkScript = String(check.steps.find((s) => s.uses?.startsWith("actions/github-script@"))?.with?.["script"]);
    expect(checkScript).toContain("claimed?.headSha !== run.head_sha");
    expect(checkScript).toContain("github.rest.pulls.get");
    expect(checkScript).toContain("pull.head.sha !== run.head_sha");
    const plan = review.jobs["plan"]!;
    expect(plan.needs).toBe("check");
    expect(plan.environment).toBe("alert-rules");
    // the default branch's checkout (no ref), the pull request's upload downloaded from its run, as data
    expect(plan.steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with).toEqual({ "persist-credentials": false });
    expect(plan.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"))?.with).toEqual({
      name: "alert-rule-users-synth",
      path: "pull-request",
      "run-id": "${{ github.event.workflow_run.id }}",
      "github-token": "${{ github.token }}",
    });
    const script = plan.steps.map((s) => s.run ?? "").join("\n");
    expect(script).not.toMatch(/(bash|node|sh|source|\.) +\S*pull-request\/|pull-request\/\S*\.(js|sh|ts)\b|cd pull-request/);
    const args = invocations("review.yml").map((c) => c.args);
    expect(args).toEqual([
      ["plan", "--skip-synth", "--output", "pull-request/cdktf.out", "--changed-since", "HEAD", "--format", "markdown", "--out", "reviewed/plan.json", "--detailed-exitcode"],
      ["show", "--evaluation", "pull-request", "--format", "markdown"],
    ]);
    // no plan without the key; the tarballs checked before npm ci; the default branch without an app, and forks, commented
    expect(script.indexOf("ALERT_RULE_USERS_PLAN_KEY")).toBeLessThan(script.indexOf("npm ci"));
    expect(script.indexOf('node -e "$CHECK_TARBALLS"')).toBeLessThan(script.indexOf("npm ci"));
    expect(script.indexOf("[ ! -f package-lock.json ]")).toBeLessThan(script.indexOf('node -e "$CHECK_TARBALLS"'));
    expect(script).toContain("Not planned: the default branch has no app yet");
    expect(script).toContain("Not planned: this pull request comes from a fork.");
    const comment = String(plan.steps.find((s) => s.uses?.startsWith("actions/github-script@"))?.with?.["script"]);
    expect(comment).toContain(`const marker = "${PLAN_COMMENT_MARKER}"`);
    expect(comment).toMatch(/updateComment[\s\S]*createComment/);
    expect(comment).toContain("lists read");
    const upload = plan.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with).toMatchObject({ name: "alert-rule-users-reviewed-plan-${{ needs.check.outputs.number }}-${{ needs.check.outputs.head-sha }}", path: "reviewed" });
    expect(upload?.if).toBe("steps.plan.outputs.exitcode == '0' || steps.plan.outputs.exitcode == '2'");
  });

  it.each(FILES)("every alert-rule-users invocation in %s names a command and flags the CLI accepts", async (file) => {
    const found = invocations(file);
    expect(found.length).toBeGreaterThan(0);
    for (const invocation of found) {
      const { ok, output } = await accepted(invocation.args);
      if (!ok) throw new Error(`${file}: '${invocation.line}' is not accepted by the CLI:\n${output}`);
    }
  });

  it("the check itself refuses an unknown flag, an unexpected argument and an unknown command", async () => {
    expect((await accepted(["plan", "--format", "markdown", "--detailed-exitcode"])).ok).toBe(true);
    expect((await accepted(["plan", "--detailed-exit-code"])).ok).toBe(false);
    expect((await accepted(["plan", "plan.json"])).ok).toBe(false);
    expect((await accepted(["apply", "plan.json", "--report-jsonn", "r.json"])).ok).toBe(false);
    expect((await accepted(["deploy"])).ok).toBe(false);
    expect(words(`plan --format markdown --out "plan file.json" > plan.md 2> err`)).toEqual(["plan", "--format", "markdown", "--out", "plan file.json"]);
    expect(expand("$FLAG", { FLAG: "${{ inputs.x && '--allow-mass-removal' || '' }}" })).toEqual(["--allow-mass-removal"]);
    expect(expand("$BASE_SHA", { BASE_SHA: "${{ github.event.pull_request.base.sha }}" })).toEqual(["$BASE_SHA"]);
  });

  it.each(FILES)("%s: every npm ci comes after the check of the tarballs its lock installs, the same check in every file", (file) => {
    const workflow = load(file);
    expect(workflow.env?.["CHECK_TARBALLS"]).toBe(load("plan.yml").env?.["CHECK_TARBALLS"]);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const script = job.steps.map((s) => s.run ?? "").join("\n");
      const install = script.indexOf("npm ci");
      if (install < 0) continue;
      expect(`${name}: ${script.indexOf('node -e "$CHECK_TARBALLS"') >= 0 && script.indexOf('node -e "$CHECK_TARBALLS"') < install}`).toBe(`${name}: true`);
    }
  });

  it.each(FILES)("%s cites only docs that exist, and no design.md", (file) => {
    expect(text(file)).not.toMatch(/design\.md/);
    const cited = [...text(file).matchAll(/\bdocs\/[\w/.-]+\.md\b/g)].map((m) => m[0]);
    expect(cited.length).toBeGreaterThan(0);
    for (const doc of cited) expect(`${doc}: ${existsSync(join(REPO, doc))}`).toBe(`${doc}: true`);
  });
});

describe("the tarball check before npm ci (CHECK_TARBALLS), run with node", () => {
  const script = String(load("plan.yml").env?.["CHECK_TARBALLS"]);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-tarball-check-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const lock = (entries: Record<string, { resolved: string; integrity?: string }>) =>
    writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": {}, ...Object.fromEntries(Object.entries(entries).map(([k, v]) => [`node_modules/${k}`, { version: "1.0.0", ...v }])) } }));
  const sha512 = (bytes: Buffer) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const check = () => spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8" });

  it("passes the tarballs the lock records (and ignores registry packages and directories)", () => {
    writeFileSync(join(dir, "alert-rule-users-0.1.0.tgz"), "release 0.1.0");
    lock({ "alert-rule-users": { resolved: "file:alert-rule-users-0.1.0.tgz", integrity: sha512(Buffer.from("release 0.1.0")) }, other: { resolved: "https://registry.npmjs.org/other/-/other-1.0.0.tgz" }, local: { resolved: "file:local" } });
    const run = check();
    expect(run.stdout).toBe("");
    expect(run.status).toBe(0);
  });

  it.each<[string, () => void, RegExp]>([
    ["a tarball replaced under the same name", () => {
      writeFileSync(join(dir, "alert-rule-users-0.1.0.tgz"), "release 0.2.0");
      lock({ "alert-rule-users": { resolved: "file:alert-rule-users-0.1.0.tgz", integrity: sha512(Buffer.from("release 0.1.0")) } });
    }, /::error::alert-rule-users-0\.1\.0\.tgz \(node_modules\/alert-rule-users\) is not the file package-lock\.json records/],
    ["a tarball the lock records no sha512 for", () => {
      writeFileSync(join(dir, "a.tgz"), "x");
      lock({ a: { resolved: "file:a.tgz" } });
    }, /::error::a\.tgz \(node_modules\/a\): package-lock\.json records no sha512 integrity for it/],
    ["a tarball that is not there", () => lock({ a: { resolved: "file:gone.tgz", integrity: "sha512-x" } }), /::error::gone\.tgz \(node_modules\/a\) cannot be read: ENOENT/],
    ["no package-lock.json at all", () => undefined, /::error::There is no package-lock\.json/],
  ])("refuses %s, saying how to fix it", (_case, given, says) => {
    given();
    const run = check();
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(says);
    if (!/no package-lock/.test(run.stdout)) expect(run.stdout).toContain("give each release its own file name (npm pack writes alert-rule-users-VERSION.tgz) and run `npm install ./alert-rule-users-VERSION.tgz`");
  });
});

describe("apply.yml and drift.yml", () => {
  it("apply.yml: applies only the reviewed plan the review workflow made, and only the declarations it covered; never re-plans from main on a push", () => {
    const apply = load("apply.yml");
    const steps = apply.jobs["apply"]!.steps;
    const find = String(steps.find((s) => s.uses?.startsWith("actions/github-script@"))?.with?.["script"]);
    // the reviewed plan by the name review.yml gives it, from a successful run of review.yml only
    expect(find).toContain("const name = `alert-rule-users-reviewed-plan-${pr.number}-${pr.head.sha}`;");
    expect(find).toContain('const REVIEW = ".github/workflows/alert-rule-users-review.yml";');
    expect(find).toContain('run.path === REVIEW && run.event === "workflow_run" && run.conclusion === "success"');
    expect(find).toMatch(/listArtifactsForRepo[\s\S]*getWorkflowRun[\s\S]*downloadArtifact[\s\S]*unzip/);
    expect(steps.some((s) => s.uses?.startsWith("actions/download-artifact@"))).toBe(false);
    const args = invocations("apply.yml").map((c) => c.args);
    // the reviewed plan, with the declarations of the pushed commit compared with those it covered
    expect(args).toContainEqual(expect.arrayContaining(["apply", "reviewed/plan.json", "--require-declarations", "--report-json", "--report-markdown"]));
    // no apply of a fresh plan outside the run by hand; the only plan (no reviewed plan) writes nothing
    expect(args.filter((a) => a[0] === "plan")).toEqual([["plan", "--changed-since", "$BEFORE", "--detailed-exitcode", "--format", "markdown"]]);
    const script = steps.find((s) => s.id === "apply")?.run ?? "";
    const fresh = script.indexOf("apply --auto-approve");
    expect(fresh).toBeGreaterThan(-1);
    expect(script.slice(0, fresh)).toMatch(/if \[ "\$EVENT" = workflow_dispatch \]; then\s*(#.*\s*)*npx --no -- alert-rule-users $/);
    expect(script.match(/apply --auto-approve/g)).toHaveLength(1);
    expect(apply.jobs["apply"]!.env?.["EVENT"]).toBe("${{ github.event_name }}");
    expect(script).toContain("UNREVIEWED_DECLARATIONS");
    // every apply writes only while the run's commit is main's tip, fetched right before
    expect(args.filter((a) => a[0] === "apply").every((a) => a.join(" ").includes("--require-tip origin/main"))).toBe(true);
    expect(steps.findIndex((s) => (s.run ?? "").includes("git fetch --no-tags --depth=1 origin \"+refs/heads/main:refs/remotes/origin/main\""))).toBe(steps.findIndex((s) => s.id === "apply") - 1);
    expect(steps.some((s) => (s.run ?? "").includes("$GITHUB_STEP_SUMMARY") && s.if === "always()")).toBe(true);
    expect(steps.at(-1)?.if).toBe("steps.apply.outputs.exitcode != '0'");
  });

  it("apply.yml's Apply step, run with bash: a push without a reviewed plan sends nothing and fails; a refused plan is not followed by any other apply; an already applied plan passes", () => {
    const script = load("apply.yml").jobs["apply"]!.steps.find((s) => s.id === "apply")?.run ?? "";
    const dir = mkdtempSync(join(tmpdir(), "aru-apply-step-"));
    try {
      // a stand-in npx that records its arguments and answers as the CLI would
      const bin = join(dir, "bin");
      mkdirSync(bin);
      writeFileSync(
        join(bin, "npx"),
        '#!/bin/sh\necho "$*" >> "$CALLS"\nif [ "$ANSWER" = refused ]; then echo \'{"refusal":{"code":"UNREVIEWED_DECLARATIONS"}}\' > apply-report.json; exit 1; fi\necho "Already applied: nothing to do, nothing was sent."\n',
        { mode: 0o755 },
      );
      const run = (withPlan: boolean, answer: string) => {
        rmSync(join(dir, "reviewed"), { recursive: true, force: true });
        if (withPlan) {
          mkdirSync(join(dir, "reviewed"));
          writeFileSync(join(dir, "reviewed", "plan.json"), "{}");
        }
        writeFileSync(join(dir, "calls"), "");
        writeFileSync(join(dir, "out"), "");
        const result = spawnSync("bash", ["-e", "-c", script], {
          cwd: dir,
          encoding: "utf8",
          env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, EVENT: "push", BEFORE: "", MASS_REMOVAL_FLAG: "", ANSWER: answer, CALLS: join(dir, "calls"), GITHUB_OUTPUT: join(dir, "out"), GITHUB_STEP_SUMMARY: join(dir, "summary") },
        });
        return { stdout: result.stdout, calls: readFileSync(join(dir, "calls"), "utf8").trim().split("\n").filter((l) => l !== ""), out: readFileSync(join(dir, "out"), "utf8") };
      };
      const none = run(false, "refused");
      expect(none.calls).toEqual([]);
      expect(none.out).toBe("exitcode=1\n");
      expect(none.stdout).toContain("::error::No reviewed plan");
      const refused = run(true, "refused");
      expect(refused.calls).toHaveLength(1);
      expect(refused.calls[0]).toContain("apply reviewed/plan.json --require-declarations");
      expect(refused.out).toBe("exitcode=1\n");
      expect(refused.stdout).toContain("::error::The reviewed plan was refused");
      const again = run(true, "already-applied");
      expect(again.calls).toHaveLength(1);
      expect(again.out).toBe("exitcode=0\n");
      expect(again.stdout).toContain("Already applied");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("drift.yml: applies expiries only, as a saved plan, inside the tenant's apply group, before the drift check", () => {
    const drift = load("drift.yml");
    expect(Object.keys(drift.jobs)).toEqual(["expire-check", "expire", "drift"]);
    const expire = drift.jobs["expire"] as Job & { concurrency?: unknown; needs?: unknown; if?: string };
    expect(expire.concurrency).toEqual(load("apply.yml").concurrency);
    expect(expire.if).toBe("needs.expire-check.outputs.expiry-only == 'true'");
    const args = invocations("drift.yml").map((c) => c.args);
    expect(args).toContainEqual(["plan", "--format", "json"]);
    expect(args).toContainEqual(["plan", "--format", "json", "--out", "expire-plan.json"]);
    expect(args).toContainEqual(["apply", "expire-plan.json", "--report-markdown", "expire-report.md"]);
    const script = expire.steps.map((step) => step.run ?? "").join("\n");
    expect(script.indexOf('jq -e "$EXPIRY_ONLY" expire-plan.json')).toBeLessThan(script.indexOf("alert-rule-users apply expire-plan.json"));
    expect((drift.jobs["drift"] as Job & { needs?: unknown }).needs).toEqual(["expire-check", "expire"]);
  });

  it.each([
    ["applies when only expired users are removed", [expiring("u1", "2026-01-01")], [entry("u1"), entry("u2")], [user("u2")], true],
    ["does not apply when there is nothing to do", [], [entry("u2")], [user("u2")], false],
    ["does not apply an expiry with an undeclared user removed", [expiring("u1", "2026-01-01")], [entry("u1"), entry("u2"), entry("u9")], [user("u2")], false],
    ["does not apply an expiry with a user added", [expiring("u1", "2026-01-01")], [entry("u1")], [user("u2")], false],
    ["does not apply when every declared user expired (the list would be emptied)", [expiring("u1", "2026-01-01")], [entry("u1")], [], false],
  ])("drift.yml's EXPIRY_ONLY filter (jq) %s", (_case, expired, observed, others, applies) => {
    // given a JSON plan on 2026-02-01
    const plan = buildPlan({
      declarations: [{ constructPath: "s/list", stack: "s", ruleId: "r1", ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [...expired, ...others] }],
      observations: [{ kind: "found", rule: { observerRuleId: "r1", name: "R", isSystem: false, ruleSource: "Alerting" }, list: { usersToAlertOn: "SPECIFIED_USERS", entries: observed } }],
      connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
      createdAt: "2026-02-01T00:00:00.000Z",
      toolVersion: "0.0.0-test",
    });
    // when the workflow's filter reads it
    const filter = String(load("drift.yml").env?.["EXPIRY_ONLY"]);
    const result = spawnSync("jq", ["-e", filter], { input: serializePlan(plan), encoding: "utf8" });
    // then
    expect(result.error).toBeUndefined();
    expect(result.stdout.trim()).toBe(String(applies));
    expect(result.status).toBe(applies ? 0 : 1);
  });

  it("drift.yml: plans with a detailed exit code and opens, updates or closes one issue labelled drift", () => {
    expect(invocations("drift.yml").map((c) => c.args)).toContainEqual(["plan", "--format", "markdown", "--detailed-exitcode"]);
    const script = String(load("drift.yml").jobs["drift"]!.steps.find((s) => s.uses?.startsWith("actions/github-script@"))?.with?.["script"]);
    expect(script).toContain(`const label = "drift"`);
    expect(script).toMatch(/EXITCODE === "2"/);
    expect(script).toContain("issues.create(");
    expect(script).toContain("issues.update(");
    expect(script).toContain(`state: "closed"`);
  });
});
