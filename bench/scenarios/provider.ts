/**
 * Scenario: the native Terraform provider (issue 29, docs/provider.md), with the terraform on PATH.
 *
 *  0. Package: `provider package --out DIR` for the four platforms, from an empty build cache (the
 *     pinned Node.js tarballs from npm's own cache: the registry is not timed), and each zip's size.
 *     Target ≤ 90 s.
 *  1. Start: the release's linux executable (installed with `provider install --from`) launched as Terraform launches it (the magic cookie, a client
 *     certificate made here in PLUGIN_CLIENT_CERT) to its handshake line on stdout; the median of
 *     several launches. Target ≤ 300 ms.
 *  2. Refresh at scale: 1,000 lists in Terraform's state (created by one `terraform apply`), the
 *     simulator at the bench's latency and no limit. `terraform plan` (refresh included, default
 *     parallelism 10) against the CLI's `plan --skip-synth` of the same lists (a cdktf app
 *     synthesized beforehand), each the best of two. Targets: wall ≤ 2 × the CLI's; the plan's
 *     requests = one query-users per list, no metadata search.
 *  3. Refresh at a rate: 300 lists in state (created against a simulator without a limit), then
 *     `terraform plan` with `max_rps = 5` in the provider block against a simulator that allows 5
 *     requests a second. Targets: the requests span ≤ 1.15 × (requests / 5); ≤ 3 % answered 429.
 *  4. Plan CPU (issue 39): the provider processes of each `terraform plan` of step 2 write their own
 *     CPU time at exit (ALERT_RULE_USERS_PROVIDER_CPU_FILE, src/provider/main.ts). Targets: the
 *     plan ≤ 1.6 × the CLI's plan --skip-synth (best of two each); the provider's CPU (user +
 *     system, every provider process of the plan) ≤ 2 ms per resource.
 *  5. Creates at the call bound (issue 39, design §12.1): N new resources (rules that exist in the
 *     simulator, none in state, each declaring one user more than the live list: one add-users
 *     each) by one `terraform apply -auto-approve`, `max_rps = 5`, against a simulator that allows
 *     5 requests a second. The count the target holds, from the simulator's request log:
 *       query-users  = N + N + C (C: the rules the apply changes): the plan's read of each rule (a
 *                      create shows what it removes, so it reads the live list); the one fresh
 *                      read right before the rule's first write (§12.1: the apply sends what its
 *                      plan showed, or nothing); the read-back that verifies each changed rule
 *                      (§5 Verify, §4's bound). The apply's re-plan reuses the plan's read through
 *                      the command's creates/ (src/io/terraform-run.ts) and reads nothing more;
 *       searches     = ⌈N / page⌉, page = the provider's pgSize (100; interface.md's example
 *                      uses 20 and gives no maximum: ⌈N / 100⌉ ≤ ⌈N / 20⌉ either way): the first
 *                      search of the plan fills its page with the rules the configuration names
 *                      (`declared`), none at apply;
 *       writes       = the calls the plans showed (here C add-users);
 *       nothing else. The issue's "N query-users" counts the plan's reads; the fresh read (§12.1)
 *     and the read-back (§5) are the contract's and are counted, not removed. Span of the requests
 *     ≤ 1.15 × (requests / 5 s); at most one run of 429s in the command (a run: 429s less than 2 s
 *     apart; the limit learned once is shared through rates/).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { makeServerCertificate } from "../../src/provider/protocol/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/provider/protocol/handshake";
import { CPU_FILE_VARIABLE } from "../../src/provider/main";
import type { RequestLogEntry } from "../../src/simulator";
import { repoRoot } from "../lib/machine";
import { check, fmt, sizedCheck, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { hostSimulator, type HostedSimulator } from "../lib/simulator-host";
import { generateTenant } from "../lib/tenant";
import { PROVIDER_STARTS_PER_PLAN, transportFloor } from "../lib/transport-floor";
import { expectExit, installProvider, terraformEnv, timedCommand, unpackedProvider, writeCdktfApp, writeHcl, type TimedRun } from "../lib/terraform-dir";

export interface ProviderSizes {
  /** Launches of the provider executable for the start-up median. */
  readonly starts: number;
  /** Lists in state for the refresh at scale. */
  readonly refreshLists: number;
  /** Lists in state for the refresh at a rate. */
  readonly limitedLists: number;
  /** `max_rps` of the provider block and the simulator's limit, requests a second. */
  readonly rps: number;
  readonly usersPerRule: number;
  /** New resources created by one terraform apply at `rps` (step 5). */
  readonly createLists: number;
}

