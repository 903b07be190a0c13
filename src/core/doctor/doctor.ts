/**
 * `alert-rule-users doctor`: the verdicts, from what the checks observed (src/io/workflow/runs/doctor.ts). Pure:
 * each function turns one observation into one line (what was found) and, unless it passed, what
 * to do. A check that does not apply here is skipped with its reason, never failed.
 */
export { initializedProviderDir, mirrorPath, packedMirrorPath, terraformTarget } from "../native/native-provider";

export type CheckStatus = "pass" | "fail" | "skip";

export type CheckName = "node" | "base-url" | "connection" | "token" | "tenant" | "rate" | "terraform" | "provider" | "provider-lock" | "plugin-cache" | "app" | "synth" | "github-secrets" | "github-environment";

export interface DoctorCheck {
  readonly check: CheckName;
  readonly status: CheckStatus;
  /** What was found, one line. */
  readonly message: string;
  /** What to do about it (failures), or why the check was skipped. */
  readonly fix?: string;
}

const pass = (check: CheckName, message: string): DoctorCheck => ({ check, status: "pass", message });
const fail = (check: CheckName, message: string, fix: string): DoctorCheck => ({ check, status: "fail", message, fix });
const skip = (check: CheckName, message: string, why: string): DoctorCheck => ({ check, status: "skip", message, fix: why });

/** Exit 0 only when every check passed or did not apply. */
export function doctorPassed(checks: readonly DoctorCheck[]): boolean {
  return checks.every((c) => c.status !== "fail");
}

// ---- Node.js ----

type Version = readonly [number, number, number];

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Whether `version` satisfies an `engines` range made of `||`-joined `^x.y.z`, `>=x.y.z` and
 * `x.y.z` terms (the forms package.json uses); undefined for a range of any other form.
 */
export function satisfiesEngines(version: string, range: string): boolean | undefined {
  const v = parseVersion(version);
  if (v === undefined) return undefined;
  let answer = false;
  for (const term of range.split("||").map((t) => t.trim())) {
    const m = /^(\^|>=)?\s*(\d+\.\d+\.\d+)$/.exec(term);
    if (m === null) return undefined;
    const base = parseVersion(m[2]!)!;
    if (m[1] === "^") answer ||= v[0] === base[0] && compare(v, base) >= 0;
    else if (m[1] === ">=") answer ||= compare(v, base) >= 0;
    else answer ||= compare(v, base) === 0;
  }
  return answer;
}

/**
 * The running Node.js against `engines` (null: this package's package.json could not be read).
 * Inside the provider's self-contained executable (`sea`), no Node.js is needed: skipped, saying so.
 */
export function nodeCheck(version: string, engines: string | null, sea = false): DoctorCheck {
  if (sea) return skip("node", "no Node.js needed", "this runs inside the provider's self-contained executable, which carries its own");
  if (engines === null) return skip("node", `Node.js ${version}`, "this package's package.json (its engines range) could not be read");
  const ok = satisfiesEngines(version, engines);
  if (ok === true) return pass("node", `Node.js ${version} (supported: ${engines})`);
  if (ok === undefined) return skip("node", `Node.js ${version}`, `the supported range '${engines}' could not be read`);
  return fail("node", `Node.js ${version} is not supported (supported: ${engines})`, "install Node.js 22 or 24 (LTS) and run again with it first on PATH");
}

// ---- The base URL ----

/**
 * The base URL as given: unset, not http(s), or ending in `/v1` (the client adds `/v1/...`
 * itself, so the requests would go to `/v1/v1/...`). `source` names where it came from.
 */
