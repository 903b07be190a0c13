/**
 * `alert-rule-users provider package [--out DIR]` (docs/contract.md §12.2): the release files as
 * registries and mirrors expect them, byte-identical from any install of one version:
 * - `terraform-provider-alertrules_VERSION_OS_ARCH.zip` of the four platforms (zip.ts);
 * - `terraform-provider-alertrules_VERSION_SHA256SUMS` (`SHA256HEX  NAME` lines, by name) and
 *   `terraform-provider-alertrules_VERSION_manifest.json`;
 * - `mirror/registry.terraform.io/alert-rule-users/alertrules/`: `index.json`, `VERSION.json`
 *   (each archive's relative `url` and its `h1:` hash) and the zips: a static network mirror
 *   (Terraform's provider network mirror protocol) that is also a packed `filesystem_mirror`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDER_HOST, PROVIDER_SOURCE } from "../../core/native/native-provider";
import { h1Hash, sha256Hex, zhHash } from "./hashes";
import { PACKAGE_TARGETS, releaseNames, type PackageFile, type PackageTarget } from "./package-file";
import { writeZip } from "./zip";

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

/** The zips and every hash of a version's packages, in memory. */
export function releaseArchives(
  version: string,
  packages: Readonly<Record<PackageTarget, readonly PackageFile[]>>,
  zipOf: (files: readonly PackageFile[]) => Buffer = writeZip,
): { archives: ReleaseArchive[]; zips: Map<PackageTarget, Buffer> } {
  const names = releaseNames(version);
  const zips = new Map<PackageTarget, Buffer>();
  const archives = PACKAGE_TARGETS.map((target) => {
    const zip = zipOf(packages[target]);
    zips.set(target, zip);
    return { target, file: names.zip(target), bytes: zip.length, h1: h1Hash(packages[target]), zh: zhHash(zip) };
  });
  return { archives, zips };
}

export function writeRelease(
  outDir: string,
  version: string,
  packages: Readonly<Record<PackageTarget, readonly PackageFile[]>>,
  zipOf: (files: readonly PackageFile[]) => Buffer = writeZip,
): Release {
  const names = releaseNames(version);
  const { archives, zips } = releaseArchives(version, packages, zipOf);
  const mirror = mirrorDirectory();
  const contents = new Map<string, Buffer | string>();
  for (const archive of archives) {
    const zip = zips.get(archive.target) as Buffer;
    contents.set(archive.file, zip);
    contents.set(`${mirror}/${archive.file}`, zip);
  }
  contents.set(names.sums, archives.map((a) => `${a.zh.slice("zh:".length)}  ${a.file}\n`).join(""));
  contents.set(names.manifest, json({ version: 1, metadata: { protocol_versions: ["6.0"] } }));
  contents.set(`${mirror}/index.json`, json({ versions: { [version]: {} } }));
  contents.set(`${mirror}/${version}.json`, json({ archives: Object.fromEntries(archives.map((a) => [a.target, { url: a.file, hashes: [a.h1] }])) }));
  const files = [...contents.keys()].sort();
  for (const name of files) {
    const file = path.join(outDir, ...name.split("/"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, contents.get(name) as Buffer | string, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
  }
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
