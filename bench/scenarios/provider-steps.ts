/**
 * The steps of the provider scenario (bench/scenarios/provider.ts), each what it measures and
 * nothing judged: the release packaged, the executable's start, the refresh against the CLI's plan,
 * the refresh at a rate, and the creates at the call bound.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { WRITE_OPERATION_LIST } from "../../src/core/engine/operations";
import { makeServerCertificate } from "../../src/provider/protocol/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/provider/protocol/handshake";
import { CPU_FILE_VARIABLE } from "../../src/provider/main";
import type { RequestLogEntry } from "../../src/simulator";
import type { ScenarioContext } from "../lib/report";
import { hostSimulator, type HostedSimulator } from "../lib/simulator-host";
import { generateTenant } from "../lib/tenant";
import { expectExit, installProvider, terraformEnv, timedCommand, timedCommandCpu, unpackedProvider, writeCdktfApp, writeHcl, type TimedRun } from "../lib/terraform-dir";
import { floorPlanSetup } from "../lib/floor-plan";
import { stateSize, type StateSize } from "../lib/state-size";

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
/** The pgSize of the provider's metadata searches (src/provider/configure.ts engine.pageSize). */
export const SEARCH_PAGE = 100;
/** 429s less than this apart are one run. */
export const RUN_GAP_MS = 2_000;

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
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** Each provider process's own CPU in ms, in the order they wrote it to `file` as they exited (src/provider/main.ts); none where there is no file. */
export function processesCpu(file: string): number[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.split(" ").slice(1).reduce((a, b) => a + Number(b), 0) / 1000);
}

/** The CPU the provider processes wrote to `file`, in ms, and how many processes. */
export function providerCpu(file: string): { ms: number; processes: number } {
  const each = processesCpu(file);
  return { ms: each.reduce((a, b) => a + b, 0), processes: each.length };
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

/** The write operations, from the operation table (src/core/engine/operations.ts). */
const WRITES = new Set<string>(WRITE_OPERATION_LIST);

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
    const writes = answered.filter((e) => WRITES.has(e.operation)).length;
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
  aliasesPerUser?: number,
): Promise<{ dir: string; env: NodeJS.ProcessEnv; declarations: ReturnType<typeof generateTenant>["declarations"]; tenant: ReturnType<typeof generateTenant>; applyMs: number }> {
  const tenant = generateTenant({ rules: lists, usersPerRule, change: { kind: "none" }, seed, ...(aliasesPerUser === undefined ? {} : { aliasesPerUser }) });
  const dir = join(top, name);
  mkdirSync(dir);
  const env = terraformEnv(dir, sim);
  await installProvider(cli, dir, env);
  writeHcl(dir, tenant.declarations);
  expectExit("terraform init", await timedCommand("terraform", ["init", "-no-color"], dir, env));
  const apply = expectExit("terraform apply (creating the state)", await timedCommand("terraform", ["apply", "-auto-approve", "-no-color"], dir, env));
  return { dir, env, declarations: tenant.declarations, tenant, applyMs: apply.wallMs };
}

/** Step 0: `provider package` of the four platforms from an empty build cache, and each zip's size. */
export async function packageStep(ctx: ScenarioContext, top: string, cli: string): Promise<{ release: string; packaged: TimedRun; loadPackage: number; zips: { file: string; bytes: number }[] }> {
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
  return { release, packaged, loadPackage, zips };
}

/** Step 1: the release's executable, installed with `provider install --from`, launched `sizes.starts` times to its handshake line. */
export async function startStep(ctx: ScenarioContext, top: string, cli: string, release: string, sizes: ProviderSizes): Promise<{ starts: number[]; startMedian: number; load: number }> {
  ctx.log(`provider: ${sizes.starts} launches of the installed provider to its handshake line`);
  const startDir = join(top, "start");
  mkdirSync(startDir);
  expectExit("alert-rule-users provider install --from", await timedCommand(process.execPath, [cli, "provider", "install", startDir, "--from", release], top, { ...process.env }));
  const executable = unpackedProvider(startDir);
  const client = makeServerCertificate();
  const starts: number[] = [];
  const load = load1();
  for (let i = 0; i < sizes.starts; i++) starts.push((await timeStart(executable, client.certificatePem)).ms);
  return { starts, startMedian: median(starts), load };
}

