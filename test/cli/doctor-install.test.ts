/**
 * `doctor` on what breaks an install of the provider (issue 38), and one line per problem (issue 39's
 * wrong turns): a lock file that does not match the installed provider, a plugin-cache entry that
 * points at a directory that is gone, a package that needs Node.js where no node is on PATH, each
 * with the one command that fixes it; a missing token, a URL without a scheme and a trailing /v1
 * each said once. Run in-process against the simulator, with a stand-in terraform on PATH.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { withLockEntry } from "../../src/core/native/provider-lock";
import { installProvider } from "../../src/io/provider-install";
import { h1Hash, type PackageFile } from "../../src/io/provider-package";
import { nodeLauncherPackage, readBundle } from "../../src/io/provider-package/packages";
import { TOOL_VERSION } from "../../src/io/version";
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

describe("what breaks an install", () => {
  it("a lock file that does not record the installed provider: says so, and the command that writes both again", async () => {
    // given a lock file of another package than the one installed
    const dir = hclDir("lock");
    const installed = installProvider({ dir, files: standIn("echo installed") });
    writeFileSync(join(dir, ".terraform.lock.hcl"), withLockEntry(null, TOOL_VERSION, [h1Hash(standIn("echo other machine"))]));
    // when
    const result = await doctor(connection(), dir);
    // then
    expect(result.code).toBe(1);
    expect(failing(result.lines)).toEqual([
      `FAIL provider-lock  .terraform.lock.hcl does not record the installed provider's hash (${installed.h1}): terraform init will say it "doesn't match any of the checksums previously recorded": write both again: npx --no alert-rule-users provider install --lock (then commit .terraform.lock.hcl)`,
    ]);
    // and once the lock file records it
    writeFileSync(join(dir, ".terraform.lock.hcl"), withLockEntry(null, TOOL_VERSION, [installed.h1]));
    expect((await doctor(connection(), dir)).lines).toContainEqual(expect.stringMatching(/^ok +provider-lock +\.terraform\.lock\.hcl records the installed provider/));
  });

  it("a plugin-cache entry that points at a directory that is gone: says which, and the command that writes it as a directory of its own", async () => {
    // given Terraform's link from the cache into a project that was removed
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
      expect.stringMatching(/^FAIL plugin-cache .* points at .*removed-project\/terraform\.d, which is gone: .*: write it as a directory of its own: npx --no alert-rule-users provider install \(with TF_PLUGIN_CACHE_DIR set\), then terraform init$/),
    ]);
  });

  it("a package that runs with node on PATH where there is none: says so, and the command that installs the self-contained executable", async () => {
    // given the launcher package (what synth writes on Linux before the executable was built here)
    const dir = hclDir("needs-node");
    installProvider({ dir, files: nodeLauncherPackage(TOOL_VERSION, readBundle()) });
    // when the PATH holds terraform but no node
    const result = await doctor({ ...connection(), PATH: fakeBin }, dir);
    // then
    expect(failing(result.lines)).toEqual([
      expect.stringMatching(
        process.platform === "darwin"
          ? /^FAIL provider +the installed provider runs with Node\.js 20 or later on PATH, and there is no node on PATH: terraform cannot start it: install Node\.js 20/
          : /^FAIL provider +the installed provider runs with Node\.js 20 or later on PATH, and there is no node on PATH: terraform cannot start it: install the self-contained executable \(no Node\.js needed\): npx --no alert-rule-users provider install$/,
      ),
    ]);
  });
});

function installProviderTarget(): string {
  return `${process.platform === "darwin" ? "darwin" : "linux"}_${process.arch === "arm64" ? "arm64" : "amd64"}`;
}