export const PROVIDER_FULL: ProviderSizes = { starts: 15, refreshLists: 1_000, limitedLists: 300, rps: 5, usersPerRule: 20, createLists: 1_000 };
export const PROVIDER_QUICK: ProviderSizes = { starts: 5, refreshLists: 40, limitedLists: 20, rps: 5, usersPerRule: 20, createLists: 40 };
export const PLAN_RATIO_TARGET = 1.6;
export const PLAN_CPU_TARGET_MS = 2;
/** The pgSize of the provider's metadata searches (src/provider/configure.ts engine.pageSize). */
export const SEARCH_PAGE = 100;
/** 429s less than this apart are one run. */
export const RUN_GAP_MS = 2_000;
export const START_TARGET_MS = 300;
export const PACKAGE_TARGET_MS = 90_000;
export const REFRESH_RATIO_TARGET = 2;
export const SPAN_TARGET_FACTOR = 1.15;
export const RATE_LIMITED_TARGET = 0.03;

/** The 1-minute load average, to one decimal: the machine is shared, and the wall times depend on it. */
const load1 = (): number => Math.round((loadavg()[0] ?? 0) * 10) / 10;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Launches the installed provider as Terraform does and times spawn → the handshake line; then stops it (SIGTERM). */
function timeStart(executable: string, certificatePem: string): Promise<{ ms: number; line: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(executable, [], {
      env: { PATH: process.env["PATH"], HOME: process.env["HOME"], [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: certificatePem },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let ms: number | null = null;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (ms === null && stdout.includes("\n")) {
        ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill("SIGTERM");
      }
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", () => {
      const line = stdout.split("\n")[0] ?? "";
      if (ms === null || !/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+$/.test(line)) reject(new Error(`the provider printed no handshake line:\n${stdout.slice(0, 500)}\n${stderr.slice(-2000)}`));
      else resolve({ ms, line });
    });
  });
}

/** What the simulator received between two readings of its counts. */
function countsSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).flatMap(([op, n]) => (n - (before[op] ?? 0) > 0 ? [[op, n - (before[op] ?? 0)]] : [])));
}
const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** The CPU the provider processes wrote to `file` (src/provider/main.ts), in ms, and how many processes. */
export function providerCpu(file: string): { ms: number; processes: number } {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { ms: 0, processes: 0 };
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const micros = lines.map((l) => l.split(" ").slice(1).reduce((a, b) => a + Number(b), 0)).reduce((a, b) => a + b, 0);
  return { ms: micros / 1000, processes: lines.length };
}

/** Runs of 429s in a request log: 429s less than RUN_GAP_MS apart are one run. */
export function runsOf429(log: readonly RequestLogEntry[]): number {
  let runs = 0;
  let last = -Infinity;
  for (const e of log) {
    if (e.status !== 429) continue;
    if (e.atMs - last >= RUN_GAP_MS) runs += 1;
    last = e.atMs;
  }
  return runs;
}

export interface CreatesResult {
  readonly lists: number;
  readonly wallMs: number;
  readonly requests: number;
  readonly counts: Record<string, number>;
  readonly queryUsers: number;
  readonly searches: number;
  readonly writes: number;
  readonly expected: { readonly queryUsers: number; readonly searches: number; readonly writes: number; readonly requests: number };
  readonly spanMs: number;
  readonly floorMs: number;
  readonly rateLimited: number;
  readonly runs429: number;
  readonly loadAverage: number;
  /** The request log of the apply (not in the results file: thousands of entries). */
  readonly entries: readonly RequestLogEntry[];
}

const READ_OPERATIONS = new Set(["query-users", "query-rule-metadata"]);