export function baseUrlCheck(raw: string | undefined, source: string): DoctorCheck {
  if (raw === undefined || raw.trim() === "") {
    return fail("base-url", "no base URL", "set ALERTS_API_URL to the service's base URL (for the simulator: the URL the simulator prints), or pass --base-url URL");
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail("base-url", `${source} '${raw}' is not a URL`, "write it as https://alerts.example.com (http:// for the local simulator)");
  }
  if (url.username !== "" || url.password !== "") {
    return fail("base-url", `${source} contains credentials`, `remove them (${url.origin}) and put the token in ALERTS_API_TOKEN or a --token-file`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail("base-url", `${source} uses ${url.protocol.replace(/:$/, "")}:`, "use https:// (or http:// for the local simulator)");
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/v1$/i.test(path)) {
    const fixed = `${url.origin}${path.replace(/\/v1$/i, "")}`;
    return fail("base-url", `${source} ${url.origin}${path} ends in /v1, and the client adds /v1 itself (requests would go to ${path}/v1/...)`, `remove the /v1: ${fixed}`);
  }
  return pass("base-url", `${source} ${url.origin}${path}`);
}

// ---- The connection, the token, the tenant and the rate: one read ----

/** How the one read of the doctor (a rule-metadata search of one rule) ended. */
export type ReadOutcome =
  | { readonly ok: true; readonly totalRules: number }
  | {
      readonly ok: false;
      readonly kind: "network" | "timeout" | "http" | "other";
      /** The system or OpenSSL code of a network failure (ECONNREFUSED, ENOTFOUND, EPROTO, ...). */
      readonly code?: string | undefined;
      readonly status?: number | undefined;
      readonly serviceCode?: string | undefined;
      readonly message: string;
    };

/** The 429s seen during the read: how long the service asked to wait (ms), if it said. */
export interface RateSeen {
  readonly throttled: number;
  readonly retryAfterMs: number | undefined;
}

const TLS_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|ALTNAME/;

/** What a failed read says about the connection: undefined when the service answered (the connection is fine). */
function connectionFailure(baseUrl: string, outcome: Extract<ReadOutcome, { ok: false }>): DoctorCheck | undefined {
  const url = safeUrl(baseUrl);
  const host = url?.host ?? baseUrl;
  if (outcome.kind === "timeout") {
    return fail("connection", `${baseUrl} did not answer in time`, "check the host and port of the base URL and that no firewall drops the connection; a slow service: --timeout SECONDS");
  }
  if (outcome.kind !== "network") return undefined;
  const code = outcome.code ?? "";
  if (/wrong version number/i.test(outcome.message) || code === "ERR_SSL_WRONG_VERSION_NUMBER") {
    const plain = url === undefined ? baseUrl : `http://${url.host}${url.pathname.replace(/\/+$/, "")}`;
    return fail("connection", `${baseUrl}: this server speaks plain http, not TLS (OpenSSL: wrong version number)`, `use http://…: ${plain}`);
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return fail("connection", `${host} does not resolve (DNS ${code})`, "check the host name of the base URL (a typo?) and the machine's DNS");
  }
  if (code === "ECONNREFUSED") {
    return fail("connection", `nothing listens at ${host} (connection refused)`, "is the simulator running? Start it (npx --no -- alert-rule-users simulator) or check the port of the base URL");
  }
  if (TLS_CERTIFICATE.test(code)) {
    return fail("connection", `${host}: its TLS certificate is not accepted (${code})`, "check the host name of the base URL; a private CA: NODE_EXTRA_CA_CERTS=ca.pem");
  }
  if (code === "EPROTO" || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) {
    return fail("connection", `${host}: the TLS handshake failed (${code})`, "check that the scheme and port of the base URL are the service's HTTPS endpoint");
  }
  return fail("connection", `${baseUrl} could not be reached (${code === "" ? outcome.message : code})`, "check the base URL and the network (a proxy? a VPN?)");
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The connection, token, tenant and rate checks from the one read. A check that the read never got
 * far enough to test is skipped, naming the check that stopped it.
 */
export function serviceChecks(baseUrl: string, tenantId: string, outcome: ReadOutcome, rate: RateSeen): DoctorCheck[] {
  const rateCheck =
    rate.throttled === 0
      ? pass("rate", "no rate limiting (429) seen")
      : fail(
          "rate",
          `the service rate limited the read${rate.retryAfterMs === undefined ? "" : ` and asked to wait ${Math.ceil(rate.retryAfterMs / 1000)} s (Retry-After)`}`,
          "another job may be using this token's rate: run with --max-rps below the service's limit, or later",
        );
  if (outcome.ok) {
    return [
      pass("connection", `${baseUrl} answers`),
      pass("token", `the token reads rule metadata (${outcome.totalRules} rule${outcome.totalRules === 1 ? "" : "s"})`),
      pass("tenant", `tenant ${tenantId}`),
      rateCheck,
    ];
  }
  const unreachable = connectionFailure(baseUrl, outcome);
  if (unreachable !== undefined) {
    const why = "the service could not be reached";
    return [unreachable, skip("token", "not checked", why), skip("tenant", "not checked", why), rate.throttled === 0 ? skip("rate", "not checked", why) : rateCheck];
  }
  const reached = pass("connection", `${baseUrl} answers`);
  const serviceSays = `${outcome.status ?? "error"}${outcome.serviceCode === undefined ? "" : ` ${outcome.serviceCode}`}`;
  if (outcome.status === 401) {
    return [
      reached,
      fail("token", `the token was refused (${serviceSays})`, "check ALERTS_API_TOKEN (or --token-file / the token command): expired, or for another service?"),
      skip("tenant", "not checked", "the token was refused"),
      rateCheck,
    ];
  }
  if (outcome.status === 403 && /TENANT/i.test(`${outcome.serviceCode ?? ""} ${outcome.message}`)) {
    return [
      reached,
      pass("token", "the token is accepted"),
      fail("tenant", `the service refuses tenant ${tenantId} for this token (${serviceSays})`, "check ALERTS_TENANT_ID (or --tenant-id): the tenant of this token"),
      rateCheck,
    ];
  }
  if (outcome.status === 403) {
    return [
      reached,
      fail("token", `access denied (${serviceSays})`, "the token lacks the role to read alert rules: ask for a token with it"),
      skip("tenant", "not checked", "access was denied"),
      rateCheck,
    ];
  }
  if (outcome.status === 404) {
    return [
      fail("connection", `${baseUrl} answers 404 to the API's paths`, "check the path of the base URL: it is the service's root, without /v1"),
      skip("token", "not checked", "the API was not found"),
      skip("tenant", "not checked", "the API was not found"),
      rateCheck,
    ];
  }
  if (outcome.status === 429) return [reached, skip("token", "not checked", "rate limited"), skip("tenant", "not checked", "rate limited"), rateCheck];
  return [
    fail("connection", `${baseUrl}: the read failed: ${outcome.message}`, "check the base URL; a 5xx: the service is failing, try again later"),
    skip("token", "not checked", "the read failed"),
    skip("tenant", "not checked", "the read failed"),
    rateCheck,
  ];
}

/**
 * The connection could not even be set up (no token, no tenant, no usable URL): the service checks
 * are not run. The settings' error lists its problems one a line (`- WHAT: HOW TO FIX.`); each
 * becomes one line of its own check, and a base URL problem that the base-url check has reported
 * already is not repeated.
 */
export function unconfiguredChecks(problem: string, baseUrlFailed = false): DoctorCheck[] {
  const why = "the connection is not configured";
  const lines = problem
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2));
  const problems = (lines.length > 0 ? lines : [problem.trim()]).map((line) => {
    const at = line.indexOf(": ");
    const what = (at < 0 ? line : line.slice(0, at)).replace(/\.$/, "");
    const fix = at < 0 ? "set ALERTS_API_URL, ALERTS_TENANT_ID and the token (ALERTS_API_TOKEN, --token-file or a token command)" : line.slice(at + 2).replace(/\.$/, "");
    const check: CheckName = /TOKEN|token/.test(what) ? "token" : /TENANT|tenant/i.test(what) ? "tenant" : /URL/.test(what) ? "base-url" : "connection";
    return { check, what, fix };
  });
  const shown = problems.filter((p) => !(baseUrlFailed && p.check === "base-url"));
  const failed = new Set<CheckName>(shown.map((p) => p.check));
  const checks: DoctorCheck[] = shown.map((p) => fail(p.check, p.what, p.fix));
  if (!failed.has("connection")) checks.unshift(skip("connection", "not checked", baseUrlFailed && shown.length === 0 ? "the base URL is not usable (see base-url)" : why));
  for (const name of ["token", "tenant", "rate"] as const) if (!failed.has(name)) checks.push(skip(name, "not checked", why));
  return checks;
}

