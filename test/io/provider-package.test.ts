/**
 * The pieces of the provider's release (docs/provider.md "Install"), without building an executable:
 * deterministic zips, Terraform's `h1:` and `zh:` hashes, the release directory and mirror (each zip
 * stored once, never written through a link), the lock file read, the build cache (pruned, safe
 * for many processes at once). The real packages, built and run by Terraform: test/terraform/provider-package.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { readLockEntry } from "../../src/core/native/provider-lock";
import { h1Hash, readZip, writeZip, zhHash, checkSums, type PackageFile } from "../../src/io/provider-package";
import { makeWorkDir, pruneCache, readCachedZip, writeCachedZip } from "../../src/io/provider-package/cache";
import { writeRelease } from "../../src/io/provider-package/release";
import { launcherScript, nodeLauncherPackage, packageOfFiles } from "../../src/io/provider-package/packages";
import { seaKey } from "../../src/io/provider-package/sea";
import { REPO } from "../support/cli";

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

  it("the launcher written on Linux where the executable is not at hand says it is not the release's, so its h1: is no release's (not the darwin one)", () => {
    const bundle = Buffer.from("b");
    const fallback = nodeLauncherPackage("1.2.3", bundle, "linux_amd64");
    expect(launcherScript("1.2.3", "linux_amd64")).toContain("NOT the release's linux_amd64 package");
    expect(h1Hash(fallback)).not.toBe(h1Hash(nodeLauncherPackage("1.2.3", bundle)));
  });
});

describe("the release directory", () => {
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), "aru-release-"));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  const TARGETS = ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"] as const;
  const packages = {
    darwin_amd64: packageOfFiles("darwin_amd64", [file("terraform-provider-alertrules_v1.2.3", "d", 0o755)]),
    darwin_arm64: packageOfFiles("darwin_arm64", [file("terraform-provider-alertrules_v1.2.3", "d", 0o755)]),
    linux_amd64: packageOfFiles("linux_amd64", [file("terraform-provider-alertrules_v1.2.3", "la", 0o755)]),
    linux_arm64: packageOfFiles("linux_arm64", [file("terraform-provider-alertrules_v1.2.3", "lb", 0o755)]),
    windows_amd64: packageOfFiles("windows_amd64", [file("terraform-provider-alertrules_v1.2.3.exe", "w", 0o755)]),
  };
  const mirror = "mirror/registry.terraform.io/alert-rule-users/alertrules";

  it("holds the five zips, SHA256SUMS, the manifest and a network mirror (index.json, VERSION.json with url and h1: hash)", () => {
    // when
    const release = writeRelease(out, "1.2.3", packages);
    // then
    expect(release.files).toEqual(
      [
        ...TARGETS.map((t) => `${mirror}/terraform-provider-alertrules_1.2.3_${t}.zip`),
        `${mirror}/1.2.3.json`,
        `${mirror}/index.json`,
        "terraform-provider-alertrules_1.2.3_SHA256SUMS",
        ...TARGETS.map((t) => `terraform-provider-alertrules_1.2.3_${t}.zip`),
        "terraform-provider-alertrules_1.2.3_manifest.json",
      ].sort(),
    );
    expect(JSON.parse(readFileSync(join(out, "terraform-provider-alertrules_1.2.3_manifest.json"), "utf8"))).toEqual({ version: 1, metadata: { protocol_versions: ["6.0"] } });
    expect(JSON.parse(readFileSync(join(out, mirror, "index.json"), "utf8"))).toEqual({ versions: { "1.2.3": {} } });
    const version = JSON.parse(readFileSync(join(out, mirror, "1.2.3.json"), "utf8")) as { archives: Record<string, { url: string; hashes: string[] }> };
    expect(version.archives["linux_arm64"]).toEqual({ url: "terraform-provider-alertrules_1.2.3_linux_arm64.zip", hashes: [h1Hash(packages.linux_arm64.files)] });
    expect(Object.keys(version.archives).sort()).toEqual([...TARGETS]);
    expect(checkSums(out, "1.2.3")).toEqual([]);
    for (const name of readdirSync(out)) if (name.endsWith(".zip")) expect(statSync(join(out, name)).mode & 0o777).toBe(0o644);
  });

  it("stores each zip once: the mirror's entry is a relative link to the release's zip, which reads as the zip", () => {
    writeRelease(out, "1.2.3", packages);
    for (const t of TARGETS) {
      const name = `terraform-provider-alertrules_1.2.3_${t}.zip`;
      expect(lstatSync(join(out, mirror, name)).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(out, mirror, name))).toBe(`../../../../${name}`);
      expect(readFileSync(join(out, mirror, name)).equals(readFileSync(join(out, name)))).toBe(true);
      expect(lstatSync(join(out, name)).isFile()).toBe(true);
    }
  });

  it("SHA256SUMS names a zip that was altered", () => {
    writeRelease(out, "1.2.3", packages);
    writeFileSync(join(out, "terraform-provider-alertrules_1.2.3_linux_amd64.zip"), "altered");
    expect(checkSums(out, "1.2.3")).toEqual(["terraform-provider-alertrules_1.2.3_linux_amd64.zip"]);
  });

  it("never writes through a link already in DIR: a linked file is replaced by the release's, the file it pointed at is untouched", () => {
    // given a file outside DIR, and a link to it in DIR where SHA256SUMS and a zip go
    const outside = join(tmpdir(), `aru-outside-${process.pid}-${Date.now()}`);
    writeFileSync(outside, "precious\n");
    try {
      symlinkSync(outside, join(out, "terraform-provider-alertrules_1.2.3_SHA256SUMS"));
      symlinkSync(outside, join(out, "terraform-provider-alertrules_1.2.3_linux_amd64.zip"));
      // when
      writeRelease(out, "1.2.3", packages);
      // then
      expect(readFileSync(outside, "utf8")).toBe("precious\n");
      expect(lstatSync(join(out, "terraform-provider-alertrules_1.2.3_SHA256SUMS")).isFile()).toBe(true);
      expect(checkSums(out, "1.2.3")).toEqual([]);
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it("refuses, naming it and writing nothing, a linked directory on the way (DIR/mirror -> elsewhere)", () => {
    // given DIR/mirror, a link to a directory outside DIR
    const elsewhere = mkdtempSync(join(tmpdir(), "aru-elsewhere-"));
    try {
      symlinkSync(elsewhere, join(out, "mirror"));
      // when / then
      expect(() => writeRelease(out, "1.2.3", packages)).toThrow(`provider package: ${join(out, "mirror")} is a symbolic link, and nothing is written through one`);
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(readdirSync(out)).toEqual(["mirror"]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("the lock file, read", () => {
  it("reads this provider's version and hashes and nothing of another provider's entry", () => {
    const text =
      '# This file is maintained automatically by "terraform init".\n\nprovider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.4"\n  hashes = [\n    "h1:x=",\n  ]\n}\n\n' +
      'provider "registry.terraform.io/alert-rule-users/alertrules" {\n  version     = "1.2.3"\n  constraints = "~> 1.2"\n  hashes = [\n    "h1:a=",\n    "h1:b=",\n  ]\n}\n';
    expect(readLockEntry(text)).toEqual({ version: "1.2.3", hashes: ["h1:a=", "h1:b="] });
    expect(readLockEntry(text.slice(0, text.indexOf('provider "registry.terraform.io/alert-rule-users')))).toBeNull();
  });
});

describe("the build cache", () => {
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), "aru-cache-"));
  });
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const DAY = 24 * 3600 * 1000;
  const age = (file: string, days: number, now: number) => utimesSync(file, new Date(now - days * DAY), new Date(now - days * DAY));

  it("keeps what a run used within 30 days and what it asks to keep; removes older zips, crashed runs' work and the earlier layout", () => {
    // given
    const now = Date.now();
    writeCachedZip(cache, "fresh", Buffer.from("a"));
    writeCachedZip(cache, "old", Buffer.from("b"));
    writeCachedZip(cache, "old-but-kept", Buffer.from("c"));
    age(join(cache, "packages", "old.zip"), 31, now);
    age(join(cache, "packages", "old-but-kept.zip"), 40, now);
    const crashed = makeWorkDir(cache);
    age(crashed, 2, now);
    const running = makeWorkDir(cache);
    for (const dir of ["node", "sea", "zips"]) mkdirSync(join(cache, dir, "x"), { recursive: true });
    // when
    const pruned = pruneCache(cache, ["old-but-kept"], now);
    // then
    expect(readdirSync(join(cache, "packages")).sort()).toEqual(["fresh.zip", "old-but-kept.zip"]);
    expect(existsSync(running)).toBe(true);
    expect(pruned.removed).toEqual([relative(cache, crashed), "node", "packages/old.zip", "sea", "zips"].sort());
  });

  it("a zip read from the cache counts as used now", () => {
    const now = Date.now();
    writeCachedZip(cache, "k", Buffer.from("zip"));
    age(join(cache, "packages", "k.zip"), 31, now);
    expect(readCachedZip(cache, "k")?.toString()).toBe("zip");
    pruneCache(cache, [], now);
    expect(readCachedZip(cache, "k")?.toString()).toBe("zip");
  });

  it("the same key published by many processes at once: every one succeeds, the zip is whole", async () => {
    // given 6 processes publishing 2 MB each under one key, at once
    const script = `const { writeCachedZip } = require(${JSON.stringify(join(REPO, "dist", "src", "io", "provider-package", "cache.js"))}); writeCachedZip(process.argv[1], "same", Buffer.alloc(2 << 20, 7));`;
    const runs = await Promise.all(Array.from({ length: 6 }, () => new Promise<number | null>((resolve) => spawn(process.execPath, ["-e", script, cache], { stdio: "ignore" }).on("exit", resolve))));
    // then
    expect(runs).toEqual([0, 0, 0, 0, 0, 0]);
    expect(readdirSync(join(cache, "packages"))).toEqual(["same.zip"]);
    expect(readCachedZip(cache, "same")?.equals(Buffer.alloc(2 << 20, 7))).toBe(true);
  });
});

describe("the cache key of a self-contained package", () => {
  it("changes with the bundle, the version and the platform, and with nothing else", () => {
    const bundle = Buffer.from("bundle");
    const key = seaKey(bundle, "1.2.3", "linux_amd64");
    expect(seaKey(Buffer.from("bundle"), "1.2.3", "linux_amd64")).toBe(key);
    expect(new Set([key, seaKey(Buffer.from("other"), "1.2.3", "linux_amd64"), seaKey(bundle, "1.2.4", "linux_amd64"), seaKey(bundle, "1.2.3", "windows_amd64"), seaKey(bundle, "1.2.3", "linux_arm64")]).size).toBe(5);
  });
});
