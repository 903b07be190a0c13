/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1): the provider executable in the
 * implied local mirror, running the provider with the Node.js that installed it, idempotent, and a
 * clear sentence (exit 1) when that Node.js is gone.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import type { Io } from "../../src/cli/io";
import { installProvider } from "../../src/io/provider-install";
import { REPO } from "../support/cli";

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const TARGETS: Record<string, string> = { "linux/x64": "linux_amd64", "linux/arm64": "linux_arm64", "darwin/arm64": "darwin_arm64", "darwin/x64": "darwin_amd64" };
const TARGET = TARGETS[`${process.platform}/${process.arch}`]!;
const RELATIVE = `terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/${VERSION}/${TARGET}/terraform-provider-alertrules_v${VERSION}`;

async function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: { write: (s: string) => ((stdout += s), true) },
    stderr: { write: (s: string) => ((stderr += s), true) },
    stdin: process.stdin,
    env: {},
    cwd,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe("alert-rule-users provider install", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "aru-provider-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes an executable into DIR's implied local mirror that runs this Node.js on dist/src/provider/main.js, and says to run terraform init", async () => {
    // when
    const run = await cli(root, "provider", "install", "tf");
    // then
    expect(run.code).toBe(0);
    const file = join(root, "tf", RELATIVE);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    const script = readFileSync(file, "utf8");
    expect(script.startsWith("#!/bin/sh\n")).toBe(true);
    expect(script).toContain(`node=${process.execPath}\n`);
    expect(script).toContain(`provider=${join(REPO, "dist", "src", "provider", "main.js")}\n`);
    expect(script).toContain('exec "$node" "$provider" "$@"');
    expect(run.stdout).toContain(`Installed the alertrules provider ${VERSION} (${TARGET}): tf/${RELATIVE}`);
    expect(run.stdout).toContain("Next: cd tf && terraform init");
  });

  it("writes the same executable where OpenTofu looks for alert-rule-users/alertrules (its own registry host, the same implied mirror)", async () => {
    // when
    const run = await cli(root, "provider", "install");
    // then
    const forTofu = RELATIVE.replace("/registry.terraform.io/", "/registry.opentofu.org/");
    expect(statSync(join(root, forTofu)).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(root, forTofu), "utf8")).toBe(readFileSync(join(root, RELATIVE), "utf8"));
    expect(run.stdout).toContain(`The same for OpenTofu: ${forTofu}`);
  });

  it("leaves an identical provider as it is and says so (idempotent)", async () => {
    // given
    await cli(root, "provider", "install");
    const file = join(root, RELATIVE);
    const before = statSync(file);
    // when
    const again = await cli(root, "provider", "install");
    // then
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("is installed already, unchanged");
    expect(statSync(file).ino).toBe(before.ino);
  });

  it("replaces a provider that names another Node.js (reinstall after a Node.js upgrade)", () => {
    // given an install made by a Node.js at another path
    const first = installProvider({ dir: root, nodePath: "/opt/node-old/bin/node" });
    // when
    const second = installProvider({ dir: root });
    // then
    expect(first.changed && second.changed).toBe(true);
    expect(readFileSync(second.file, "utf8")).toContain(`node=${process.execPath}\n`);
  });

  it("runs the provider with the recorded Node.js, passing its arguments and environment", () => {
    // given a provider entry that prints what it got
    const entry = join(root, "main.js");
    writeFileSync(entry, "process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), cookie: process.env.TF_PLUGIN_MAGIC_COOKIE }));\n");
    const installed = installProvider({ dir: root, providerMain: entry });
    // when
    const run = spawnSync(installed.file, ["--a", "b c"], { env: { TF_PLUGIN_MAGIC_COOKIE: "x" }, encoding: "utf8" });
    // then
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ argv: ["--a", "b c"], cookie: "x" });
  });

  it("exits 1 with a sentence naming the Node.js that is gone and the command that installs again", () => {
    // given a provider installed with a Node.js that is not there (any more)
    const node = join(root, "nvm", "v20.9.0", "bin", "node");
    const installed = installProvider({ dir: root, nodePath: node });
    // when
    const run = spawnSync(installed.file, [], { encoding: "utf8" });
    // then
    expect(run.status).toBe(1);
    const sentence = `terraform-provider-alertrules: the Node.js this provider was installed with (${node}) is gone; install the provider again with the Node.js you use now: npx --no alert-rule-users provider install`;
    expect(run.stdout).toContain(sentence);
    expect(run.stderr).toContain(sentence);
  });

  it("exits 1 with a sentence when alert-rule-users is no longer where the provider was installed from", () => {
    const installed = installProvider({ dir: root, providerMain: join(root, "gone", "main.js") });
    const run = spawnSync(installed.file, [], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`alert-rule-users is no longer installed where this provider was installed from (${join(root, "gone", "main.js")})`);
  });

  it("quotes paths with spaces and quotes for the shell", () => {
    const entry = join(root, "it's here", "main.js");
    const installed = installProvider({ dir: root, providerMain: entry });
    expect(readFileSync(installed.file, "utf8")).toContain(`provider='${root}/it'\\''s here/main.js'\n`);
  });

  it("names the platform in Terraform's words, and refuses Windows with a sentence", () => {
    expect(installProvider({ dir: root, platform: "darwin", arch: "arm64" }).relativePath).toContain("/darwin_arm64/");
    expect(installProvider({ dir: root, platform: "linux", arch: "x64" }).relativePath).toContain("/linux_amd64/");
    expect(() => installProvider({ dir: root, platform: "win32", arch: "x64" })).toThrow("provider install: Windows is not supported");
  });

  it("lists the command in the CLI's help", async () => {
    const help = await cli(root, "--help");
    expect(help.stdout).toMatch(/^ {2}provider +Install the native Terraform provider/m);
    const own = await cli(root, "provider", "install", "--help");
    expect(own.stdout).toContain("Usage: alert-rule-users provider install [DIR]");
  });
});
