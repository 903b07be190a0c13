/**
 * `doctor` on what breaks an install of the provider (issues 38, 49), and one line per problem
 * (issue 39's wrong turns): a lock file that does not match the installed provider, a plugin-cache
 * entry that is a link into a project (however the cache is set), a package that needs Node.js
 * where no node is on PATH, the Linux launcher that is not the release's, each with the one command
 * that fixes it; an install from a mirror (what terraform init put in .terraform/providers) passes,
 * and on a runner without node the fixes never say npx; the node check reads `engines`; a missing
 * token, a URL without a scheme and a trailing /v1 each said once. Run in-process against the
 * simulator, with a stand-in terraform on PATH.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installProvider } from "../../src/io/provider-install";
import { h1Hash, type PackageFile } from "../../src/io/provider-package";
import { nodeLauncherPackage, readBundle } from "../../src/io/provider-package/packages";
import { TOOL_VERSION } from "../../src/io/version";
import { CLI, REPO, runCommand } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { runMain } from "../support/run-main";

const sim = useSimulator();
let scratch: string;
let fakeBin: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "aru-doctor-install-"));
  fakeBin = join(scratch, "bin");
  mkdirSync(fakeBin);
  writeFileSync(join(fakeBin, "terraform"), "#!/bin/sh\necho 'Terraform v1.11.4'\n");
  chmodSync(join(fakeBin, "terraform"), 0o755);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** doctor's text output: its lines, and its exit code. */
async function doctor(env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; lines: string[] }> {
  const { code, stdout } = await runMain(["doctor"], cwd, { PATH: `${fakeBin}:${dirname(process.execPath)}`, ...env });
  return { code, lines: stdout.split("\n").filter((l) => l.trim() !== "") };
}

const failing = (lines: string[]) => lines.filter((l) => l.startsWith("FAIL"));
const connection = (over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({ ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, ...over });

function hclDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.tf"), 'terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n');
  return dir;
}

const standIn = (body: string): PackageFile[] => [{ name: `terraform-provider-alertrules_v${TOOL_VERSION}`, mode: 0o755, data: Buffer.from(`#!/bin/sh\n${body}\n`) }];

describe("one line per problem", () => {
  it("a missing token: one FAIL line, for the token, saying how to set it (no second line, no stray '.:')", async () => {
    const result = await doctor(connection({ ALERTS_API_TOKEN: undefined }), scratch);
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL token +ALERTS_API_TOKEN is not set: set the environment variable ALERTS_API_TOKEN/)]);
    expect(result.lines.join("\n")).not.toContain(".:");
    expect(result.lines).toContainEqual(expect.stringMatching(/^skip connection +not checked/));
  });

  it("a URL without a scheme: one FAIL line (base-url); the connection is not tried", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: sim.url.replace(/^http:\/\//, "") }), scratch);
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL base-url +ALERTS_API_URL '127\.0\.0\.1:\d+' is not a URL: write it as https:\/\//)]);
  });

  it("a trailing /v1: one FAIL line (base-url) with the URL without it; the service is not asked", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: `${sim.url}/v1` }), scratch);
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL base-url +.*ends in \/v1.*remove the \/v1: http:\/\/127\.0\.0\.1:\d+$/)]);
    expect(result.lines).toContainEqual(expect.stringMatching(/^skip connection +not checked \(the base URL is not usable \(see base-url\)\)/));
  });
});

/** A lock file as Terraform writes it, recording `hashes` for this provider. */
function lockFile(version: string, hashes: readonly string[]): string {
  return `# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\nprovider "registry.terraform.io/alert-rule-users/alertrules" {\n  version = "${version}"\n  hashes = [\n${hashes.map((h) => `    "${h}",\n`).join("")}  ]\n}\n`;
}

