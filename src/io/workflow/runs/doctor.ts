/**
 * `alert-rule-users doctor`: observes what a first run needs (the Node.js version, the connection
 * with one read, Terraform, the provider, the app and its synth) and hands each observation to its
 * pure verdict (src/core/doctor/doctor.ts). Sends no write; the one read is a rule-metadata search of
 * page size 1, made once (no retry: a failure is reported as it is), a 429 waited out once.
 */
import * as fs from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ApiError } from "../../../api";
import {
  appCheck,
  doctorPassed,
  baseUrlCheck,
  initializedProviderDir,
  nodeCheck,
  notReadChecks,
  pluginCacheCheck,
  providerCheck,
  providerLockCheck,
  providerNodeCheck,
  mirrorPath,
  packedMirrorPath,
  serviceChecks,
  synthCheck,
  terraformCheck,
  terraformTarget,
  unconfiguredChecks,
  type DoctorCheck,
  type InstallRoute,
  type ProviderState,
  type ReadOutcome,
} from "../../../core/doctor/doctor";
import { LOCK_FILE_NAME, readLockEntry } from "../../../core/native/provider-lock";
import { packageRoot } from "../../init-app";
import { BUNDLE_NAME, h1Hash, readZip, type PackageFile } from "../../provider-package";
import { readAppCommand } from "../../synth";
import { TOOL_VERSION } from "../../version";
import { openSession, type SessionSettings } from "../session/connect";
import type { RunReporter } from "../session/reporter";
import { synthesizeApp } from "../steps/synth-app";
import { githubChecks } from "../../../core/doctor/github-settings";
import { readGithubSettings } from "../../github-settings";
import { nodeVersion, terraformVersion } from "../../tool-versions";
import { messageOf } from "../../../shared/text";

/** The connection doctor checks, as a session is asked for (SessionSettings), plus what else it looks at. */
export interface DoctorRequest extends Pick<SessionSettings, "cwd" | "baseUrl" | "tenantId" | "tokenFile" | "tokenCommand" | "timeoutSeconds"> {
  readonly env: NodeJS.ProcessEnv;
  /** The app command (--app); else the `app` of cdktf.json in `cwd`. */
  readonly app?: string | undefined;
  /** The running Node.js version. @default - process.version */
  readonly nodeVersion?: string | undefined;
  /** `--github OWNER/REPO`: where the workflows' secrets are (src/core/doctor/github-settings.ts). @default - not checked */
  readonly github?: { readonly repository: string; readonly environment: string } | undefined;
}

export interface DoctorRunResult {
  readonly checks: DoctorCheck[];
  /** Every check passed or did not apply. */
  readonly ok: boolean;
}

/** `doctor`: every check, in the order a new user meets them; warnings of the connection settings go to `reporter`. */
export async function doctorRun(request: DoctorRequest, reporter: Pick<RunReporter, "warn">): Promise<DoctorRunResult> {
  const checks = await runDoctor(request, (message) => reporter.warn(message));
  return { checks, ok: doctorPassed(checks) };
}

async function runDoctor(request: DoctorRequest, onWarning: (message: string) => void): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [nodeCheck(request.nodeVersion ?? process.version, enginesRange(), runsAsSea())];
  const rawUrl = nonEmpty(request.baseUrl) ?? nonEmpty(request.env["ALERTS_API_URL"]);
  const base = baseUrlCheck(rawUrl, nonEmpty(request.baseUrl) !== undefined ? "--base-url" : "ALERTS_API_URL");
  checks.push(base);
  checks.push(...(await serviceRead(request, onWarning, base.status === "fail")));
  checks.push(terraformCheck(await terraformVersion(request.env, request.cwd)));
  const here = providerHere(request.cwd);
  const route = installRoute(request.env);
  checks.push(providerCheck(providerState(here, route)));
  const needsNode = providerNodeCheck(providerNodeState(request.cwd, request.env, here, route));
  if (needsNode !== null) checks.push(needsNode);
  checks.push(providerLockCheck(providerLockState(request.cwd, here, route)));
  checks.push(pluginCacheCheck(pluginCacheState(request.cwd, request.env, here, route)));
  checks.push(...(await appChecks(request)));
  if (request.github !== undefined) checks.push(...(await githubSettingsChecks(request.github, request.env)));
  return checks;
}