/** Step 5: `lists` new resources by one terraform apply against a simulator limited to `rps` (max_rps = rps). */
export async function createsAtRate(top: string, cli: string, lists: number, usersPerRule: number, rps: number, latencyMs: number, log: (line: string) => void): Promise<CreatesResult> {
  const tenant = generateTenant({ rules: lists, usersPerRule, change: { kind: "onboard", newUsers: 1 }, seed: 20_261_127 + lists });
  const sim = await hostSimulator(tenant.seed, latencyMs, undefined, rps);
  try {
    const dir = join(top, `creates-${lists}`);
    mkdirSync(dir);
    const env = terraformEnv(dir, sim);
    await installProvider(cli, dir, env);
    writeHcl(dir, tenant.declarations, `  max_rps = ${rps}\n`);
    expectExit("terraform init", await timedCommand("terraform", ["init", "-no-color"], dir, env));
    log(`provider: terraform apply of ${lists} new resources, max_rps = ${rps}, the service limited to ${rps} requests a second`);
    const loadAverage = load1();
    const before = (await sim.requestLog()).length;
    const run = expectExit("terraform apply (creates)", await timedCommand("terraform", ["apply", "-auto-approve", "-no-color"], dir, env));
    const entries = (await sim.requestLog()).slice(before);
    const counts: Record<string, number> = {};
    for (const e of entries) counts[e.operation] = (counts[e.operation] ?? 0) + 1;
    const answered = entries.filter((e) => e.status !== 429);
    const by = (op: string): number => answered.filter((e) => e.operation === op).length;
    const writes = answered.filter((e) => !READ_OPERATIONS.has(e.operation)).length;
    // one add-users per rule that gains its new user (a system or all-users rule is skipped, no write)
    const expectedWrites = tenant.expected.rulesToUpdate;
    const expected = { queryUsers: 2 * lists + expectedWrites, searches: Math.ceil(lists / SEARCH_PAGE), writes: expectedWrites, requests: 2 * lists + expectedWrites + Math.ceil(lists / SEARCH_PAGE) + expectedWrites };
    const requests = entries.length;
    const spanMs = requests < 2 ? 0 : entries[requests - 1]!.atMs - entries[0]!.atMs;
    return {
      lists,
      wallMs: run.wallMs,
      requests,
      counts,
      queryUsers: by("query-users"),
      searches: by("query-rule-metadata"),
      writes,
      expected,
      spanMs,
      floorMs: (requests / rps) * 1000,
      rateLimited: entries.filter((e) => e.status === 429).length,
      runs429: runsOf429(entries),
      loadAverage,
      entries,
    };
  } finally {
    await sim.stop();
  }
}

/** A directory of `lists` generated lists in Terraform's state: provider installed, init, one apply against `sim`. */
async function stateOf(
  top: string,
  name: string,
  cli: string,
  sim: HostedSimulator,
  lists: number,
  usersPerRule: number,
  seed: number,
): Promise<{ dir: string; env: NodeJS.ProcessEnv; declarations: ReturnType<typeof generateTenant>["declarations"]; tenant: ReturnType<typeof generateTenant>; applyMs: number }> {
  const tenant = generateTenant({ rules: lists, usersPerRule, change: { kind: "none" }, seed });
  const dir = join(top, name);
  mkdirSync(dir);
  const env = terraformEnv(dir, sim);
  await installProvider(cli, dir, env);
  writeHcl(dir, tenant.declarations);
  expectExit("terraform init", await timedCommand("terraform", ["init", "-no-color"], dir, env));
  const apply = expectExit("terraform apply (creating the state)", await timedCommand("terraform", ["apply", "-auto-approve", "-no-color"], dir, env));
  return { dir, env, declarations: tenant.declarations, tenant, applyMs: apply.wallMs };
}

