/**
 * Builders and helpers of the reliability suite: a generated tenant of many editable rules with a
 * declaration that changes most of them, a CLI process the test can kill, the simulator as a
 * separate process, and a collector that scans every output and file for the token.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import type { Io } from "../../src/cli/io";
import type { RunningSimulator, SimUser, SimulatorOptions, TenantSeed } from "../../src/simulator";
import { mulberry32, type Random } from "../../src/simulator/prng";
import { CLI, PROCESS_TIMEOUT_MS, REPO, workspace, type CliResult, type StackDecl, type Workspace } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { editableRuleMetadata } from "../support/rule-metadata";
import { namesWrite } from "../support/write-operations";
import { filesUnder } from "../support/files";

/** A token no test output could contain by chance. */
export const TOKEN = "rel-TOKEN-7c1f0e9a4b2d8e6f3a5c";
/** Apply flags that write both reports into the working directory, where the secret scan reads them. */
export const REPORTS = ["--report-json", "report.json", "--report-markdown", "report.md"];
export const TENANT = "3f6b1c2e-0d4a-4b8e-9c7d-5e2f1a0b9c8d";

type Mode = "authoritative" | "additive";
export interface DeclaredUser {
  userId: string;
  aliases: string[];
}

export interface ChaosCase {
  /** The tenant to start the simulator with. */
  readonly seed: TenantSeed;
  /** The app's declarations (one stack). */
  readonly stacks: StackDecl[];
  /** Per rule ID: the list that must be on the service after apply, as {@link listKey} renders it. */
  readonly expected: ReadonlyMap<string, string[]>;
}

function ruleId(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
}

/** A list in a comparable form: one `userId:alias,alias` line per user, aliases lower-cased and sorted. */
export function listKey(users: ReadonlyArray<{ userIdFromAuthority?: string | null; userId?: string; userAliasList?: string[]; aliases?: string[] }>): string[] {
  return users
    .map((u) => {
      const id = u.userIdFromAuthority ?? u.userId ?? "-";
      const aliases = (u.userAliasList ?? u.aliases ?? []).map((a) => a.trim().toLowerCase()).sort();
      return `${id}:${aliases.join(",")}`;
    })
    .sort();
}

function person(rule: number, n: number): DeclaredUser {
  return { userId: `7${String(rule).padStart(3, "0")}${String(n).padStart(4, "0")}`, aliases: [`user${n}.r${rule}@example.com`] };
}

const CHANGES = ["add", "remove", "add-alias", "remove-alias", "mixed", "rebuild", "additive", "none"] as const;
export type Change = (typeof CHANGES)[number];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/**
 * `count` editable rules (inclusion and exclusion lists), each with 3 to 6 users, and a declaration
 * that changes almost every one of them: users added and removed, aliases added and removed, lists
 * with entries without ID rebuilt, additive lists extended, a few left as they are. No change trips
 * the mass-removal guard.
 */
export function chaosCase(seedNumber: number, count = 50, changes: readonly Change[] = CHANGES): ChaosCase {
  const random = mulberry32(seedNumber);
  const rules: TenantSeed["rules"] = [];
  const lists = [];
  const expected = new Map<string, string[]>();
  for (let i = 1; i <= count; i++) {
    const size = 3 + Math.floor(random() * 4);
    const live: DeclaredUser[] = Array.from({ length: size }, (_, n) => person(i, n));
    live[0] = { userId: live[0]!.userId, aliases: [...live[0]!.aliases, `alt.r${i}@corp.example.com`] };
    const change = pick(random, changes);
    const liveUsers: SimUser[] = live.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] }));
    let desired = live.map((u) => ({ userId: u.userId, aliases: [...u.aliases] }));
    let mode: Mode = "authoritative";
    const newcomer = person(i, 90);
    switch (change) {
      case "add":
        desired.push(newcomer);
        break;
      case "remove":
        desired = desired.slice(1);
        break;
      case "add-alias":
        desired[1]!.aliases.push(`User1.R${i}@Corp.Example.com`);
        break;
      case "remove-alias":
        desired[0]!.aliases = desired[0]!.aliases.slice(0, 1);
        break;
      case "mixed":
        desired = desired.slice(1);
        desired[0]!.aliases.push(`second.r${i}@example.com`);
        desired.push(newcomer);
        break;
      case "rebuild":
        // an entry added without ID: the list is rebuilt (its person declared with an ID)
        liveUsers.push({ userIdFromAuthority: null, userAliasList: [`noid.r${i}@example.com`] });
        desired.push({ userId: `8${String(i).padStart(7, "0")}`, aliases: [`noid.r${i}@example.com`] });
        break;
      case "additive":
        mode = "additive";
        desired = [newcomer];
        break;
      case "none":
        break;
    }
    const usersToAlertOn = random() < 0.5 ? "SPECIFIED_USERS" : "ALL_USERS_NOT_SPECIFIED";
    rules.push({
      metadata: editableRuleMetadata({ observerRuleId: ruleId(i), name: `Generated rule ${i}`, description: `Rule ${i} of the generated tenant (${change})` }),
      usersToAlertOn,
      users: liveUsers,
    });
    lists.push({ id: `rule-${i}`, props: { ruleId: ruleId(i), mode, users: desired } });
    expected.set(ruleId(i), listKey(mode === "additive" ? [...live, newcomer] : desired));
  }
  return { seed: { tenantId: TENANT, rules }, stacks: [{ name: "chaos", lists }], expected };
}

