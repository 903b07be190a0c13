/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1, §12.2): the canonical package
 * of this platform in the implied local mirror, as the release's zip (the packed layout, so
 * Terraform copies it into .terraform/providers and any plugin cache instead of linking to it),
 * under Terraform's and OpenTofu's hosts as one file, idempotent; `--from` a release (or its
 * mirror), checked against its SHA256SUMS; no absolute path, no Node.js version in what it writes;
 * never through a link in DIR. No network: the packages here are small stand-ins or the darwin
 * package (the self-contained executables are built and run by test/terraform/provider-package.test.ts).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installProvider } from "../../src/io/provider-install";
import { h1Hash, readZip, writeZip, type PackageFile } from "../../src/io/provider-package";
import { packageOfFiles } from "../../src/io/provider-package/packages";
import { writeRelease } from "../../src/io/provider-package/release";
import { REPO } from "../support/cli";
import { runMain, type MainResult } from "../support/run-main";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const TARGETS: Record<string, string> = { "linux/x64": "linux_amd64", "linux/arm64": "linux_arm64", "darwin/arm64": "darwin_arm64", "darwin/x64": "darwin_amd64" };
const TARGET = TARGETS[`${process.platform}/${process.arch}`]!;
const RELATIVE = `terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/terraform-provider-alertrules_${VERSION}_${TARGET}.zip`;
const UNPACKED = `terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/${VERSION}/${TARGET}`;
const EXECUTABLE = `terraform-provider-alertrules_v${VERSION}`;

const standIn = (body: string): PackageFile[] => [{ name: EXECUTABLE, mode: 0o755, data: Buffer.from(`#!/bin/sh\n${body}\n`) }];

const cli = (cwd: string, ...args: string[]): Promise<MainResult> => runMain(args, cwd);

/** A release directory whose every platform holds `files` (as `provider package` writes it). */
function release(out: string, files: PackageFile[]): void {
  const pkg = (target: "darwin_amd64" | "darwin_arm64" | "linux_amd64" | "linux_arm64" | "windows_amd64") => packageOfFiles(target, files);
  writeRelease(out, VERSION, { darwin_amd64: pkg("darwin_amd64"), darwin_arm64: pkg("darwin_arm64"), linux_amd64: pkg("linux_amd64"), linux_arm64: pkg("linux_arm64"), windows_amd64: pkg("windows_amd64") });
}

/** The files unpacked into a directory of their own, as Terraform unpacks a zip. */
function unpack(files: readonly PackageFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), "aru-unpacked-"));
  for (const f of files) writeFileSync(join(dir, f.name), f.data, { mode: f.mode });
  return dir;
}

