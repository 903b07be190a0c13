/**
 * The example GitHub Actions workflows (examples/github-actions/, docs/ci.md): their triggers,
 * concurrency and secrets, and every `alert-rule-users <command> --flags` they run, checked
 * against the built CLI's own parser: `<command> <flags> --help` exits 0 only when the command
 * exists and takes every flag (and positional) given.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

const FILES = ["plan.yml", "apply.yml", "drift.yml"] as const;

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
  it("plan.yml runs on pull requests; apply.yml on pushes to main; drift.yml on a schedule and by hand", () => {
    expect(Object.keys(load("plan.yml").on)).toEqual(["pull_request"]);
    const apply = load("apply.yml").on as { push: { branches: string[] }; workflow_dispatch: unknown };
    expect(apply.push.branches).toEqual(["main"]);
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
    for (const file of ["plan.yml", "drift.yml"]) expect(load(file).concurrency?.group).not.toBe(apply.concurrency?.group);
  });

  /** The jobs of a workflow that read the service (every job but plan.yml's synth job). */
  const serviceJobs = (file: string): Array<[string, Job]> => Object.entries(load(file).jobs).filter(([name]) => !(file === "plan.yml" && name === "synth"));
  /** The plan and apply workflows also carry the plan key, which signs (plan) and checks (apply) the saved plan. */
  const secretsOf = (file: string): string[] => (file === "drift.yml" ? ["ALERTS_API_TOKEN", "ALERTS_CLIENT_SECRET"] : ["ALERTS_API_TOKEN", "ALERTS_CLIENT_SECRET", "ALERT_RULE_USERS_PLAN_KEY"]);

  it.each(FILES)("%s takes the token (or the token command's client secret) from secrets, into the environment only", (file) => {
    const uses = [...text(file).matchAll(/\$\{\{\s*secrets\.([A-Za-z_]+)\s*\}\}/g)].map((m) => m[1]);
    // the secrets, once per job that reads the service each (drift.yml has three jobs)
    expect([...new Set(uses)]).toEqual(secretsOf(file));
    expect(uses).toHaveLength(secretsOf(file).length * serviceJobs(file).length);
    for (const [, job] of serviceJobs(file)) {
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

  it("plan.yml: the job that runs the pull request's code holds no secret; the job that reads the service runs none of it", () => {
    const plan = load("plan.yml");
    expect(Object.keys(plan.jobs)).toEqual(["synth", "plan"]);
    const synth = plan.jobs["synth"] as Job & { permissions?: Record<string, string> };
    const reader = plan.jobs["plan"] as Job & { permissions?: Record<string, string>; needs?: unknown };
    // synth: the pull request's checkout, npm ci and the app; no secret, no variable of the service, read-only token, none left in .git
    expect(JSON.stringify(synth)).not.toMatch(/secrets\.|vars\.|ALERTS_/);
    expect(synth.permissions).toEqual({ contents: "read" });
    expect(synth.steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with).toEqual({ "persist-credentials": false });
    expect(invocations("plan.yml").filter((c) => c.args[0] === "synth").map((c) => c.args)).toEqual([["synth", "--output", "cdktf.out"]]);
    const upload = synth.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.["name"]).toBe("alert-rule-users-synth");
    // plan: after synth; checks out the base commit named by the event (never an output of the synth job)
    expect(reader.needs).toBe("synth");
    const checkout = reader.steps.find((s) => s.uses?.startsWith("actions/checkout@"));
    expect(checkout?.with).toEqual({ ref: "${{ github.event.pull_request.base.sha }}", "persist-credentials": false });
    expect(JSON.stringify(reader)).not.toContain("needs.synth.outputs");
    const download = reader.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download?.with).toEqual({ name: "alert-rule-users-synth", path: "pr-synth" });
    // the service is read on the synth job's output, never by synthesizing the pull request here
    const plans = invocations("plan.yml").filter((c) => c.args[0] === "plan").map((c) => c.args);
    expect(plans).toEqual([["plan", "--skip-synth", "--output", "pr-synth", "--changed-since", "$BASE_SHA", "--format", "markdown", "--out", "plan.json", "--detailed-exitcode"]]);
    expect(reader.steps.find((s) => s.id === "plan")?.env?.["BASE_SHA"]).toBe("${{ github.event.pull_request.base.sha }}");
    // no step of the reading job runs anything from the pull request's tree (its files are not there)
    const runs = reader.steps.map((s) => s.run ?? "").join("\n");
    expect(runs).not.toMatch(/pr-synth\/.*\.(js|sh|ts)|node pr-synth|bash pr-synth/);
    // the workflow grants no write beyond the comment
    expect(plan.permissions).toEqual({ contents: "read" });
    expect(reader.permissions).toEqual({ contents: "read", "pull-requests": "write" });
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

  it("plan.yml: markdown plan, saved plan, detailed exit code; one comment found by the renderer's marker; the plan uploaded", () => {
    const steps = load("plan.yml").jobs["plan"]!.steps;
    const comment = steps.find((s) => s.uses?.startsWith("actions/github-script@"));
    expect(String(comment?.with?.["script"])).toContain(`const marker = "${PLAN_COMMENT_MARKER}"`);
    expect(String(comment?.with?.["script"])).toMatch(/updateComment[\s\S]*createComment/);
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.["name"]).toBe("alert-rule-users-plan");
    expect(String(upload?.with?.["path"])).toContain("plan.json");
  });

  it("apply.yml: applies only the reviewed plan, and only the declarations it covered; never re-plans from main on a push", () => {
    const apply = load("apply.yml");
    const steps = apply.jobs["apply"]!.steps;
    const download = steps.find((s) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download?.with?.["name"]).toBe("alert-rule-users-plan");
    expect(text("apply.yml")).toContain(`workflow_id: "alert-rule-users-plan.yml"`);
    const args = invocations("apply.yml").map((c) => c.args);
    // the reviewed plan, with the declarations of the pushed commit compared with those it covered
    expect(args).toContainEqual(expect.arrayContaining(["apply", "reviewed/plan.json", "--require-declarations", "--report-json", "--report-markdown"]));
    // no plan of main, and no apply of a fresh plan, outside the run by hand
    expect(args.filter((a) => a[0] === "plan")).toEqual([]);
    const script = steps.find((s) => s.id === "apply")?.run ?? "";
    const fresh = script.indexOf("apply --auto-approve");
    expect(fresh).toBeGreaterThan(-1);
    expect(script.slice(0, fresh)).toMatch(/if \[ "\$EVENT" = workflow_dispatch \]; then\s*(#.*\s*)*npx --no -- alert-rule-users $/);
    expect(script.match(/apply --auto-approve/g)).toHaveLength(1);
    expect(apply.jobs["apply"]!.env?.["EVENT"]).toBe("${{ github.event_name }}");
    // no reviewed plan: refused, exit 1
    expect(script).toMatch(/\[ ! -f reviewed\/plan\.json \]; then\s*echo "::error::No reviewed plan[^"]*nothing was applied[^"]*"\s*code=1/);
    expect(script).toContain("UNREVIEWED_DECLARATIONS");
    // every apply writes only while the run's commit is main's tip, fetched right before
    expect(args.filter((a) => a[0] === "apply").every((a) => a.join(" ").includes("--require-tip origin/main"))).toBe(true);
    expect(steps.findIndex((s) => (s.run ?? "").startsWith("git fetch"))).toBeLessThan(steps.findIndex((s) => s.id === "apply"));
    expect(steps.some((s) => (s.run ?? "").includes("$GITHUB_STEP_SUMMARY") && s.if === "always()")).toBe(true);
    expect(steps.at(-1)?.if).toBe("steps.apply.outputs.exitcode != '0'");
  });

  it("apply.yml's Apply step, run with bash: a push without a reviewed plan sends nothing and fails; a refused plan is not followed by any other apply", () => {
    const script = load("apply.yml").jobs["apply"]!.steps.find((s) => s.id === "apply")?.run ?? "";
    const dir = mkdtempSync(join(tmpdir(), "aru-apply-step-"));
    try {
      // a stand-in npx that records its arguments and refuses as --require-declarations would
      const bin = join(dir, "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "npx"), '#!/bin/sh\necho "$*" >> "$CALLS"\necho \'{"refusal":{"code":"UNREVIEWED_DECLARATIONS"}}\' > apply-report.json\nexit 1\n', { mode: 0o755 });
      const run = (withPlan: boolean) => {
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
          env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, EVENT: "push", MASS_REMOVAL_FLAG: "", CALLS: join(dir, "calls"), GITHUB_OUTPUT: join(dir, "out") },
        });
        return { stdout: result.stdout, calls: readFileSync(join(dir, "calls"), "utf8").trim().split("\n").filter((l) => l !== ""), out: readFileSync(join(dir, "out"), "utf8") };
      };
      const none = run(false);
      expect(none.calls).toEqual([]);
      expect(none.out).toBe("exitcode=1\n");
      expect(none.stdout).toContain("::error::No reviewed plan");
      const refused = run(true);
      expect(refused.calls).toHaveLength(1);
      expect(refused.calls[0]).toContain("apply reviewed/plan.json --require-declarations");
      expect(refused.out).toBe("exitcode=1\n");
      expect(refused.stdout).toContain("::error::The reviewed plan was refused");
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
