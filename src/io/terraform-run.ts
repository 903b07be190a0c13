/**
 * What the provider processes of one Terraform command share. Terraform starts a process for each
 * provider configuration (an alias too), all children of the one `terraform` process: a directory
 * per command (the parent's process ID and start time) under the system's temporary directory holds
 *
 *   claims/   which declaration planned each rule (one log): two resources for one rule are refused across
 *             provider aliases too (design §12.1)
 *   creates/  the list a create's plan read: the apply of the same command plans from it again, so
 *             what it sends is what the plan showed (and it searches and reads no more than needed)
 *   rates/    one send clock per tenant (src/api/http/rate-limiter.ts `SendClock`): the time of the
 *             next send and the limit learned from the service's 429s, so `max_rps` bounds every
 *             provider process of the command together (design §13.2) and a limit one of them
 *             learns paces the others at once (a run learns a limit once)
 *   declared  the rules the configuration names (rule_id or rule_name, one JSON line each), as
 *             Terraform's validation of each resource saw them: a plan's first metadata search
 *             fills its page with rules the plans to come will ask for, so N new resources cost
 *             ⌈N / page⌉ searches though Terraform plans only a few at a time
 *
 * The root is this user's own: made with mode 0700, and refused unless it is a real directory owned
 * by this user and writable by no one else ({@link safeRoot}), so no other local user can plant a
 * link there and have the provider write, or delete, outside it.
 *
 * Directories of commands that have ended are removed when the next one starts. Nothing secret is
 * written here: rule IDs and declarations are hashed into file names, the lists come redacted, and
 * `declared` holds only the rule IDs and names the configuration itself spells out.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { z } from "zod";
import type { SendClock, SendClockState } from "../api/http/rate-limiter";
import { ConfigError } from "../errors";

/** Overrides the command a provider process belongs to (tests run many "commands" in one process). */
export const RUN_SCOPE_VARIABLE = "ALERT_RULE_USERS_RUN_SCOPE";

const digest = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 40);

