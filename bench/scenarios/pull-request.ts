/**
 * Scenario: the plan of a pull request (docs/contract.md §10.1). 300 declared rules, a service
 * that allows 2 requests a second (`rateLimitRps`), and a pull request that changes 3 lists (one new
 * user each). `plan --changed-since main` (both synths, of the branch and of main in a temporary
 * worktree, included in its wall time) against the full plan of the same branch, each through the
 * built CLI as CI runs it, each against a fresh simulator. Also the synth of the app alone, to show
 * how much of the wall time synth takes.
 */
import { appProps, timedCommand, writeCdktfApp, type TimedRun } from "../lib/terraform-dir";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../lib/machine";
import { check, fmt, sizedCheck, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { hostSimulator } from "../lib/simulator-host";
import { generateTenant } from "../lib/tenant";

export interface PullRequestSizes {
  readonly rules: number;
  readonly usersPerRule: number;
  /** Lists the pull request changes. */
  readonly changed: number;
  /** The service's limit, requests a second. */
  readonly rps: number;
}

export const PULL_REQUEST_FULL: PullRequestSizes = { rules: 300, usersPerRule: 20, changed: 3, rps: 2 };
export const PULL_REQUEST_QUICK: PullRequestSizes = { rules: 40, usersPerRule: 20, changed: 3, rps: 2 };
export const PULL_REQUEST_WALL_TARGET_MS = 10_000;

type CliRun = TimedRun;

interface PlanOutcome {
  readonly run: CliRun;
  /** Requests by operation, as the simulator received them (429s included). */
  readonly requests: Record<string, number>;
  /** The rule IDs of the query-users answered 200. */
  readonly rulesRead: string[];
  readonly rateLimited: number;
  readonly toUpdate: number;
  readonly unread: number | null;
}

type Tenant = ReturnType<typeof generateTenant>;

/**
 * The app in a git repository at `top`: main declares exactly what the service has; the branch
 * `pull-request` changes `sizes.changed` lists. Returns the rule IDs of the changed lists, sorted.
 */
function writePullRequestRepo(top: string, root: string, tenant: Tenant, sizes: PullRequestSizes): string[] {
  writeFileSync(join(top, ".gitignore"), "cdktf.out/\nnode_modules/\n");
  writeCdktfApp(top, root, tenant.declarations);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: top, stdio: "ignore", env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.com" } });
  const lists = tenant.declarations.map(appProps);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "main");
  // Spread over the declaration (among the lists declared by ID, so the log's rule IDs name them):
  // the first, the middle and the last each gain a user.
  const byId = tenant.declarations.flatMap((d, i) => (d.ruleId !== null ? [i] : []));
  const changedIndexes = Array.from({ length: sizes.changed }, (_, k) => byId[Math.round((k * (byId.length - 1)) / Math.max(1, sizes.changed - 1))]!);
  const branch = lists.map((props, i) =>
    changedIndexes.includes(i) ? { ...props, users: [...(props["users"] as unknown[]), { userId: `99000000000000${String(i).padStart(4, "0")}`, aliases: [`pr.user.${i}@example.com`] }] } : props,
  );
  git("checkout", "-q", "-b", "pull-request");
  writeFileSync(join(top, "lists.json"), JSON.stringify(branch));
  git("commit", "-q", "-am", "the pull request: 3 lists gain a user");
  return changedIndexes.map((i) => tenant.declarations[i]!.ruleId!).sort();
}

/** Where a plan runs: the app's directory, the built CLI, the tenant, the service's limit and latency. */
interface PlanPlace {
  readonly top: string;
  readonly cli: string;
  readonly tenant: Tenant;
  readonly rps: number;
  readonly latencyMs: number;
}

/** `plan --format json --detailed-exitcode ARGS` through the built CLI, against a fresh simulator limited to `rps`. */
async function planOf(place: PlanPlace, args: readonly string[]): Promise<PlanOutcome> {
  const sim = await hostSimulator(place.tenant.seed, place.latencyMs, undefined, place.rps);
  try {
    const env = { ...process.env, ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, NO_COLOR: "1" };
    const run = await timedCommand(process.execPath, [place.cli, "plan", "--format", "json", "--detailed-exitcode", ...args], place.top, env);
    if (run.code !== 2) throw new Error(`plan ${args.join(" ")} exited ${String(run.code)} (2 expected):\n${run.stderr.slice(-2000)}`);
    const log = await sim.requestLog();
    const json = JSON.parse(run.stdout) as { summary: { toUpdate: number }; changedSince?: { unread: { count: number } } };
    return {
      run,
      requests: await sim.requestCounts(),
      rulesRead: log
        .filter((e) => e.operation === "query-users" && e.status === 200)
        .map((e) => e.ruleId ?? "?")
        .sort(),
      rateLimited: log.filter((e) => e.status === 429).length,
      toUpdate: json.summary.toUpdate,
      unread: json.changedSince?.unread.count ?? null,
    };
  } finally {
    await sim.stop();
  }
}

/** What the scenario measured: the synth alone, the --changed-since plan and the full plan. */
interface PullRequestRuns {
  readonly synth: CliRun;
  readonly since: PlanOutcome;
  readonly full: PlanOutcome;
  readonly changedRuleIds: readonly string[];
}