/** The GitHub settings' checks, or one failure that says why they could not be read. */
async function githubSettingsChecks(github: { readonly repository: string; readonly environment: string }, env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  try {
    return githubChecks(await readGithubSettings(github.repository, github.environment, env));
  } catch (error) {
    return [{ check: "github-secrets", status: "fail", message: error instanceof Error ? error.message : String(error), fix: "Fix what the message names, then run doctor --github again." }];
  }
}

async function serviceRead(request: DoctorRequest, onWarning: (message: string) => void, baseUrlFailed: boolean): Promise<DoctorCheck[]> {
  const rate = { throttled: 0, retryAfterMs: undefined as number | undefined };
  let session;
  try {
    session = await openSession({
      env: request.env,
      cwd: request.cwd,
      baseUrl: request.baseUrl,
      tenantId: request.tenantId,
      tokenFile: request.tokenFile,
      tokenCommand: request.tokenCommand,
      timeoutSeconds: request.timeoutSeconds,
      engine: { parallelism: 1, pageSize: 1, batchSize: 1 },
      onWarning,
      retry: { maxAttempts: 1, maxRateLimitRetries: 1 },
      requestHook: () => (event) => {
        if (event.status !== 429) return;
        rate.throttled += 1;
        if (event.retryInMs !== undefined) rate.retryAfterMs = event.retryInMs;
      },
    });
  } catch (error) {
    return unconfiguredChecks(messageOf(error), baseUrlFailed);
  }
  // a URL that parses but that the base-url check refused (a /v1 at its end): asking would fail for the same reason
  if (baseUrlFailed) return notReadChecks();
  const { baseUrl, tenantId } = session.connection;
  let outcome: ReadOutcome;
  try {
    const page = await session.client.queryRuleMetadataPage([], { pageSize: 1 });
    outcome = { ok: true, totalRules: page.totalCount };
  } catch (error) {
    outcome = readFailure(error);
  }
  return serviceChecks(baseUrl, tenantId, outcome, rate);
}

function readFailure(error: unknown): ReadOutcome {
  if (error instanceof ApiError) {
    return {
      ok: false,
      kind: error.kind,
      code: error.networkCode,
      status: error.status,
      serviceCode: error.serviceCode,
      message: `${error.serviceMessage ?? ""} ${error.message}`.trim(),
    };
  }
  return { ok: false, kind: "other", message: messageOf(error) };
}

/** Whether this machine can run `npx` (a node on PATH), for the fixes doctor names. */
function installRoute(env: NodeJS.ProcessEnv): InstallRoute {
  return nodeOnPath(env) === undefined ? "release" : "npx";
}

function nodeOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const names = process.platform === "win32" ? ["node.exe"] : ["node"];
  return (env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((d) => d !== "")
    .flatMap((d) => names.map((n) => path.join(d, n)))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

/** What doctor knows of the provider in `cwd`: where `terraform init` finds it, and where it put it. */
interface ProviderHere {
  readonly cwd: string;
  readonly target: string;
  /** The version the lock file records, else this package's. */
  readonly version: string;
  /** The version of the package in the implied local mirror. */
  readonly mirrorVersion: string;
  /** The release's zip in the implied local mirror (packed), if there. */
  readonly packed: string | null;
  /** An unpacked package in the implied local mirror (an earlier install), if there. */
  readonly unpacked: string | null;
  /** The package terraform init installed (`.terraform/providers/…/VERSION/OS_ARCH`), if there. */
  readonly initialized: string | null;
  readonly lock: { version: string; hashes: string[] } | null;
}

/**
 * Applies to a directory holding a Terraform configuration (*.tf, *.tf.json), terraform.d or
 * .terraform; a cdktf app's stacks get theirs from synth.
 */
function providerHere(cwd: string): ProviderHere | { why: string } {
  let names: string[];
  try {
    names = fs.readdirSync(cwd);
  } catch {
    names = [];
  }
  if (!names.some((n) => n.endsWith(".tf") || n.endsWith(".tf.json") || n === "terraform.d" || n === ".terraform")) {
    return { why: "no *.tf configuration here; a cdktf app's stacks get the provider from synth" };
  }
  const target = terraformTarget(process.platform, process.arch);
  if (target === null) return { why: `Terraform has no platform for ${process.platform} on ${process.arch}` };
  let lock: ProviderHere["lock"] = null;
  try {
    lock = readLockEntry(fs.readFileSync(path.join(cwd, LOCK_FILE_NAME), "utf8"));
  } catch {
    lock = null;
  }
  const version = lock?.version !== undefined && lock.version !== "" ? lock.version : TOOL_VERSION;
  // this package's version first (what provider install writes), then the lock file's
  const versions = [...new Set([TOOL_VERSION, version])];
  const first = (rel: (v: string) => string): { rel: string; version: string } | null => {
    for (const v of versions) if (fs.existsSync(path.join(cwd, rel(v)))) return { rel: rel(v), version: v };
    return null;
  };
  const packed = first((v) => packedMirrorPath(v, target));
  const unpacked = packed === null ? first((v) => mirrorPath(v, target)) : null;
  return {
    cwd,
    target,
    version,
    mirrorVersion: (packed ?? unpacked)?.version ?? TOOL_VERSION,
    packed: packed?.rel ?? null,
    unpacked: unpacked?.rel ?? null,
    initialized: fs.existsSync(path.join(cwd, initializedProviderDir(version, target))) ? initializedProviderDir(version, target) : null,
    lock,
  };
}

function providerState(here: ProviderHere | { why: string }, route: InstallRoute): ProviderState {
  if ("why" in here) return { kind: "not-applicable", why: here.why };
  if (here.packed !== null) return { kind: "found", path: here.packed, by: "mirror-here" };
  if (here.unpacked !== null) {
    return isExecutable(path.join(here.cwd, here.unpacked)) ? { kind: "found", path: here.unpacked, by: "mirror-here" } : { kind: "not-executable", path: here.unpacked, route };
  }
  if (here.initialized !== null) return { kind: "found", path: here.initialized, by: "terraform-init" };
  return { kind: "missing", path: packedMirrorPath(here.version, here.target), route };
}

/** The files of the package Terraform uses here, and where they are: the one terraform init installed, else the one in the implied local mirror. */
function packageInUse(cwd: string, here: ProviderHere): { files: PackageFile[]; from: "mirror-here" | "terraform-init" } | null {
  try {
    if (here.initialized !== null) return { files: directoryFiles(path.join(cwd, here.initialized)), from: "terraform-init" };
    if (here.packed !== null) return { files: readZip(fs.readFileSync(path.join(cwd, here.packed))), from: "mirror-here" };
    if (here.unpacked !== null) return { files: directoryFiles(path.dirname(path.join(cwd, here.unpacked))), from: "mirror-here" };
  } catch {
    return null;
  }
  return null;
}

function directoryFiles(dir: string): PackageFile[] {
  return fs
    .readdirSync(dir)
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => ({ name, mode: 0o644 as const, data: fs.readFileSync(path.join(dir, name)) }));
}

/** The lock file's entry and the `h1:` hash of the package Terraform uses. */
function providerLockState(cwd: string, here: ProviderHere | { why: string }, route: InstallRoute): Parameters<typeof providerLockCheck>[0] {
  if ("why" in here) return { kind: "not-applicable", why: here.why };
  if (!fs.existsSync(path.join(cwd, LOCK_FILE_NAME))) return { kind: "not-applicable", why: `no ${LOCK_FILE_NAME} here` };
  if (here.lock === null) return { kind: "not-applicable", why: `${LOCK_FILE_NAME} has no alert-rule-users/alertrules entry` };
  const used = packageInUse(cwd, here);
  if (used === null) return { kind: "not-applicable", why: "the provider is not installed here (see provider)" };
  const installedVersion = used.from === "terraform-init" ? here.version : here.mirrorVersion;
  return { kind: "compared", lockVersion: here.lock.version, lockHashes: here.lock.hashes, installedVersion, installedHash: h1Hash(used.files), from: used.from, route };
}

/**
 * The plugin cache Terraform uses: `TF_PLUGIN_CACHE_DIR`, else `plugin_cache_dir` of the CLI
 * configuration (`TF_CLI_CONFIG_FILE`, else ~/.terraformrc).
 */
function pluginCacheDir(cwd: string, env: NodeJS.ProcessEnv): { dir: string; from: string } | undefined {
  const fromEnv = nonEmpty(env["TF_PLUGIN_CACHE_DIR"]);
  if (fromEnv !== undefined) return { dir: path.resolve(cwd, fromEnv), from: "TF_PLUGIN_CACHE_DIR" };
  const home = env["HOME"] ?? env["USERPROFILE"];
  const config = nonEmpty(env["TF_CLI_CONFIG_FILE"]) ?? (home === undefined ? undefined : path.join(home, process.platform === "win32" ? "terraform.rc" : ".terraformrc"));
  if (config === undefined) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, config), "utf8");
  } catch {
    return undefined;
  }
  const set = /^\s*plugin_cache_dir\s*=\s*"([^"]*)"/m.exec(text)?.[1];
  if (set === undefined || set === "") return undefined;
  const expanded = set.startsWith("$HOME") && home !== undefined ? path.join(home, set.slice("$HOME".length)) : set;
  return { dir: path.resolve(path.dirname(path.resolve(cwd, config)), expanded), from: `plugin_cache_dir of ${config}` };
}