/** One `terraform plan` of step 2: its run, Terraform's CPU with its providers', and the providers' own. */
export interface PlanRound {
  readonly run: TimedRun;
  /** terraform and every provider process it waited for (user + system). */
  readonly totalCpuMs: number;
  readonly provider: { ms: number; processes: number };
  /** Terraform's own: total less the providers'. */
  readonly terraformCpuMs: number;
}

/** What step 2 measured: each side's runs, the requests of its last round, the state's sizes and the provider's CPU per round. */
export interface RefreshRuns {
  /** The real provider on the refreshed state (the state's steady form). */
  readonly tf: PlanRound[];
  /** The real provider on the state as the apply left it (users typed as configured, before a refresh). */
  readonly tfApplied: PlanRound[];
  /** The floor provider on the refreshed state (bench/lib/floor-provider.ts). */
  readonly floor: PlanRound[];
  readonly cli: TimedRun[];
  readonly tfRequests: Record<string, number>;
  readonly cliRequests: Record<string, number>;
  readonly applyMs: number;
  readonly refreshMs: number;
  readonly synthMs: number;
  readonly stateApplied: StateSize;
  readonly stateRefreshed: StateSize;
  readonly cpu: { ms: number; processes: number }[];
  readonly load: number;
}

/** Aliases of each user in step 2's lists: the state target's "20 users with two aliases each". */
export const REFRESH_ALIASES = 2;
/** The seed of the refreshed lists' tenant (the same lists in every run, and in `npm run bench:turns`). */
export const REFRESH_SEED = 20_261_126;

/** One `terraform plan` in `dir` with `state` copied in place first, timed, with the CPU of Terraform and of its providers. */
async function planRound(dir: string, env: NodeJS.ProcessEnv, state: string, label: string): Promise<PlanRound> {
  copyFileSync(state, join(dir, "terraform.tfstate"));
  const cpuFile = join(dir, `.cpu-${label}`);
  rmSync(cpuFile, { force: true });
  const run = await timedCommandCpu("terraform", ["plan", "-detailed-exitcode", "-no-color"], dir, { ...env, [CPU_FILE_VARIABLE]: cpuFile }, join(dir, `.time-${label}`));
  expectExit(`terraform plan (${label})`, run, [0]);
  const provider = providerCpu(cpuFile);
  return { run, totalCpuMs: run.cpuMs, provider, terraformCpuMs: run.cpuMs - provider.ms };
}

/**
 * Step 2: `sizes.refreshLists` lists in state, then refreshed once (`terraform apply -refresh-only`);
 * two rounds, in turns, of `terraform plan` on the refreshed state, on the state as the apply left
 * it, through the floor provider on the refreshed state, and the CLI's `plan --skip-synth`.
 */