/** The base URL failed its own check: the service is not asked (its failure would say the same again). */
export function notReadChecks(): DoctorCheck[] {
  const why = "the base URL is not usable (see base-url)";
  return [skip("connection", "not checked", why), skip("token", "not checked", why), skip("tenant", "not checked", why), skip("rate", "not checked", why)];
}

// ---- Terraform ----

/** `terraform version`: not on PATH (null), or its first line. */
export function terraformCheck(versionLine: string | null): DoctorCheck {
  if (versionLine === null) {
    return fail("terraform", "terraform is not on PATH", "install Terraform 1.5 or later (only the Terraform path needs it: plan and apply do not)");
  }
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(versionLine);
  if (m === null) return fail("terraform", `terraform on PATH says '${versionLine}'`, "check that `terraform version` runs");
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major < 1 || (major === 1 && minor < 5)) {
    return fail("terraform", `terraform ${m[0]} is older than 1.5`, "install Terraform 1.5 or later");
  }
  return pass("terraform", `terraform ${m[0].replace(/^v/, "")}`);
}

/**
 * How this machine can install the provider, for the fixes: with the npm package (`npx`: a node on
 * PATH), or only from a release or a mirror (a runner without Node.js).
 */
export type InstallRoute = "npx" | "release";

/** The provider where `terraform init` looks, or where it put it: found, absent, or not applicable here. */
export type ProviderState =
  | { readonly kind: "not-applicable"; readonly why: string }
  | { readonly kind: "found"; readonly path: string; readonly by: "mirror-here" | "terraform-init" }
  | { readonly kind: "not-executable"; readonly path: string; readonly route: InstallRoute }
  | { readonly kind: "missing"; readonly path: string; readonly route: InstallRoute };