/**
 * Runs `body` against a simulator seeded with the case (a chaos case, or any seed and stacks;
 * token TOKEN) and a workspace that declares its stacks, both read by the secret scan; the files
 * are collected, the workspace removed and the simulator stopped however the body ends.
 */
export function withChaosRun(scan: SecretScan, chaos: Pick<ChaosCase, "seed" | "stacks">, options: SimulatorOptions, body: (sim: RunningSimulator, ws: Workspace) => Promise<void>): Promise<void> {
  return withSimulator({ seed: chaos.seed, token: TOKEN, ...options }, async (sim) => {
    const ws = workspace(chaos.stacks);
    scan.dir(ws.dir);
    try {
      await body(sim, ws);
    } finally {
      scan.collectFiles();
      ws.cleanup();
    }
  });
}

/** The environment the CLI needs for a simulator at `url`. */
export function env(url: string, token = TOKEN, tenantId = TENANT): NodeJS.ProcessEnv {
  return { ALERTS_API_URL: url, ALERTS_API_TOKEN: token, ALERTS_TENANT_ID: tenantId };
}

/** A spawned process whose output is collected, which the test may kill. */
export interface Spawned {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly done: Promise<CliResult & { signal: NodeJS.Signals | null }>;
}

/** Spawns `node <args>` with the connection settings of the test only (none inherited). */
export function spawnNode(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Spawned {
  const { ALERTS_API_URL: _u, ALERTS_API_TOKEN: _t, ALERTS_TENANT_ID: _i, ...base } = process.env;
  void _u;
  void _t;
  void _i;
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: { ...base, NO_COLOR: "1", ...opts.env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end();
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

export function spawnCli(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Spawned {
  return spawnNode([CLI, ...args], opts);
}

/**
 * Polls `condition` every 10 ms until it holds; fails after `timeoutMs` (by default as long as a
 * spawned CLI may take: what is awaited is usually a process getting somewhere, which on a loaded
 * machine takes many times its idle second or two).
 */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = PROCESS_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The simulator as its own process (`alert-rule-users simulator`), so that it can be killed. */
export interface SimulatorProcess {
  readonly url: string;
  readonly port: number;
  readonly process: Spawned;
}

export async function startSimulatorProcess(opts: {
  cwd: string;
  dataFile: string;
  seedFile?: string;
  port?: number;
  latencyMs?: number;
}): Promise<SimulatorProcess> {
  const args = ["simulator", "--port", String(opts.port ?? 0), "--data", opts.dataFile, "--token", TOKEN];
  if (opts.latencyMs !== undefined) args.push("--latency-ms", String(opts.latencyMs));
  if (opts.seedFile !== undefined) args.push("--seed-file", opts.seedFile);
  const proc = spawnNode([CLI, ...args], { cwd: opts.cwd });
  let url: string | undefined;
  await Promise.race([
    waitFor("the simulator to listen", () => {
      url = /Simulator listening on (http:\/\/\S+)/.exec(proc.stderr())?.[1];
      return url !== undefined;
    }),
    proc.done.then((r) => {
      throw new Error(`the simulator exited (${r.code ?? r.signal}): ${r.stderr}`);
    }),
  ]);
  return { url: url!, port: Number(new URL(url!).port), process: proc };
}

/** How many write requests a simulator process has logged. */
export function writesLogged(sim: SimulatorProcess): number {
  return sim.process.stderr().split("\n").filter(namesWrite).length;
}

/** Kills a process with SIGKILL and waits until it is gone. */
export async function kill(proc: Spawned): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  await proc.done;
}

/**
 * Everything a test run printed or wrote, to be scanned for the token at the end of a file:
 * outputs as they are collected, and every file under the registered directories.
 */
export class SecretScan {
  readonly #texts: Array<{ where: string; text: string }> = [];
  readonly #dirs: string[] = [];

  add(where: string, ...texts: string[]): void {
    for (const text of texts) this.#texts.push({ where, text });
  }

  /** Registers a directory whose files (plan files, synth output, data files) are scanned at the end. */
  dir(dir: string): void {
    this.#dirs.push(dir);
  }

  /** Reads the registered directories now (call before they are removed). */
  collectFiles(): void {
    for (const dir of this.#dirs.splice(0)) {
      for (const file of filesUnder(dir, { skip: ["node_modules"] })) this.#texts.push({ where: file, text: readFileSync(file, "latin1") });
    }
  }

  /** Asserts, at the end of a file, that something was scanned and the token (or `token`) was in none of it. */
  expectNoLeaks(token = TOKEN): void {
    const { scanned, found } = this.leaks(token);
    expect(scanned).toBeGreaterThan(0);
    expect(found).toEqual([]);
  }

  /** Where the token was found ([] when nowhere), and how many texts were scanned. */
  leaks(token = TOKEN): { scanned: number; found: string[] } {
    this.collectFiles();
    return { scanned: this.#texts.length, found: this.#texts.filter((t) => t.text.includes(token)).map((t) => t.where) };
  }
}

export { REPO };

/** An Io whose stdin is a terminal the test types into, with stdout and stderr collected. */
export function terminal(environment: NodeJS.ProcessEnv, cwd: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdin,
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { ...process.env, NO_COLOR: "1", ...environment },
    cwd,
  };
  return { io, type: (text: string) => stdin.write(text), stdout: () => stdout, stderr: () => stderr };
}