export async function refreshStep(ctx: ScenarioContext, top: string, cli: string, root: string, sizes: ProviderSizes, floorNode: string = process.execPath): Promise<RefreshRuns> {
  ctx.log(`provider: ${sizes.refreshLists} lists into Terraform's state (one terraform apply, ${ctx.latencyMs} ms latency, no limit)`);
  const seed = REFRESH_SEED;
  const sim = await hostSimulator(generateTenant({ rules: sizes.refreshLists, usersPerRule: sizes.usersPerRule, change: { kind: "none" }, seed, aliasesPerUser: REFRESH_ALIASES }).seed, ctx.latencyMs);
  const floorSetup = await floorPlanSetup(join(top, "floor"), floorNode);
  try {
    const made = await stateOf(top, "refresh", cli, sim, sizes.refreshLists, sizes.usersPerRule, seed, REFRESH_ALIASES);
    const applied = join(top, "refresh-applied.tfstate");
    copyFileSync(join(made.dir, "terraform.tfstate"), applied);
    ctx.log(`provider: terraform apply -refresh-only of the ${sizes.refreshLists} lists`);
    const refreshRun = expectExit("terraform apply -refresh-only", await timedCommand("terraform", ["apply", "-refresh-only", "-auto-approve", "-no-color"], made.dir, made.env));
    const refreshed = join(top, "refresh-refreshed.tfstate");
    copyFileSync(join(made.dir, "terraform.tfstate"), refreshed);
    const appDir = join(top, "refresh-cli");
    mkdirSync(appDir);
    writeCdktfApp(appDir, root, made.declarations);
    const synth = expectExit("the cdktf app's synth", await timedCommand(process.execPath, ["app.js"], appDir, { ...process.env, CDKTF_OUTDIR: join(appDir, "cdktf.out") }));
    const cliEnv = { ...process.env, ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, NO_COLOR: "1" };
    const tf: PlanRound[] = [];
    const tfApplied: PlanRound[] = [];
    const floor: PlanRound[] = [];
    const cliRuns: TimedRun[] = [];
    let tfRequests: Record<string, number> = {};
    let cliRequests: Record<string, number> = {};
    // Two rounds, in turns, each side's best counts: the machine is shared, and a neighbour's burst should not decide.
    const load = load1();
    for (let round = 0; round < 2; round++) {
      ctx.log(`provider: terraform plan of ${sizes.refreshLists} lists: refreshed state, applied state, floor provider (round ${round + 1} of 2)`);
      let before = await sim.requestCounts();
      tf.push(await planRound(made.dir, made.env, refreshed, `refreshed-${round}`));
      tfRequests = countsSince(before, await sim.requestCounts());
      tfApplied.push(await planRound(made.dir, made.env, applied, `applied-${round}`));
      floor.push(await planRound(made.dir, { ...made.env, ...floorSetup.env }, refreshed, `floor-${round}`));
      ctx.log(`provider: the CLI's plan --skip-synth of the same lists (round ${round + 1} of 2)`);
      before = await sim.requestCounts();
      cliRuns.push(expectExit("alert-rule-users plan --skip-synth", await timedCommand(process.execPath, [cli, "plan", "--skip-synth", "--detailed-exitcode"], appDir, cliEnv), [0]));
      cliRequests = countsSince(before, await sim.requestCounts());
    }
    copyFileSync(refreshed, join(made.dir, "terraform.tfstate"));
    return {
      tf,
      tfApplied,
      floor,
      cli: cliRuns,
      tfRequests,
      cliRequests,
      applyMs: made.applyMs,
      refreshMs: refreshRun.wallMs,
      synthMs: synth.wallMs,
      stateApplied: stateSize(applied),
      stateRefreshed: stateSize(refreshed),
      cpu: tf.map((r) => r.provider),
      load,
    };
  } finally {
    await floorSetup.stop();
    await sim.stop();
  }
}

/** Step 3: state made without a limit, then `terraform plan` with `max_rps` against a service limited to the same rate. */
export async function rateStep(ctx: ScenarioContext, top: string, cli: string, sizes: ProviderSizes): Promise<{ run: TimedRun; log: RequestLogEntry[]; load: number }> {
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
  try {
    writeHcl(made.dir, made.declarations, `  max_rps = ${sizes.rps}\n`);
    const env = { ...made.env, ALERTS_API_URL: limited.url, ALERTS_API_TOKEN: limited.token, ALERTS_TENANT_ID: limited.tenantId };
    const load = load1();
    const run = expectExit("terraform plan (max_rps)", await timedCommand("terraform", ["plan", "-detailed-exitcode", "-no-color"], made.dir, env), [0]);
    return { run, log: await limited.requestLog(), load };
  } finally {
    await limited.stop();
  }
}
