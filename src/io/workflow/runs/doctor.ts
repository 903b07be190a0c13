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
  nodeCheck,
  notReadChecks,
  pluginCacheCheck,
  providerCheck,
  providerLockCheck,
  providerNodeCheck,
  mirrorPath,
  serviceChecks,
  synthCheck,
  terraformCheck,
  terraformTarget,
  unconfiguredChecks,
  type DoctorCheck,
  type ReadOutcome,
} from "../../../core/doctor/doctor";
import { LOCK_FILE_NAME, readLockEntry } from "../../../core/native/provider-lock";
import { pluginCacheEntry } from "../../provider-install";
import { BUNDLE_NAME, h1Hash, type PackageFile } from "../../provider-package";
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
  const checks: DoctorCheck[] = [nodeCheck(request.nodeVersion ?? process.version, enginesRange())];
  const rawUrl = nonEmpty(request.baseUrl) ?? nonEmpty(request.env["ALERTS_API_URL"]);
  const base = baseUrlCheck(rawUrl, nonEmpty(request.baseUrl) !== undefined ? "--base-url" : "ALERTS_API_URL");
  checks.push(base);
  checks.push(...(await serviceRead(request, onWarning, base.status === "fail")));
  checks.push(terraformCheck(await terraformVersion(request.env, request.cwd)));
  checks.push(providerCheck(providerState(request.cwd)));
  const needsNode = providerNodeCheck(providerNodeState(request.cwd, request.env));
  if (needsNode !== null) checks.push(needsNode);
  checks.push(providerLockCheck(providerLockState(request.cwd)));
  checks.push(pluginCacheCheck(pluginCacheState(request.cwd, request.env)));
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

/**
 * The provider in `cwd`'s implied local mirror, where `terraform init` in `cwd` looks. Applies to
 * a directory holding a Terraform configuration (*.tf) or a terraform.d directory; a cdktf app's
 * stacks get theirs from synth.
 */
function providerState(cwd: string): Parameters<typeof providerCheck>[0] {
  let names: string[];
  try {
    names = fs.readdirSync(cwd);
  } catch {
    names = [];
  }
  if (!names.some((n) => n.endsWith(".tf") || n === "terraform.d")) {
    return { kind: "not-applicable", why: "no *.tf configuration here; a cdktf app's stacks get the provider from synth" };
  }
  const target = terraformTarget(process.platform, process.arch);
  if (target === null) return { kind: "not-applicable", why: `Terraform has no platform for ${process.platform} on ${process.arch}` };
  const rel = mirrorPath(TOOL_VERSION, target);
  try {
    fs.accessSync(path.join(cwd, rel), fs.constants.X_OK);
    return { kind: "found", path: rel };
  } catch {
    return { kind: fs.existsSync(path.join(cwd, rel)) ? "not-executable" : "missing", path: rel };
  }
}

/** The directory of this version's package for this platform in `cwd`'s implied local mirror, if installed. */
function installedPackageDir(cwd: string): string | null {
  const target = terraformTarget(process.platform, process.arch);
  if (target === null) return null;
  const dir = path.dirname(path.join(cwd, mirrorPath(TOOL_VERSION, target)));
  return fs.existsSync(dir) ? dir : null;
}

function packageFiles(dir: string): PackageFile[] {
  return fs
    .readdirSync(dir)
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => ({ name, mode: 0o644 as const, data: fs.readFileSync(path.join(dir, name)) }));
}

/** The lock file's entry and the installed package's `h1:` hash. */
function providerLockState(cwd: string): Parameters<typeof providerLockCheck>[0] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(cwd, LOCK_FILE_NAME), "utf8");
  } catch {
    return { kind: "not-applicable", why: `no ${LOCK_FILE_NAME} here` };
  }
  const entry = readLockEntry(text);
  if (entry === null) return { kind: "not-applicable", why: `${LOCK_FILE_NAME} has no alert-rule-users/alertrules entry` };
  const dir = installedPackageDir(cwd);
  if (dir === null) return { kind: "not-applicable", why: "the provider is not installed here (see provider)" };
  return { kind: "compared", lockVersion: entry.version, lockHashes: entry.hashes, installedVersion: TOOL_VERSION, installedHash: h1Hash(packageFiles(dir)) };
}

/** This provider's entry in TF_PLUGIN_CACHE_DIR: a directory, a link (to what, still there?), or none. */
function pluginCacheState(cwd: string, env: NodeJS.ProcessEnv): Parameters<typeof pluginCacheCheck>[0] {
  const cache = nonEmpty(env["TF_PLUGIN_CACHE_DIR"]);
  if (cache === undefined) return { kind: "not-applicable", why: "TF_PLUGIN_CACHE_DIR is not set" };
  const target = terraformTarget(process.platform, process.arch);
  if (target === null) return { kind: "not-applicable", why: `Terraform has no platform for ${process.platform} on ${process.arch}` };
  const entry = pluginCacheEntry(path.resolve(cwd, cache), TOOL_VERSION, target);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(entry);
  } catch {
    return { kind: "absent", entry };
  }
  if (!stat.isSymbolicLink()) return { kind: "directory", entry };
  const link = path.resolve(path.dirname(entry), fs.readlinkSync(entry));
  return { kind: "link", entry, target: link, targetExists: fs.existsSync(link) };
}

/** Whether the installed package runs with the node on PATH, and that node's version. */
function providerNodeState(cwd: string, env: NodeJS.ProcessEnv): Parameters<typeof providerNodeCheck>[0] {
  const dir = installedPackageDir(cwd);
  if (dir === null || !fs.existsSync(path.join(dir, BUNDLE_NAME))) return { kind: "not-applicable", why: "no Node.js-needing package installed here" };
  const node = (env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((d) => d !== "")
    .map((d) => path.join(d, "node"))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  const version = node === undefined ? null : nodeVersion(node, env);
  return { kind: "needs-node", nodeOnPath: version, os: process.platform === "darwin" ? "darwin" : "linux" };
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

/** The `engines.node` range of this package's package.json. */
function enginesRange(): string {
  for (const up of ["../../..", "../../../.."]) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, up, "package.json"), "utf8")) as { name?: string; engines?: { node?: string } };
      if (pkg.name === "alert-rule-users" && typeof pkg.engines?.node === "string") return pkg.engines.node;
    } catch {
      // try the next candidate
    }
  }
  return "unknown";
}

function nonEmpty(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === "" ? undefined : text;
}
