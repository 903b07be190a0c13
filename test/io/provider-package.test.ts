/**
 * The pieces of the provider's release (docs/provider.md "Install"), without building an executable:
 * deterministic zips, Terraform's `h1:` and `zh:` hashes, the release directory and mirror, the
 * lock file entry. The real packages, built and run by Terraform: test/terraform/provider-package.test.ts.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLockEntry, withLockEntry } from "../../src/core/native/provider-lock";
import { h1Hash, readZip, writeZip, zhHash, checkSums, type PackageFile } from "../../src/io/provider-package";
import { writeRelease } from "../../src/io/provider-package/release";
import { launcherScript, nodeLauncherPackage } from "../../src/io/provider-package/packages";

const file = (name: string, data: string, mode: 0o755 | 0o644 = 0o644): PackageFile => ({ name, mode, data: Buffer.from(data) });

describe("deterministic zips", () => {
  it("the same files make the same bytes, whatever their order; the zip reads back as the files with their modes", () => {
    // given
    const files = [file("run", "#!/bin/sh\nexit 0\n", 0o755), file("a.txt", "hello\n")];
    // when
    const one = writeZip(files);
    const two = writeZip([...files].reverse());
    // then
    expect(one.equals(two)).toBe(true);
    expect(readZip(one)).toEqual([file("a.txt", "hello\n"), file("run", "#!/bin/sh\nexit 0\n", 0o755)]);
  });

  it("every entry has the zip epoch as its time and a Unix mode, nothing of the machine", () => {
    const zip = writeZip([file("run", "x", 0o755)]);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(zip.readUInt16LE(central + 12)).toBe(0); // time 00:00:00
    expect(zip.readUInt16LE(central + 14)).toBe(0x21); // date 1980-01-01
    expect(zip.readUInt32LE(central + 38) >>> 16).toBe(0o100755);
  });
});

describe("Terraform's hashes", () => {
  it("h1: is dirhash Hash1: the SHA-256 of the sorted 'sha256hex  name' lines (checked against sha256sum)", () => {
    expect(h1Hash([file("run", "#!/bin/sh\nexit 0\n", 0o755), file("a.txt", "hello\n")])).toBe("h1:NmYLispZXSn3moqMyY/0aoUEVW1uJx/lb1cHA775rk8=");
  });

  it("zh: is the SHA-256 of the zip, hex", () => {
    expect(zhHash(Buffer.from("abc"))).toBe("zh:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("the darwin package", () => {
  it("is a launcher that execs the bundle beside it with the node on PATH, and holds no absolute path, no Node.js version, no machine", () => {
    const script = launcherScript("1.2.3");
    expect(script).toContain('exec node "$here/alertrules-provider.js" "$@"');
    expect(script).not.toMatch(/\/(home|usr|opt|work|tmp|root)\//);
    expect(script).not.toContain(process.version);
    expect(nodeLauncherPackage("1.2.3", Buffer.from("b")).map((f) => [f.name, f.mode])).toEqual([
      ["alertrules-provider.js", 0o644],
      ["terraform-provider-alertrules_v1.2.3", 0o755],
    ]);
  });
});

describe("the release directory", () => {
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), "aru-release-"));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  const packages = {
    darwin_amd64: [file("terraform-provider-alertrules_v1.2.3", "d", 0o755)],
    darwin_arm64: [file("terraform-provider-alertrules_v1.2.3", "d", 0o755)],
    linux_amd64: [file("terraform-provider-alertrules_v1.2.3", "la", 0o755)],
    linux_arm64: [file("terraform-provider-alertrules_v1.2.3", "lb", 0o755)],
  };

  it("holds the four zips, SHA256SUMS, the manifest and a network mirror (index.json, VERSION.json with url and h1: hash)", () => {
    // when
    const release = writeRelease(out, "1.2.3", packages);
    // then
    const mirror = "mirror/registry.terraform.io/alert-rule-users/alertrules";
    expect(release.files).toEqual([
      ...["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64"].map((t) => `${mirror}/terraform-provider-alertrules_1.2.3_${t}.zip`),
      `${mirror}/1.2.3.json`,
      `${mirror}/index.json`,
      "terraform-provider-alertrules_1.2.3_SHA256SUMS",
      ...["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64"].map((t) => `terraform-provider-alertrules_1.2.3_${t}.zip`),
      "terraform-provider-alertrules_1.2.3_manifest.json",
    ].sort());
    expect(JSON.parse(readFileSync(join(out, "terraform-provider-alertrules_1.2.3_manifest.json"), "utf8"))).toEqual({ version: 1, metadata: { protocol_versions: ["6.0"] } });
    expect(JSON.parse(readFileSync(join(out, mirror, "index.json"), "utf8"))).toEqual({ versions: { "1.2.3": {} } });
    const version = JSON.parse(readFileSync(join(out, mirror, "1.2.3.json"), "utf8")) as { archives: Record<string, { url: string; hashes: string[] }> };
    expect(version.archives["linux_arm64"]).toEqual({ url: "terraform-provider-alertrules_1.2.3_linux_arm64.zip", hashes: [h1Hash(packages.linux_arm64)] });
    expect(checkSums(out, "1.2.3")).toEqual([]);
    for (const name of readdirSync(out)) if (name.endsWith(".zip")) expect(statSync(join(out, name)).mode & 0o777).toBe(0o644);
  });

  it("SHA256SUMS names a zip that was altered", () => {
    writeRelease(out, "1.2.3", packages);
    writeFileSync(join(out, "terraform-provider-alertrules_1.2.3_linux_amd64.zip"), "altered");
    expect(checkSums(out, "1.2.3")).toEqual(["terraform-provider-alertrules_1.2.3_linux_amd64.zip"]);
  });
});

describe("the lock file entry", () => {
  const other = 'provider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.4"\n  hashes = [\n    "h1:x=",\n  ]\n}\n';

  it("a new lock file has Terraform's header and this provider's version and sorted, unique hashes", () => {
    const text = withLockEntry(null, "1.2.3", ["zh:b", "h1:a", "h1:a"]);
    expect(text).toBe(
      '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\nprovider "registry.terraform.io/alert-rule-users/alertrules" {\n  version = "1.2.3"\n  hashes = [\n    "h1:a",\n    "zh:b",\n  ]\n}\n',
    );
    expect(readLockEntry(text)).toEqual({ version: "1.2.3", hashes: ["h1:a", "zh:b"] });
  });

  it("keeps every other provider's entry and replaces this provider's", () => {
    const first = withLockEntry(other, "1.2.3", ["h1:old"]);
    const second = withLockEntry(first, "1.2.4", ["h1:new"]);
    expect(second).toContain(other);
    expect(readLockEntry(second)).toEqual({ version: "1.2.4", hashes: ["h1:new"] });
    expect(second).not.toContain("h1:old");
  });
});