/** The start time of a process (Linux: /proc/PID/stat field 22), or "0" where it cannot be read. */
function startTimeOf(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? "0";
  } catch {
    return "0";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class TerraformRun {
  private constructor(private readonly dir: string) {}

  /**
   * The run of this provider process: its Terraform command's directory, made if missing, under a
   * root of this user's ({@link safeRoot}: checked before anything is read, written or removed).
   */
  static current(env: NodeJS.ProcessEnv): TerraformRun {
    const tmp = env["TMPDIR"] !== undefined && env["TMPDIR"] !== "" ? env["TMPDIR"] : os.tmpdir();
    const root = safeRoot(path.join(tmp, `alert-rule-users-${typeof process.getuid === "function" ? process.getuid() : "user"}`));
    const scope = env[RUN_SCOPE_VARIABLE];
    const name = scope !== undefined && scope !== "" ? `scope-${digest(scope)}` : `tf-${process.ppid}-${startTimeOf(process.ppid)}`;
    if (scope === undefined || scope === "") TerraformRun.removeEnded(root, name);
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, "claims"), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(dir, "creates"), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(dir, "rates"), { recursive: true, mode: 0o700 });
    return new TerraformRun(dir);
  }

  /** Removes the directories of Terraform commands whose process has ended (best effort). */
  private static removeEnded(root: string, keep: string): void {
    let names: string[];
    try {
      names = fs.readdirSync(root);
    } catch {
      return;
    }
    for (const name of names) {
      const match = /^tf-(\d+)-(\d+)$/.exec(name);
      if (name === keep || match === null) continue;
      const pid = Number(match[1]);
      if (alive(pid) && startTimeOf(pid) === match[2]) continue;
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
    }
  }

  /**
   * Claims `key` (a rule of a service and tenant) for `identity` (a declaration). Returns null when
   * the claim is this identity's (first, or the same declaration planned again), else the digest
   * of the identity that holds it. The command's claims are one file of lines `KEY IDENTITY`, each
   * appended by one write (a plan claims every rule it plans: no file is created per claim); the
   * first line of a key holds it, in every process alike. Each process reads only what was
   * appended since it last read.
   */
  claim(key: string, identity: string): string | null {
    const k = digest(key);
    const mine = digest(identity);
    this.claimsFd ??= fs.openSync(path.join(this.dir, "claims", "log"), "a+", 0o600);
    fs.writeSync(this.claimsFd, `${k} ${mine}\n`);
    this.readClaims(this.claimsFd);
    const held = this.holders.get(k);
    return held === undefined || held === mine ? null : held;
  }

  private readonly holders = new Map<string, string>();
  /** The claims log, open for the process's life (appends go to its end, reads at an offset): one open per process, not per claim. */
  private claimsFd: number | undefined;
  private claimsRead = 0;
  private claimsTail = "";

  /** Reads the claims appended since the last read; a line not yet whole waits for the next. */
  private readClaims(fd: number): void {
    // read to the end (a read that returns fewer bytes than asked for is there); lines are ASCII
    for (;;) {
      const read = fs.readSync(fd, CLAIMS_BUFFER, 0, CLAIMS_BUFFER.length, this.claimsRead);
      if (read === 0) return;
      this.claimsRead += read;
      const lines = (this.claimsTail + CLAIMS_BUFFER.toString("latin1", 0, read)).split("\n");
      this.claimsTail = lines.pop() ?? "";
      for (const line of lines) {
        const [k, holder] = line.split(" ");
        if (k !== undefined && holder !== undefined && !this.holders.has(k)) this.holders.set(k, holder);
      }
      if (read < CLAIMS_BUFFER.length) return;
    }
  }

  /** Keeps what a create's plan read, under its declaration's key. */
  keepCreate(key: string, data: string): void {
    replaceWhole(path.join(this.dir, "creates", digest(key)), data);
  }

  /** What a create's plan of this command read, or null. */
  keptCreate(key: string): string | null {
    try {
      return fs.readFileSync(path.join(this.dir, "creates", digest(key)), "utf8");
    } catch {
      return null;
    }
  }

  /** Records a rule the configuration names (Terraform validates every resource before it plans any). */
  declare(reference: { readonly ruleId: string | null; readonly ruleName: string | null }): void {
    const line = JSON.stringify({ ruleId: reference.ruleId, ruleName: reference.ruleName });
    const file = path.join(this.dir, "declared");
    // Terraform validates every resource in each of its provider processes: what an earlier one
    // recorded (read once per process) is not written again
    this.declaredLines ??= new Set(readLines(file));
    if (this.declaredLines.has(line)) return;
    this.declaredLines.add(line);
    // one short line per write, to a file open for appending (once per process, as the claims
    // log is): concurrent writers never interleave within it
    this.declaredFd ??= fs.openSync(file, "a", 0o600);
    fs.writeSync(this.declaredFd, `${line}\n`);
  }

  /** The declared-rules file, open for appending for the process's life. */
  private declaredFd: number | undefined;

  /** The lines of the declared-rules file this process has read or written. */
  private declaredLines: Set<string> | undefined;

  /** The rules recorded by {@link declare} in this command, each once, in the order first seen. */
  declaredRules(): { ruleId: string | null; ruleName: string | null }[] {
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.dir, "declared"), "utf8");
    } catch {
      return [];
    }
    const seen = new Map<string, { ruleId: string | null; ruleName: string | null }>();
    for (const line of text.split("\n")) {
      if (line === "" || seen.has(line)) continue;
      try {
        const parsed = JSON.parse(line) as { ruleId?: unknown; ruleName?: unknown };
        const ruleId = typeof parsed.ruleId === "string" ? parsed.ruleId : null;
        const ruleName = typeof parsed.ruleName === "string" ? parsed.ruleName : null;
        if (ruleId !== null || ruleName !== null) seen.set(line, { ruleId, ruleName });
      } catch {
        // a line cut short by a process that died mid-write: skipped
      }
    }
    return [...seen.values()];
  }

  /**
   * The send clock every provider process of this command shares for `tenantId` (the service's
   * limit is its tenant's, however the url is written): a file changed under a lock file.
   */
  sendClock(tenantId: string): SendClock {
    return new FileSendClock(path.join(this.dir, "rates", digest(tenantId.trim().toLowerCase())));
  }
}

/** Where a process reads the claims log, a piece at a time (one process reads one log at a time: synchronously). */
const CLAIMS_BUFFER = Buffer.alloc(64 * 1024);

/** A lock older than this belongs to a process that died holding it (it is held for a read and a write). */
const STALE_LOCK_MS = 2_000;
/** The longest a limiter waits for the lock before it fails the request. */
const LOCK_TIMEOUT_MS = 10_000;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