const installFix = (route: InstallRoute, again = false): string =>
  route === "npx"
    ? `install it${again ? " again" : ""}: npx --no alert-rule-users provider install (or terraform init, where your CLI configuration names a mirror of the release)`
    : "run terraform init where your CLI configuration names a mirror of the release (provider_installation), or put the release's zip for this platform there (docs/provider.md \"Install\")";

export function providerCheck(state: ProviderState): DoctorCheck {
  switch (state.kind) {
    case "not-applicable":
      return skip("provider", "not checked", state.why);
    case "found":
      return pass("provider", state.by === "mirror-here" ? `installed at ./${state.path}` : `installed by terraform init at ./${state.path} (from a mirror)`);
    case "not-executable":
      return fail("provider", `./${state.path} is not executable`, installFix(state.route, true));
    case "missing":
      return fail("provider", `not installed where terraform init looks (./${state.path}), and terraform init has not installed it (./.terraform/providers)`, installFix(state.route));
  }
}

/** The lock file's entry for this provider against the package Terraform uses (docs/provider.md "The lock file"). */
export function providerLockCheck(
  state:
    | { readonly kind: "not-applicable"; readonly why: string }
    | {
        readonly kind: "compared";
        readonly lockVersion: string;
        readonly lockHashes: readonly string[];
        readonly installedVersion: string;
        readonly installedHash: string;
        /** Where the compared package is: installed in this directory (`provider install`), or by terraform init from a mirror. */
        readonly from: "mirror-here" | "terraform-init";
        readonly route: InstallRoute;
      },
): DoctorCheck {
  if (state.kind === "not-applicable") return skip("provider-lock", "not checked", state.why);
  const fix =
    state.route === "release"
      ? "write the lock file again from the release: terraform providers lock -fs-mirror=RELEASE/mirror (or -net-mirror=URL) with -platform= each of linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64; then terraform init -upgrade here, and commit .terraform.lock.hcl"
      : state.from === "mirror-here"
        ? "write both again: npx --no alert-rule-users provider install --lock (then commit .terraform.lock.hcl)"
        : "write the lock file again: npx --no alert-rule-users provider lock, then terraform init -upgrade (and commit .terraform.lock.hcl)";
  if (state.lockVersion !== state.installedVersion) {
    return fail("provider-lock", `.terraform.lock.hcl records alertrules ${state.lockVersion}, and ${state.installedVersion} is installed: terraform init -lockfile=readonly will refuse it`, fix);
  }
  if (!state.lockHashes.includes(state.installedHash)) {
    return fail(
      "provider-lock",
      `.terraform.lock.hcl does not record the installed provider's hash (${state.installedHash}): terraform init will say it "doesn't match any of the checksums previously recorded"`,
      fix,
    );
  }
  return pass("provider-lock", `.terraform.lock.hcl records the installed provider (${state.installedHash})`);
}