describe("alert-rule-users provider install", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "aru-provider-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("--from a release writes its package into DIR's implied local mirror, says its hash, and says to run terraform init", async () => {
    // given
    const files = standIn("echo provider");
    release(join(root, "release"), files);
    // when
    const run = await cli(root, "provider", "install", "tf", "--from", "release");
    // then the release's zip, as it is, in the packed layout
    expect(run.code).toBe(0);
    const file = join(root, "tf", RELATIVE);
    expect(readFileSync(file).equals(writeZip(files))).toBe(true);
    expect(readZip(readFileSync(file))).toEqual(files);
    expect(run.stdout).toContain(`Installed the alertrules provider ${VERSION} (${TARGET}): tf/${RELATIVE}`);
    expect(run.stdout).toContain(`Package hash ${h1Hash(files)}`);
    expect(run.stdout).toContain("Next: cd tf && terraform init");
  });

  it("--from refuses a zip that does not match the release's SHA256SUMS", async () => {
    // given
    release(join(root, "release"), standIn("echo provider"));
    const zip = join(root, "release", `terraform-provider-alertrules_${VERSION}_${TARGET}.zip`);
    const other = mkdtempSync(join(tmpdir(), "aru-provider-other-"));
    release(other, standIn("echo altered"));
    writeFileSync(zip, readFileSync(join(other, `terraform-provider-alertrules_${VERSION}_${TARGET}.zip`)));
    rmSync(other, { recursive: true, force: true });
    // when
    const run = await cli(root, "provider", "install", "--from", "release");
    // then
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("does not match");
    expect(run.stderr).toContain("refused");
  });

  it("--from the release's mirror (its links to the zips) checks the zip against the release's SHA256SUMS too", async () => {
    // given a release whose linux zip was altered after SHA256SUMS was written
    release(join(root, "release"), standIn("echo provider"));
    writeFileSync(join(root, "release", `terraform-provider-alertrules_${VERSION}_${TARGET}.zip`), writeZip(standIn("echo altered")));
    // when installing from its mirror
    const run = await cli(root, "provider", "install", "--from", "release/mirror");
    // then
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("does not match");
  });

  it("writes the same package where OpenTofu looks for alert-rule-users/alertrules (its own registry host, the same implied mirror): one file, two names", async () => {
    release(join(root, "release"), standIn("echo provider"));
    const run = await cli(root, "provider", "install", "--from", "release");
    const forTofu = RELATIVE.replace("/registry.terraform.io/", "/registry.opentofu.org/");
    expect(readFileSync(join(root, forTofu))).toEqual(readFileSync(join(root, RELATIVE)));
    expect(statSync(join(root, forTofu)).ino).toBe(statSync(join(root, RELATIVE)).ino);
    expect(statSync(join(root, RELATIVE)).nlink).toBe(2);
    expect(run.stdout).toContain(`The same for OpenTofu: ${forTofu}`);
  });

  it("leaves an identical package as it is and says so (idempotent)", async () => {
    release(join(root, "release"), standIn("echo provider"));
    await cli(root, "provider", "install", "--from", "release");
    const before = statSync(join(root, RELATIVE));
    const again = await cli(root, "provider", "install", "--from", "release");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("is installed already, unchanged");
    expect(statSync(join(root, RELATIVE)).ino).toBe(before.ino);
  });

  it("replaces the unpacked package an earlier version of install left for this version and platform (Terraform would link to it)", () => {
    // given an earlier install's unpacked directory
    mkdirSync(join(root, UNPACKED), { recursive: true });
    writeFileSync(join(root, UNPACKED, EXECUTABLE), "#!/bin/sh\nold\n");
    chmodSync(join(root, UNPACKED, EXECUTABLE), 0o755);
    // when
    const installed = installProvider({ dir: root, files: standIn("new") });
    // then the zip only
    expect(lstatSync(join(root, dirname(UNPACKED)), { throwIfNoEntry: false })).toBeUndefined();
    expect(readdirSync(dirname(installed.file))).toEqual([`terraform-provider-alertrules_${VERSION}_${TARGET}.zip`]);
    expect(installed.h1).toBe(h1Hash(standIn("new")));
  });

  it("never writes through a link in DIR: terraform.d/plugins linked elsewhere is refused, naming it, and nothing is written there", () => {
    // given
    const elsewhere = mkdtempSync(join(tmpdir(), "aru-provider-elsewhere-"));
    try {
      mkdirSync(join(root, "terraform.d"));
      symlinkSync(elsewhere, join(root, "terraform.d", "plugins"));
      // when / then
      expect(() => installProvider({ dir: root, files: standIn("x") })).toThrow(`provider install: ${join(root, "terraform.d", "plugins")} is a symbolic link`);
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("on macOS writes the launcher and the bundle, no absolute path in them; the launcher runs the bundle with the node on PATH", () => {
    // when
    const installed = installProvider({ dir: root, platform: "darwin", arch: "arm64" });
    // then
    expect(installed.needsNode).toBe(true);
    const files = readZip(readFileSync(installed.file));
    expect(files.map((f) => f.name)).toEqual(["alertrules-provider.js", EXECUTABLE]);
    const launcher = files[1]!.data.toString("utf8");
    expect(launcher).not.toContain(REPO);
    expect(launcher).not.toContain(process.execPath);
    // the launcher starts the provider, which says what it is when started by hand
    const unpacked = unpack(files);
    const run = spawnSync(join(unpacked, EXECUTABLE), [], { env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` }, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("This executable is the alertrules Terraform provider");
  });

  it("the launcher without a node on PATH exits 1 with a sentence, on stdout (where Terraform shows it) and stderr", () => {
    const installed = installProvider({ dir: root, platform: "darwin", arch: "x64" });
    const run = spawnSync(join(unpack(readZip(readFileSync(installed.file))), EXECUTABLE), [], { env: { PATH: "/nonexistent" }, encoding: "utf8" });
    expect(run.status).toBe(1);
    const sentence = `terraform-provider-alertrules ${VERSION}: this package runs with Node.js 20 or later on PATH, and there is no node on PATH`;
    expect(run.stdout).toContain(sentence);
    expect(run.stderr).toContain(sentence);
  });

  it("names the platform in Terraform's words; Windows (amd64) has a package, other platforms are refused with a sentence", () => {
    expect(installProvider({ dir: root, platform: "darwin", arch: "arm64" }).relativePath).toMatch(/_darwin_arm64\.zip$/);
    expect(installProvider({ dir: root, platform: "linux", arch: "x64", files: standIn("x") }).relativePath).toMatch(/_linux_amd64\.zip$/);
    expect(installProvider({ dir: root, platform: "win32", arch: "x64", files: standIn("x") }).relativePath).toMatch(/_windows_amd64\.zip$/);
    expect(() => installProvider({ dir: root, platform: "win32", arch: "arm64" })).toThrow("provider install: no package of this provider for win32 on arm64");
  });

  it("lists install, package and lock in the CLI's help", async () => {
    const help = await cli(root, "--help");
    expect(help.stdout).toMatch(/^ {2}provider +The native Terraform provider/m);
    const group = await cli(root, "provider", "--help");
    for (const sub of ["install", "package", "lock"]) expect(group.stdout).toMatch(new RegExp(`^ {2}${sub} `, "m"));
    const own = await cli(root, "provider", "install", "--help");
    expect(own.stdout).toContain("Usage: alert-rule-users provider install [DIR] [--from RELEASE] [--lock]");
  });
});