const learnedSchema = z.object({ limit: z.number().positive(), rps: z.number().positive().optional(), episodeRps: z.number().positive(), episodeFraction: z.number().min(0).max(1), periodic: z.number().min(0).max(1).optional() });
const clockSchema = z.object({ nextAt: z.number().nullable(), sends: z.number().int().nonnegative(), learned: learnedSchema.optional() });

/**
 * A {@link SendClock} in a file: its `now` is the epoch in milliseconds (every process reads the
 * same), each change is made holding `FILE.lock` (created exclusively, removed after: a read, a
 * step and a write, microseconds), and written aside and renamed, so a look without the lock
 * (`peek`) sees the old state or the new, never half.
 */
export class FileSendClock implements SendClock {
  constructor(
    private readonly file: string,
    /** The shared time: the epoch in milliseconds (tests pass a virtual one). */
    readonly now: () => number = () => performance.timeOrigin + performance.now(),
  ) {}

  peek(): SendClockState {
    // every change replaces the file (a new inode), so a file with the inode, time and size of the
    // last one read holds what was read then: a limiter looks before each request, reading once
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    if (stat === undefined) return { nextAt: -Infinity, sends: 0 };
    const version = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    if (this.#read?.version === version) return this.#read.state;
    const state = this.#readState();
    this.#read = { version, state };
    return state;
  }

  /** The state the file was last read as, and which version of the file that was. */
  #read: { readonly version: string; readonly state: SendClockState } | undefined;

  #readState(): SendClockState {
    try {
      const parsed = clockSchema.safeParse(JSON.parse(fs.readFileSync(this.file, "utf8")));
      if (!parsed.success) return { nextAt: -Infinity, sends: 0 };
      const { nextAt, sends, learned } = parsed.data;
      return { nextAt: nextAt ?? -Infinity, sends, ...(learned === undefined ? {} : { learned }) };
    } catch {
      return { nextAt: -Infinity, sends: 0 };
    }
  }

  update<T>(step: (state: SendClockState) => { readonly state: SendClockState; readonly result: T }): T {
    const release = holdLock(`${this.file}.lock`);
    try {
      const before = this.peek();
      const { state, result } = step(before);
      if (state !== before) {
        const nextAt = Number.isFinite(state.nextAt) ? state.nextAt : null;
        replaceWhole(this.file, JSON.stringify({ nextAt, sends: state.sends, ...(state.learned === undefined ? {} : { learned: state.learned }) }));
      }
      return result;
    } finally {
      release();
    }
  }
}

/** Takes the lock file (waiting a millisecond at a time, taking over one left by a process that died); returns its release. */
function holdLock(lock: string): () => void {
  const started = Date.now();
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx", 0o600));
      return () => fs.rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) fs.rmSync(lock, { force: true });
    } catch {
      // released meanwhile
    }
    if (Date.now() - started > LOCK_TIMEOUT_MS) throw new Error(`the send clock ${lock} stayed locked for ${LOCK_TIMEOUT_MS / 1000} s; run terraform again`);
    Atomics.wait(SLEEPER, 0, 0, 1);
  }
}

/**
 * The root of every command's directory, made with mode 0700 where missing and then checked: a
 * real directory (not a symbolic link, which another local user could plant on a shared /tmp
 * before us), owned by this user, writable by no one else. Anything else is refused in one
 * sentence, before anything is written into it or removed from it.
 */
export function safeRoot(root: string): string {
  try {
    fs.mkdirSync(root, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const stat = fs.lstatSync(root);
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const problem = stat.isSymbolicLink()
    ? "is a symbolic link"
    : !stat.isDirectory()
      ? "is not a directory"
      : uid !== undefined && stat.uid !== uid
        ? `belongs to another user (uid ${stat.uid}, not ${uid})`
        : process.platform !== "win32" && (stat.mode & 0o022) !== 0
          ? `is writable by other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, "0")})`
          : null;
  if (problem !== null) throw new ConfigError(`The alertrules provider's run directory ${root} ${problem}, so another user could plant files in it; remove it (or point TMPDIR at a directory of your own) and run terraform again.`);
  return root;
}

/** The whole lines of a file (a last line cut short is left out), or none when it does not exist. */
function readLines(file: string): string[] {
  try {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.pop();
    return lines;
  } catch {
    return [];
  }
}

/** Writes `file` whole: aside first, then renamed over it (a reader sees the old bytes or the new, never half). */
function replaceWhole(file: string, data: string): void {
  const aside = `${file}.${randomBytes(6).toString("hex")}`;
  fs.writeFileSync(aside, data, { mode: 0o600 });
  fs.renameSync(aside, file);
}