const totalRequests = (o: PlanOutcome) => Object.values(o.requests).reduce((a, b) => a + b, 0);

function planRow(label: string, o: PlanOutcome): string[] {
  return [label, fmt.s(o.run.wallMs), fmt.int(o.rulesRead.length), fmt.int(o.requests["query-rule-metadata"] ?? 0), fmt.int(totalRequests(o)), fmt.int(o.rateLimited), fmt.int(o.toUpdate)];
}

/** The scenario's tables, checks and data from what it measured. */
function pullRequestResult(scenario: Scenario, ctx: ScenarioContext, sizes: PullRequestSizes, { synth, since, full, changedRuleIds }: PullRequestRuns): ScenarioResult {
  const readExactly = JSON.stringify(since.rulesRead) === JSON.stringify(changedRuleIds);
  return {
    name: scenario.name,
    title: scenario.title,
    tables: [
      {
        title: `Pull-request plan: ${sizes.rules} declared rules of ${sizes.usersPerRule} users, ${sizes.changed} changed, service at ${sizes.rps} requests a second, latency ${ctx.latencyMs} ms`,
        columns: ["plan", "wall s", "lists read", "searches", "requests", "429s", "rules to update"],
        rows: [planRow("--changed-since main (both synths included)", since), planRow("full plan", full)],
      },
      {
        title: "Pull-request plan: where --changed-since spends its time",
        columns: ["step", "time s"],
        rows: [
          ["synth of the app, alone (one synth; --changed-since runs two at once)", fmt.s(synth.wallMs)],
          ["--changed-since main, the whole command", fmt.s(since.run.wallMs)],
        ],
      },
    ],
    checks: [
      sizedCheck(
        ctx.quick,
        `pull request: --changed-since plan of ${sizes.changed} changed rules of ${sizes.rules} at ${sizes.rps} requests a second within ${PULL_REQUEST_WALL_TARGET_MS / 1000} s, both synths included`,
        since.run.wallMs <= PULL_REQUEST_WALL_TARGET_MS,
        `${fmt.s(since.run.wallMs)} s (one synth alone: ${fmt.s(synth.wallMs)} s; the full plan: ${fmt.s(full.run.wallMs)} s, ${fmt.int(full.rulesRead.length)} lists read)`,
      ),
      check(
        `pull request: --changed-since reads exactly the ${sizes.changed} changed lists`,
        readExactly && since.toUpdate === sizes.changed && since.unread === sizes.rules - sizes.changed,
        `${since.rulesRead.length} lists read (${readExactly ? "exactly the changed ones" : `expected ${changedRuleIds.join(", ")}, read ${since.rulesRead.join(", ")}`}), ${since.toUpdate} to update, ${String(since.unread)} left unread`,
      ),
      check(
        "pull request: the full plan reads every declared list and finds the same changes",
        full.rulesRead.length === sizes.rules && full.toUpdate === sizes.changed,
        `${full.rulesRead.length} lists read, ${full.toUpdate} to update`,
      ),
    ],
    data: {
      sizes,
      synthAloneMs: synth.wallMs,
      changedSince: { wallMs: since.run.wallMs, requests: since.requests, rulesRead: since.rulesRead.length, rateLimited: since.rateLimited, toUpdate: since.toUpdate, unread: since.unread },
      full: { wallMs: full.run.wallMs, requests: full.requests, rulesRead: full.rulesRead.length, rateLimited: full.rateLimited, toUpdate: full.toUpdate },
    },
  };
}

export const pullRequest: Scenario = {
  name: "pull-request",
  title: "Pull-request plan: --changed-since against a full plan",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? PULL_REQUEST_QUICK : PULL_REQUEST_FULL;
    const root = repoRoot();
    const cli = join(root, "dist", "src", "cli", "main.js");
    const tenant = generateTenant({ rules: sizes.rules, usersPerRule: sizes.usersPerRule, change: { kind: "none" }, seed: 20_261_124 });
    const top = mkdtempSync(join(tmpdir(), "aru-bench-pr-"));
    try {
      const changedRuleIds = writePullRequestRepo(top, root, tenant, sizes);
      const place: PlanPlace = { top, cli, tenant, rps: sizes.rps, latencyMs: ctx.latencyMs };
      ctx.log(`pull-request: ${sizes.rules} rules, ${sizes.changed} changed, service at ${sizes.rps} requests a second: synth alone`);
      const synth = await timedCommand(process.execPath, ["app.js"], top, { ...process.env, CDKTF_OUTDIR: join(top, "cdktf.out") });
      if (synth.code !== 0) throw new Error(`the bench app does not synthesize:\n${synth.stderr.slice(-2000)}`);
      ctx.log("pull-request: plan --changed-since main");
      const since = await planOf(place, ["--changed-since", "main"]);
      ctx.log(`pull-request: --changed-since took ${fmt.s(since.run.wallMs)} s; the full plan (about ${Math.round(sizes.rules / sizes.rps)} s at ${sizes.rps} requests a second)`);
      const full = await planOf(place, []);
      return pullRequestResult(this, ctx, sizes, { synth, since, full, changedRuleIds });
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  },
};