/** What `terraform init` leaves when it installed `files` from a mirror: .terraform/providers/…/VERSION/OS_ARCH. */
function initializedFrom(dir: string, files: readonly PackageFile[]): void {
  const at = join(dir, ".terraform", "providers", "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, installProviderTarget());
  mkdirSync(at, { recursive: true });
  for (const f of files) writeFileSync(join(at, f.name), f.data, { mode: f.mode });
}

describe("what breaks an install", () => {
  it("a lock file that does not record the installed provider: says so, and the command that writes both again", async () => {
    // given a lock file of another package than the one installed
    const dir = hclDir("lock");
    const installed = installProvider({ dir, files: standIn("echo installed") });
    writeFileSync(join(dir, ".terraform.lock.hcl"), lockFile(TOOL_VERSION, [h1Hash(standIn("echo other machine"))]));
    // when
    const result = await doctor(connection(), dir);
    // then
    expect(result.code).toBe(1);
    expect(failing(result.lines)).toEqual([
      `FAIL provider-lock  .terraform.lock.hcl does not record the installed provider's hash (${installed.h1}): terraform init will say it "doesn't match any of the checksums previously recorded": write both again: npx --no alert-rule-users provider install --lock (then commit .terraform.lock.hcl)`,
    ]);
    // and once the lock file records it
    writeFileSync(join(dir, ".terraform.lock.hcl"), lockFile(TOOL_VERSION, [installed.h1]));
    expect((await doctor(connection(), dir)).lines).toContainEqual(expect.stringMatching(/^ok +provider-lock +\.terraform\.lock\.hcl records the installed provider/));
  });

  it("a plugin-cache entry that points at a directory that is gone: says which, and how to make Terraform copy the package into the cache", async () => {
    // given Terraform's link from the cache into a project that was removed (what an unpacked install made it do)
    const dir = hclDir("cache-user");
    installProvider({ dir, files: standIn("echo x") });
    const cache = join(scratch, "plugin-cache");
    const entry = join(cache, "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, installProviderTarget());
    mkdirSync(dirname(entry), { recursive: true });
    symlinkSync(join(scratch, "removed-project", "terraform.d"), entry);
    // when
    const result = await doctor({ ...connection(), TF_PLUGIN_CACHE_DIR: cache }, dir);
    // then
    expect(failing(result.lines)).toEqual([
      expect.stringMatching(/^FAIL plugin-cache .* points at .*removed-project\/terraform\.d, which is gone: .*: remove the entry \(rm .*\), install the provider again \(npx --no alert-rule-users provider install: the release's zip, which terraform init copies into the cache\), then terraform init$/),
    ]);
  });

  it("finds the plugin cache of the CLI configuration too (plugin_cache_dir), not only TF_PLUGIN_CACHE_DIR", async () => {
    // given a CLI configuration naming a cache whose entry is a link into another project
    const dir = hclDir("cache-config");
    installProvider({ dir, files: standIn("echo x") });
    const cache = join(scratch, "configured-cache");
    const entry = join(cache, "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, installProviderTarget());
    mkdirSync(dirname(entry), { recursive: true });
    mkdirSync(join(scratch, "other-project", "terraform.d"), { recursive: true });
    symlinkSync(join(scratch, "other-project", "terraform.d"), entry);
    writeFileSync(join(scratch, "cache.tfrc"), `plugin_cache_dir = ${JSON.stringify(cache)}\n`);
    // when
    const result = await doctor({ ...connection(), TF_CLI_CONFIG_FILE: join(scratch, "cache.tfrc") }, dir);
    // then
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL plugin-cache +the plugin cache's entry .* is a link to .*other-project\/terraform\.d: removing that directory will break every project that shares the cache/)]);
  });

  it("a package that runs with node on PATH where there is none: says so, and the command that installs the self-contained executable", async () => {
    // given the darwin launcher package
    const dir = hclDir("needs-node");
    installProvider({ dir, files: nodeLauncherPackage(TOOL_VERSION, readBundle()) });
    // when the PATH holds terraform but no node
    const result = await doctor({ ...connection(), PATH: fakeBin }, dir);
    // then (on a runner without node, the fix says what applies there: no npx)
    expect(failing(result.lines)).toEqual([
      expect.stringMatching(
        process.platform === "darwin"
          ? /^FAIL provider +the installed provider runs with Node\.js 20 or later on PATH, and there is no node on PATH: terraform cannot start it: install Node\.js 20/
          : /^FAIL provider +the installed provider runs with Node\.js 20 or later on PATH, and there is no node on PATH: terraform cannot start it: install the self-contained executable \(no Node\.js needed\): put the release's zip for this platform where terraform init looks, then terraform init -upgrade$/,
      ),
    ]);
  });

  it("the launcher written on Linux where the executable was not at hand: named as not the release's, even with a node on PATH", async () => {
    // given the fallback launcher (what synth writes on Linux before the executable was built here)
    const dir = hclDir("fallback");
    installProvider({ dir, files: nodeLauncherPackage(TOOL_VERSION, readBundle(), "linux_amd64") });
    // when
    const result = await doctor(connection(), dir);
    // then
    expect(failing(result.lines)).toEqual([
      "FAIL provider       the installed provider is not the release's package but the launcher written where the self-contained executable was not at hand: it runs only with a node on PATH, and a lock file of the release refuses it: install the release's package (no Node.js needed): npx --no alert-rule-users provider install",
    ]);
  });
});

describe("an install from a mirror (terraform init, no terraform.d)", () => {
  it("passes: the provider terraform init installed, and the lock file that records it", async () => {
    // given what terraform init leaves after installing from a filesystem or network mirror
    const dir = hclDir("from-mirror");
    initializedFrom(dir, standIn("echo mirrored"));
    writeFileSync(join(dir, ".terraform.lock.hcl"), lockFile(TOOL_VERSION, [h1Hash(standIn("echo other platform")), h1Hash(standIn("echo mirrored"))]));
    // when, on a runner without node
    const result = await doctor({ ...connection(), PATH: fakeBin }, dir);
    // then
    expect(failing(result.lines)).toEqual([]);
    expect(result.lines).toContainEqual(expect.stringMatching(/^ok +provider +installed by terraform init at \.\/\.terraform\/providers\/registry\.terraform\.io\/alert-rule-users\/alertrules\/.* \(from a mirror\)$/));
    expect(result.lines).toContainEqual(expect.stringMatching(/^ok +provider-lock +\.terraform\.lock\.hcl records the installed provider/));
    expect(result.code).toBe(0);
  });

  it("a lock file that does not record it, on a runner without node: the fix names terraform providers lock from the release, not npx", async () => {
    const dir = hclDir("from-mirror-bad-lock");
    initializedFrom(dir, standIn("echo mirrored"));
    writeFileSync(join(dir, ".terraform.lock.hcl"), lockFile(TOOL_VERSION, [h1Hash(standIn("echo other"))]));
    const result = await doctor({ ...connection(), PATH: fakeBin }, dir);
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL provider-lock .*: write the lock file again from the release: terraform providers lock -fs-mirror=RELEASE\/mirror \(or -net-mirror=URL\) with -platform= each of/)]);
    expect(result.lines.join("\n")).not.toContain("npx");
  });

  it("nothing installed, on a runner without node: says to run terraform init with a mirror, not npx", async () => {
    const dir = hclDir("nothing");
    const result = await doctor({ ...connection(), PATH: fakeBin }, dir);
    expect(failing(result.lines)).toEqual([expect.stringMatching(/^FAIL provider +not installed where terraform init looks .*: run terraform init where your CLI configuration names a mirror of the release/)]);
    expect(result.lines.join("\n")).not.toContain("npx");
  });
});

describe("the node check", () => {
  it("the built CLI compares the running Node.js with this package's engines range (read from its package.json, not 'unknown')", async () => {
    const engines = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    const run = await runCommand(process.execPath, [CLI, "doctor"], { cwd: scratch, env: { ...connection(), PATH: `${fakeBin}:${dirname(process.execPath)}` } });
    expect(run.stdout.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^ok +node +Node\\.js ${process.version.replace(/\./g, "\\.")} \\(supported: ${engines.replace(/[.^|>=]/g, (c) => `\\${c}`)}\\)$`)));
  });
});

function installProviderTarget(): string {
  return `${process.platform === "darwin" ? "darwin" : "linux"}_${process.arch === "arm64" ? "arm64" : "amd64"}`;
}