/** This provider's entry in Terraform's plugin cache (`plugin_cache_dir`, `TF_PLUGIN_CACHE_DIR`). */
export function pluginCacheCheck(
  state:
    | { readonly kind: "not-applicable"; readonly why: string }
    | { readonly kind: "directory" | "absent"; readonly entry: string }
    | { readonly kind: "link"; readonly entry: string; readonly target: string; readonly targetExists: boolean; readonly route: InstallRoute },
): DoctorCheck {
  switch (state.kind) {
    case "not-applicable":
      return skip("plugin-cache", "not checked", state.why);
    case "absent":
      return pass("plugin-cache", `no alertrules entry in the plugin cache yet (${state.entry})`);
    case "directory":
      return pass("plugin-cache", `the plugin cache holds the provider as a directory of its own (${state.entry})`);
    case "link": {
      const again = `remove the entry (rm ${state.entry}), ${state.route === "npx" ? "install the provider again (npx --no alert-rule-users provider install: the release's zip, which terraform init copies into the cache)" : "put the release's zip where terraform init looks"}, then terraform init`;
      return state.targetExists
        ? fail(
            "plugin-cache",
            `the plugin cache's entry ${state.entry} is a link to ${state.target}: removing that directory will break every project that shares the cache`,
            again,
          )
        : fail("plugin-cache", `the plugin cache's entry ${state.entry} points at ${state.target}, which is gone: terraform says "there is no package for … cached in .terraform/providers"`, again);
    }
  }
}

/** A package that runs with the node on PATH (the darwin packages, or the launcher written on Linux where the executable was not at hand). */
export function providerNodeCheck(
  state:
    | { readonly kind: "not-applicable"; readonly why: string }
    | { readonly kind: "needs-node"; readonly nodeOnPath: string | null; readonly os: "linux" | "darwin"; readonly fallback: boolean; readonly route: InstallRoute },
): DoctorCheck | null {
  if (state.kind === "not-applicable") return null;
  const selfContained = state.route === "npx" ? "npx --no alert-rule-users provider install" : "put the release's zip for this platform where terraform init looks, then terraform init -upgrade";
  if (state.fallback) {
    return fail(
      "provider",
      "the installed provider is not the release's package but the launcher written where the self-contained executable was not at hand: it runs only with a node on PATH, and a lock file of the release refuses it",
      `install the release's package (no Node.js needed): ${selfContained}`,
    );
  }
  if (state.nodeOnPath !== null) {
    const major = Number(/^v?(\d+)/.exec(state.nodeOnPath)?.[1] ?? "0");
    if (major >= 20) return null;
  }
  const found = state.nodeOnPath === null ? "there is no node on PATH" : `the node on PATH is ${state.nodeOnPath}`;
  return fail(
    "provider",
    `the installed provider runs with Node.js 20 or later on PATH, and ${found}: terraform cannot start it`,
    state.os === "linux" ? `install the self-contained executable (no Node.js needed): ${selfContained}` : "install Node.js 20 or later (brew install node), first on the PATH terraform runs with",
  );
}

// ---- The app ----

/** `cdktf.json` here: absent (the app checks are skipped), unreadable, or its app command. */
export function appCheck(state: { readonly kind: "absent" } | { readonly kind: "invalid"; readonly problem: string } | { readonly kind: "ok"; readonly app: string }): DoctorCheck {
  switch (state.kind) {
    case "absent":
      return skip("app", "no cdktf.json here", "not a cdktf app directory: run doctor in your app's directory to check it");
    case "invalid":
      return fail("app", state.problem, "fix cdktf.json: its \"app\" is the command that runs your app, e.g. \"npx ts-node main.ts\"");
    case "ok":
      return pass("app", `cdktf.json: app "${state.app}"`);
  }
}

/** The synth of the app: not run (the app check failed or was skipped), failed, or its stacks and lists. */
export function synthCheck(
  state: { readonly kind: "not-run"; readonly why: string } | { readonly kind: "failed"; readonly problem: string } | { readonly kind: "ok"; readonly stacks: number; readonly lists: number },
): DoctorCheck {
  switch (state.kind) {
    case "not-run":
      return skip("synth", "not run", state.why);
    case "failed":
      return fail("synth", `the app does not synthesize: ${firstLine(state.problem)}`, "run alert-rule-users synth to see the whole error, and fix the app");
    case "ok":
      return pass("synth", `the app synthesizes: ${state.stacks} stack${state.stacks === 1 ? "" : "s"}, ${state.lists} rule user list${state.lists === 1 ? "" : "s"}`);
  }
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? text;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
