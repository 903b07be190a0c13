/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1, §12.2): the canonical package
 * of this platform in the implied local mirror, exactly its files (so its `h1:` hash is the
 * release's), under Terraform's and OpenTofu's hosts, idempotent; `--from` a release, checked
 * against its SHA256SUMS; no absolute path, no Node.js version in what it writes. No network: the
 * packages here are small stand-ins or the darwin package (the Linux executables are built and run
 * by test/terraform/provider-package.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installProvider } from "../../src/io/provider-install";
import { h1Hash, type PackageFile } from "../../src/io/provider-package";
import { writeRelease } from "../../src/io/provider-package/release";
import { REPO } from "../support/cli";
import { runMain, type MainResult } from "../support/run-main";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const TARGETS: Record<string, string> = { "linux/x64": "linux_amd64", "linux/arm64": "linux_arm64", "darwin/arm64": "darwin_arm64", "darwin/x64": "darwin_amd64" };
const TARGET = TARGETS[`${process.platform}/${process.arch}`]!;
const RELATIVE = `terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/${VERSION}/${TARGET}/terraform-provider-alertrules_v${VERSION}`;
const EXECUTABLE = `terraform-provider-alertrules_v${VERSION}`;

const standIn = (body: string): PackageFile[] => [{ name: EXECUTABLE, mode: 0o755, data: Buffer.from(`#!/bin/sh\n${body}\n`) }];

const cli = (cwd: string, ...args: string[]): Promise<MainResult> => runMain(args, cwd);

/** A release directory whose every platform holds `files` (as `provider package` writes it). */
function release(out: string, files: PackageFile[]): void {
  writeRelease(out, VERSION, { darwin_amd64: files, darwin_arm64: files, linux_amd64: files, linux_arm64: files });
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
    // then
    expect(run.code).toBe(0);
    const file = join(root, "tf", RELATIVE);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readFileSync(file)).toEqual(files[0]!.data);
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

  it("writes the same package where OpenTofu looks for alert-rule-users/alertrules (its own registry host, the same implied mirror)", async () => {
    release(join(root, "release"), standIn("echo provider"));
    const run = await cli(root, "provider", "install", "--from", "release");
    const forTofu = RELATIVE.replace("/registry.terraform.io/", "/registry.opentofu.org/");
    expect(statSync(join(root, forTofu)).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(root, forTofu))).toEqual(readFileSync(join(root, RELATIVE)));
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

  it("the platform's directory holds exactly the package (a file left there would change its h1: hash)", () => {
    // given an earlier install of another package with two files
    installProvider({ dir: root, files: [...standIn("old"), { name: "alertrules-provider.js", mode: 0o644, data: Buffer.from("old") }] });
    // when
    const installed = installProvider({ dir: root, files: standIn("new") });
    // then
    expect(readdirSync(dirname(installed.file))).toEqual([EXECUTABLE]);
    expect(installed.h1).toBe(h1Hash(standIn("new")));
  });

  it("on macOS writes the launcher and the bundle, no absolute path in them; the launcher runs the bundle with the node on PATH", () => {
    // when
    const installed = installProvider({ dir: root, platform: "darwin", arch: "arm64" });
    // then
    expect(installed.needsNode).toBe(true);
    expect(readdirSync(dirname(installed.file)).sort()).toEqual(["alertrules-provider.js", EXECUTABLE]);
    const launcher = readFileSync(installed.file, "utf8");
    expect(launcher).not.toContain(REPO);
    expect(launcher).not.toContain(process.execPath);
    // the launcher starts the provider, which says what it is when started by hand
    const run = spawnSync(installed.file, [], { env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` }, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("This executable is the alertrules Terraform provider");
  });

  it("the launcher without a node on PATH exits 1 with a sentence, on stdout (where Terraform shows it) and stderr", () => {
    const installed = installProvider({ dir: root, platform: "darwin", arch: "x64" });
    const run = spawnSync(installed.file, [], { env: { PATH: "/nonexistent" }, encoding: "utf8" });
    expect(run.status).toBe(1);
    const sentence = `terraform-provider-alertrules ${VERSION}: this package runs with Node.js 20 or later on PATH, and there is no node on PATH`;
    expect(run.stdout).toContain(sentence);
    expect(run.stderr).toContain(sentence);
  });

  it("names the platform in Terraform's words, and refuses Windows with a sentence", () => {
    expect(installProvider({ dir: root, platform: "darwin", arch: "arm64" }).relativePath).toContain("/darwin_arm64/");
    expect(installProvider({ dir: root, platform: "linux", arch: "x64", files: standIn("x") }).relativePath).toContain("/linux_amd64/");
    expect(() => installProvider({ dir: root, platform: "win32", arch: "x64" })).toThrow("provider install: Windows is not supported");
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