/** This provider's entry in the plugin cache: a directory, a link (to what, still there?), or none. */
function pluginCacheState(cwd: string, env: NodeJS.ProcessEnv, here: ProviderHere | { why: string }, route: InstallRoute): Parameters<typeof pluginCacheCheck>[0] {
  const cache = pluginCacheDir(cwd, env);
  if (cache === undefined) return { kind: "not-applicable", why: "no plugin cache is set (TF_PLUGIN_CACHE_DIR, plugin_cache_dir)" };
  const target = terraformTarget(process.platform, process.arch);
  if (target === null) return { kind: "not-applicable", why: `Terraform has no platform for ${process.platform} on ${process.arch}` };
  const version = "why" in here ? TOOL_VERSION : here.version;
  const entry = path.join(cache.dir, ...initializedProviderDir(version, target).split("/").slice(2));
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(entry);
  } catch {
    return { kind: "absent", entry };
  }
  if (!stat.isSymbolicLink()) return { kind: "directory", entry };
  const link = path.resolve(path.dirname(entry), fs.readlinkSync(entry));
  return { kind: "link", entry, target: link, targetExists: fs.existsSync(link), route };
}

/** Whether the package Terraform uses runs with the node on PATH, that node's version, and whether it is the Linux fallback launcher. */
function providerNodeState(cwd: string, env: NodeJS.ProcessEnv, here: ProviderHere | { why: string }, route: InstallRoute): Parameters<typeof providerNodeCheck>[0] {
  const used = "why" in here ? null : packageInUse(cwd, here);
  const launcher = used?.files.find((f) => f.name.startsWith("terraform-provider-alertrules_v"));
  if (used === null || !used.files.some((f) => f.name === BUNDLE_NAME) || launcher === undefined) return { kind: "not-applicable", why: "no Node.js-needing package installed here" };
  const node = nodeOnPath(env);
  const version = node === undefined ? null : nodeVersion(node, env);
  return { kind: "needs-node", nodeOnPath: version, os: process.platform === "darwin" ? "darwin" : "linux", fallback: launcher.data.toString("utf8").includes("NOT the release's"), route };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** cdktf.json, then a synth into a directory of its own (the app's cdktf.out is left as it is). */
async function appChecks(request: DoctorRequest): Promise<DoctorCheck[]> {
  let app = nonEmpty(request.app);
  if (app === undefined) {
    if (!fs.existsSync(path.join(request.cwd, "cdktf.json"))) {
      return [appCheck({ kind: "absent" }), synthCheck({ kind: "not-run", why: "no cdktf.json here" })];
    }
    try {
      app = readAppCommand(request.cwd);
    } catch (error) {
      return [appCheck({ kind: "invalid", problem: messageOf(error) }), synthCheck({ kind: "not-run", why: "cdktf.json is invalid" })];
    }
  }
  const outdir = mkdtempSync(path.join(tmpdir(), "alert-rule-users-doctor-"));
  try {
    const stacks = await synthesizeApp({ app, outdir, cwd: request.cwd, env: request.env, skipSynth: false, stacks: [] });
    return [appCheck({ kind: "ok", app }), synthCheck({ kind: "ok", stacks: stacks.length, lists: stacks.reduce((n, s) => n + s.lists, 0) })];
  } catch (error) {
    return [appCheck({ kind: "ok", app }), synthCheck({ kind: "failed", problem: messageOf(error) })];
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The `engines.node` range of this package's package.json; null where it cannot be read. */
function enginesRange(): string | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { engines?: { node?: unknown } };
    return typeof pkg.engines?.node === "string" ? pkg.engines.node : null;
  } catch {
    return null;
  }
}

/** Whether this process is the provider's self-contained executable (a Node.js single executable application). */
function runsAsSea(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:sea exists from Node.js 20.12 and 21.7 only
    return (require("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === "" ? undefined : text;
}