export const provider: Scenario = {
  name: "provider",
  title: "The native Terraform provider",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? PROVIDER_QUICK : PROVIDER_FULL;
    const root = repoRoot();
    const cli = join(root, "dist", "src", "cli", "main.js");
    const top = mkdtempSync(join(tmpdir(), "aru-bench-provider-"));
    try {
      // 0. the release of the four platforms, every executable built from nothing
      ctx.log("provider: provider package (four platforms, an empty build cache)");
      const release = join(top, "release");
      const loadPackage = load1();
      const packaged = expectExit(
        "alert-rule-users provider package",
        await timedCommand(process.execPath, [cli, "provider", "package", "--out", release], top, { ...process.env, ALERT_RULE_USERS_PROVIDER_CACHE: join(top, "build-cache") }),
      );
      const zips = readdirSync(release)
        .filter((f) => f.endsWith(".zip"))
        .sort()
        .map((f) => ({ file: f, bytes: statSync(join(release, f)).size }));

      // 1. start-up
      ctx.log(`provider: ${sizes.starts} launches of the installed provider to its handshake line`);
      const startDir = join(top, "start");
      mkdirSync(startDir);
      expectExit("alert-rule-users provider install --from", await timedCommand(process.execPath, [cli, "provider", "install", startDir, "--from", release], top, { ...process.env }));
      const executable = unpackedProvider(startDir);
      const client = makeServerCertificate();
      const starts: number[] = [];
      const loads = { start: load1(), refresh: 0, rate: 0 };
      for (let i = 0; i < sizes.starts; i++) starts.push((await timeStart(executable, client.certificatePem)).ms);
      const startMedian = median(starts);

      // 1b. what the transport alone costs a resource (no value decoded, no list compared)
      ctx.log(`provider: the transport's floor for ${sizes.refreshLists} resources (the provider's gRPC server and API client, nothing else)`);
      const floor = await transportFloor(sizes.refreshLists);

      // 2. refresh of many lists: terraform plan against the CLI's plan --skip-synth
      ctx.log(`provider: ${sizes.refreshLists} lists into Terraform's state (one terraform apply, ${ctx.latencyMs} ms latency, no limit)`);
      const sim = await hostSimulator(generateTenant({ rules: sizes.refreshLists, usersPerRule: sizes.usersPerRule, change: { kind: "none" }, seed: 20_261_126 }).seed, ctx.latencyMs);
      let refresh: { tf: TimedRun[]; cli: TimedRun[]; tfRequests: Record<string, number>; cliRequests: Record<string, number>; applyMs: number; synthMs: number; cpu: { ms: number; processes: number }[] };
      try {
        const made = await stateOf(top, "refresh", cli, sim, sizes.refreshLists, sizes.usersPerRule, 20_261_126);
        const appDir = join(top, "refresh-cli");
        mkdirSync(appDir);
        writeCdktfApp(appDir, root, made.declarations);
        const synth = expectExit("the cdktf app's synth", await timedCommand(process.execPath, ["app.js"], appDir, { ...process.env, CDKTF_OUTDIR: join(appDir, "cdktf.out") }));
        const cliEnv = { ...process.env, ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, NO_COLOR: "1" };
        const tf: TimedRun[] = [];
        const cliRuns: TimedRun[] = [];
        let tfRequests: Record<string, number> = {};
        let cliRequests: Record<string, number> = {};
        const cpu: { ms: number; processes: number }[] = [];
        // Two rounds, alternating, each side's best counts: the machine is shared, and a neighbour's burst should not decide.
        loads.refresh = load1();
        for (let round = 0; round < 2; round++) {
          ctx.log(`provider: terraform plan of ${sizes.refreshLists} lists in state (round ${round + 1} of 2)`);
          let before = await sim.requestCounts();
          const cpuFile = join(top, `refresh-cpu-${round}`);
          tf.push(expectExit("terraform plan", await timedCommand("terraform", ["plan", "-detailed-exitcode", "-no-color"], made.dir, { ...made.env, [CPU_FILE_VARIABLE]: cpuFile }), [0]));
          cpu.push(providerCpu(cpuFile));
          tfRequests = countsSince(before, await sim.requestCounts());
          ctx.log(`provider: the CLI's plan --skip-synth of the same lists (round ${round + 1} of 2)`);
          before = await sim.requestCounts();
          cliRuns.push(expectExit("alert-rule-users plan --skip-synth", await timedCommand(process.execPath, [cli, "plan", "--skip-synth", "--detailed-exitcode"], appDir, cliEnv), [0]));
          cliRequests = countsSince(before, await sim.requestCounts());
        }
        refresh = { tf, cli: cliRuns, tfRequests, cliRequests, applyMs: made.applyMs, synthMs: synth.wallMs, cpu };
      } finally {
        await sim.stop();
      }

      // 3. refresh at a rate: state made without a limit, the plan measured against a limited service
      ctx.log(`provider: ${sizes.limitedLists} lists into Terraform's state (no limit)`);
      const limitedSeed = 20_261_127;
      const free = await hostSimulator(generateTenant({ rules: sizes.limitedLists, usersPerRule: sizes.usersPerRule, change: { kind: "none" }, seed: limitedSeed }).seed, ctx.latencyMs);
      let made: Awaited<ReturnType<typeof stateOf>>;
      try {
        made = await stateOf(top, "limited", cli, free, sizes.limitedLists, sizes.usersPerRule, limitedSeed);
      } finally {
        await free.stop();
      }
      ctx.log(`provider: terraform plan of ${sizes.limitedLists} lists with max_rps = ${sizes.rps}, the service limited to ${sizes.rps} requests a second`);
      const limited = await hostSimulator(made.tenant.seed, ctx.latencyMs, undefined, sizes.rps);
      let rate: { run: TimedRun; log: RequestLogEntry[] };
      try {
        writeHcl(made.dir, made.declarations, `  max_rps = ${sizes.rps}\n`);
        const env = { ...made.env, ALERTS_API_URL: limited.url, ALERTS_API_TOKEN: limited.token, ALERTS_TENANT_ID: limited.tenantId };
        loads.rate = load1();
        const run = expectExit("terraform plan (max_rps)", await timedCommand("terraform", ["plan", "-detailed-exitcode", "-no-color"], made.dir, env), [0]);
        rate = { run, log: await limited.requestLog() };
      } finally {
        await limited.stop();
      }

      // 5. creates at the call bound
      const creates = await createsAtRate(top, cli, sizes.createLists, sizes.usersPerRule, sizes.rps, ctx.latencyMs, ctx.log);

      // judging
      const tfBest = Math.min(...refresh.tf.map((r) => r.wallMs));
      const cliBest = Math.min(...refresh.cli.map((r) => r.wallMs));
      const ratio = tfBest / cliBest;
      const searches = refresh.tfRequests["query-rule-metadata"] ?? 0;
      const reads = refresh.tfRequests["query-users"] ?? 0;
      const requests = rate.log.length;
      const spanMs = requests < 2 ? 0 : rate.log[requests - 1]!.atMs - rate.log[0]!.atMs;
      const spanTargetMs = SPAN_TARGET_FACTOR * (requests / sizes.rps) * 1000;
      const limitedCount = rate.log.filter((e) => e.status === 429).length;
      const limitedShare = requests === 0 ? 0 : limitedCount / requests;
      const cpuPerResource = Math.min(...refresh.cpu.map((c) => c.ms)) / sizes.refreshLists;
      const createsSpanTargetMs = SPAN_TARGET_FACTOR * creates.floorMs;
      const createsCountOk =
        creates.queryUsers === creates.expected.queryUsers && creates.searches === creates.expected.searches && creates.writes === creates.expected.writes && creates.requests - creates.rateLimited === creates.expected.requests;
      const rateCounts: Record<string, number> = {};
      for (const e of rate.log) rateCounts[e.operation] = (rateCounts[e.operation] ?? 0) + 1;

      return {
        name: this.name,
        title: this.title,
        tables: [
          {
            title: `provider package: the four platforms' release from an empty build cache, ${fmt.s(packaged.wallMs)} s (load average ${loadPackage})`,
            columns: ["zip", "bytes", "MB"],
            rows: zips.map((z) => [z.file, fmt.int(z.bytes), (z.bytes / 1e6).toFixed(1)]),
          },
          {
            title: `Provider start: the installed executable to its handshake line, ${sizes.starts} launches (load average ${loads.start})`,
            columns: ["median ms", "min ms", "max ms"],
            rows: [[fmt.ms(startMedian), fmt.ms(Math.min(...starts)), fmt.ms(Math.max(...starts))]],
          },
          {
            title: `Refresh of ${fmt.int(sizes.refreshLists)} lists of ${sizes.usersPerRule} users, ${ctx.latencyMs} ms latency, no limit (best of 2 each; state created by one terraform apply in ${fmt.s(refresh.applyMs)} s, the app's synth ${fmt.s(refresh.synthMs)} s; load average ${loads.refresh})`,
            columns: ["command", "wall s (best)", "wall s (runs)", "query-users", "searches", "requests"],
            rows: [
              ["terraform plan (refresh included, parallelism 10)", fmt.s(tfBest), refresh.tf.map((r) => fmt.s(r.wallMs)).join(" / "), fmt.int(reads), fmt.int(searches), fmt.int(total(refresh.tfRequests))],
              ["alert-rule-users plan --skip-synth", fmt.s(cliBest), refresh.cli.map((r) => fmt.s(r.wallMs)).join(" / "), fmt.int(refresh.cliRequests["query-users"] ?? 0), fmt.int(refresh.cliRequests["query-rule-metadata"] ?? 0), fmt.int(total(refresh.cliRequests))],
            ],
          },
          {
            title: `Refresh of ${fmt.int(sizes.limitedLists)} lists with max_rps = ${sizes.rps}, the service limited to ${sizes.rps} requests a second (load average ${loads.rate})`,
            columns: ["wall s", "requests", "span s", "requests / rps s", "span / (requests / rps)", "429s"],
            rows: [[fmt.s(rate.run.wallMs), fmt.int(requests), fmt.s(spanMs), fmt.s((requests / sizes.rps) * 1000), fmt.ratio(spanMs / ((requests / sizes.rps) * 1000)), fmt.int(limitedCount)]],
          },
          {
            title: `Provider CPU in terraform plan of ${fmt.int(sizes.refreshLists)} unchanged lists (every provider process, user + system, per round)`,
            columns: ["round", "provider processes", "CPU ms", "CPU ms per resource"],
            rows: refresh.cpu.map((c, i) => [String(i + 1), String(c.processes), fmt.int(Math.round(c.ms)), (c.ms / sizes.refreshLists).toFixed(2)]),
          },
          {
            title: `The transport's floor: the provider's gRPC server and API client alone, ${fmt.int(floor.resources)} resources (1 call each in the validation's process; 4 calls and 1 request each in the walk's; ${PROVIDER_STARTS_PER_PLAN} starts of the bundle)`,
            columns: ["validation CPU ms", "walk CPU ms", "start CPU ms (each)", "CPU ms per resource"],
            rows: [[fmt.int(Math.round(floor.validation.cpuMs)), fmt.int(Math.round(floor.walk.cpuMs)), fmt.int(Math.round(floor.startCpuMs)), floor.perResourceMs.toFixed(2)]],
          },
          {
            title: `Creates: terraform apply of ${fmt.int(creates.lists)} new resources with max_rps = ${sizes.rps}, the service limited to ${sizes.rps} requests a second (load average ${creates.loadAverage})`,
            columns: ["wall s", "query-users (target)", "searches (target)", "writes (target)", "requests (target)", "span s", "span / (requests / rps)", "429s", "runs of 429s"],
            rows: [
              [
                fmt.s(creates.wallMs),
                `${fmt.int(creates.queryUsers)} (${fmt.int(creates.expected.queryUsers)})`,
                `${fmt.int(creates.searches)} (${fmt.int(creates.expected.searches)})`,
                `${fmt.int(creates.writes)} (${fmt.int(creates.expected.writes)})`,
                `${fmt.int(creates.requests)} (${fmt.int(creates.expected.requests)})`,
                fmt.s(creates.spanMs),
                fmt.ratio(creates.spanMs / creates.floorMs),
                fmt.int(creates.rateLimited),
                fmt.int(creates.runs429),
              ],
            ],
          },
        ],
        checks: [
          sizedCheck(ctx.quick, `provider package: the four platforms ≤ ${PACKAGE_TARGET_MS / 1000} s`, packaged.wallMs <= PACKAGE_TARGET_MS, `${fmt.s(packaged.wallMs)} s (load average ${loadPackage})`),
          sizedCheck(ctx.quick, `provider start: median launch to handshake line ≤ ${START_TARGET_MS} ms`, startMedian <= START_TARGET_MS, `${fmt.ms(startMedian)} ms median of ${sizes.starts} (min ${fmt.ms(Math.min(...starts))}, max ${fmt.ms(Math.max(...starts))})`),
          sizedCheck(
            ctx.quick,
            `provider refresh: terraform plan of ${fmt.int(sizes.refreshLists)} lists ≤ ${REFRESH_RATIO_TARGET} × the CLI's plan --skip-synth`,
            ratio <= REFRESH_RATIO_TARGET,
            `${fmt.s(tfBest)} s against ${fmt.s(cliBest)} s: ${fmt.ratio(ratio)}`,
          ),
          sizedCheck(
            ctx.quick,
            `provider plan: terraform plan of ${fmt.int(sizes.refreshLists)} unchanged lists ≤ ${PLAN_RATIO_TARGET} × the CLI's plan --skip-synth`,
            ratio <= PLAN_RATIO_TARGET,
            `${fmt.s(tfBest)} s against ${fmt.s(cliBest)} s: ${fmt.ratio(ratio)}`,
          ),
          sizedCheck(
            ctx.quick,
            `provider plan: the provider's CPU ≤ ${PLAN_CPU_TARGET_MS} ms per resource`,
            cpuPerResource <= PLAN_CPU_TARGET_MS,
            `${cpuPerResource.toFixed(2)} ms per resource (best round; ${refresh.cpu.map((c) => `${fmt.int(Math.round(c.ms))} ms in ${c.processes} processes`).join(" / ")}; the transport's floor alone ${floor.perResourceMs.toFixed(2)} ms)`,
          ),
          check(
            `provider creates: ${fmt.int(creates.lists)} new resources send 2 N + C query-users, ⌈N / ${SEARCH_PAGE}⌉ searches and the C writes, nothing else`,
            createsCountOk,
            `${fmt.int(creates.queryUsers)} query-users (target ${fmt.int(creates.expected.queryUsers)}), ${fmt.int(creates.searches)} searches (${fmt.int(creates.expected.searches)}), ${fmt.int(creates.writes)} writes (${fmt.int(creates.expected.writes)}), ${fmt.int(creates.requests)} requests (${fmt.int(creates.expected.requests)} + ${fmt.int(creates.rateLimited)} answered 429)`,
          ),
          sizedCheck(
            ctx.quick,
            `provider creates at ${sizes.rps} requests a second: the requests span ≤ ${SPAN_TARGET_FACTOR} × (requests / ${sizes.rps})`,
            creates.spanMs <= createsSpanTargetMs,
            `${fmt.int(creates.requests)} requests over ${fmt.s(creates.spanMs)} s (target ≤ ${fmt.s(createsSpanTargetMs)} s): ${fmt.ratio(creates.spanMs / creates.floorMs)}`,
          ),
          check(`provider creates: at most one run of 429s in the command`, creates.runs429 <= 1, `${fmt.int(creates.runs429)} runs, ${fmt.int(creates.rateLimited)} answers 429`),
          check(
            `provider refresh: terraform plan sends one query-users per list in state and no search`,
            reads === sizes.refreshLists && searches === 0 && total(refresh.tfRequests) === sizes.refreshLists,
            `${fmt.int(reads)} query-users for ${fmt.int(sizes.refreshLists)} lists, ${fmt.int(searches)} searches, ${fmt.int(total(refresh.tfRequests))} requests in all`,
          ),
          sizedCheck(
            ctx.quick,
            `provider at ${sizes.rps} requests a second: the refresh's requests span ≤ ${SPAN_TARGET_FACTOR} × (requests / ${sizes.rps})`,
            spanMs <= spanTargetMs,
            `${fmt.int(requests)} requests over ${fmt.s(spanMs)} s (target ≤ ${fmt.s(spanTargetMs)} s): ${fmt.ratio(spanMs / ((requests / sizes.rps) * 1000))}`,
          ),
          check(
            `provider at ${sizes.rps} requests a second: ≤ ${RATE_LIMITED_TARGET * 100} % of the requests answered 429`,
            limitedShare <= RATE_LIMITED_TARGET,
            `${fmt.int(limitedCount)} of ${fmt.int(requests)} (${(limitedShare * 100).toFixed(1)} %)`,
          ),
        ],
        data: {
          sizes,
          loadAverage: loads,
          package: { wallMs: packaged.wallMs, loadAverage: loadPackage, zips },
          start: { medianMs: startMedian, runsMs: starts },
          transportFloor: floor,
          refresh: {
            stateApplyMs: refresh.applyMs,
            synthMs: refresh.synthMs,
            terraformPlanMs: refresh.tf.map((r) => r.wallMs),
            cliPlanMs: refresh.cli.map((r) => r.wallMs),
            ratio,
            terraformRequests: refresh.tfRequests,
            cliRequests: refresh.cliRequests,
            providerCpu: refresh.cpu,
            providerCpuMsPerResource: cpuPerResource,
          },
          creates: (({ entries: _entries, ...kept }) => kept)(creates),
          rate: { wallMs: rate.run.wallMs, requests, spanMs, spanTargetMs, rateLimited: limitedCount, requestCounts: rateCounts },
        },
      };
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  },
};
