/**
 * `alert-rule-users provider package [--out DIR]` (docs/contract.md §12.2): the release files as
 * registries and mirrors expect them, byte-identical from any install of one version:
 * - `terraform-provider-alertrules_VERSION_OS_ARCH.zip` of the five platforms (zip.ts);
 * - `terraform-provider-alertrules_VERSION_SHA256SUMS` (`SHA256HEX  NAME` lines, by name) and
 *   `terraform-provider-alertrules_VERSION_manifest.json`;
 * - `mirror/registry.terraform.io/alert-rule-users/alertrules/`: `index.json`, `VERSION.json`
 *   (each archive's relative `url` and its `h1:` hash) and a link to each zip: a static network
 *   mirror (Terraform's provider network mirror protocol) that is also a packed `filesystem_mirror`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDER_HOST, PROVIDER_SOURCE } from "../../core/native/native-provider";
import { h1Hash, sha256Hex, zhHash } from "./hashes";
import { PACKAGE_TARGETS, releaseNames, type PackageTarget } from "./package-file";
import type { ProviderPackage } from "./packages";
import { writeInside, type Entry } from "./write-inside";

export interface ReleaseArchive {
  readonly target: PackageTarget;
  readonly file: string;
  readonly bytes: number;
  readonly h1: string;
  readonly zh: string;
}

export interface Release {
  readonly version: string;
  readonly archives: readonly ReleaseArchive[];
  /** Every file written, relative to the output directory, `/`-separated, sorted. */
  readonly files: readonly string[];
}

/** The mirror's directory under the output directory. */
export function mirrorDirectory(): string {
  return `mirror/${PROVIDER_HOST}/${PROVIDER_SOURCE}`;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Every hash of a version's packages. */
export function releaseArchives(version: string, packages: Readonly<Record<PackageTarget, ProviderPackage>>): ReleaseArchive[] {
  const names = releaseNames(version);
  return PACKAGE_TARGETS.map((target) => {
    const pkg = packages[target];
    return { target, file: names.zip(target), bytes: pkg.zip.length, h1: h1Hash(pkg.files), zh: zhHash(pkg.zip) };
  });
}

/**
 * Writes the release into `outDir` (write-inside.ts: never through a link already there). Each zip
 * is stored once, at the top; the mirror's entry for it is a relative link to it
 * (`../../../../NAME.zip`), which Terraform's filesystem mirror and static web servers follow.
 */
export function writeRelease(outDir: string, version: string, packages: Readonly<Record<PackageTarget, ProviderPackage>>): Release {
  const names = releaseNames(version);
  const archives = releaseArchives(version, packages);
  const mirror = mirrorDirectory();
  const up = mirror.split("/").map(() => "..").join("/");
  const contents = new Map<string, Entry>();
  const file = (data: Buffer | string): Entry => ({ data, mode: 0o644 });
  for (const archive of archives) {
    contents.set(archive.file, file(packages[archive.target].zip));
    contents.set(`${mirror}/${archive.file}`, { link: `${up}/${archive.file}` });
  }
  contents.set(names.sums, file(archives.map((a) => `${a.zh.slice("zh:".length)}  ${a.file}\n`).join("")));
  contents.set(names.manifest, file(json({ version: 1, metadata: { protocol_versions: ["6.0"] } })));
  contents.set(`${mirror}/index.json`, file(json({ versions: { [version]: {} } })));
  contents.set(`${mirror}/${version}.json`, file(json({ archives: Object.fromEntries(archives.map((a) => [a.target, { url: a.file, hashes: [a.h1] }])) })));
  const files = [...contents.keys()].sort();
  writeInside(outDir, new Map(files.map((name) => [name, contents.get(name) as Entry])), "provider package");
  return { version, archives, files };
}

/** The SHA256SUMS lines of a release directory, checked against the zips beside it: names of the zips that do not match. */
export function checkSums(outDir: string, version: string): string[] {
  const sums = fs.readFileSync(path.join(outDir, releaseNames(version).sums), "utf8");
  const bad: string[] = [];
  for (const line of sums.split("\n").filter((l) => l !== "")) {
    const [hex, name] = line.split("  ");
    if (hex === undefined || name === undefined || sha256Hex(fs.readFileSync(path.join(outDir, name))) !== hex) bad.push(name ?? line);
  }
  return bad;
}
