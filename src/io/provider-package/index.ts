/**
 * The provider's packages and release (docs/provider.md "Install"): the canonical package of each
 * platform, deterministic zips, Terraform's hashes, the release directory and the lock file entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LOCK_FILE_NAME, withLockEntry } from "../../core/native/provider-lock";
import { TOOL_VERSION } from "../version";
import { sha256Hex } from "./hashes";
import { PACKAGE_TARGETS, sortedFiles, type PackageFile, type PackageTarget } from "./package-file";
import { canonicalPackage, readBundle } from "./packages";
import { releaseArchives, writeRelease, type Release, type ReleaseArchive } from "./release";
import { providerCacheDir } from "./sea-node";
import { writeZip } from "./zip";

export { checkSums, mirrorDirectory, type Release, type ReleaseArchive } from "./release";
export { h1Hash, zhHash, sha256Hex } from "./hashes";
export { PACKAGE_TARGETS, executableName, releaseNames, type PackageFile, type PackageTarget } from "./package-file";
export { needsNode, BUNDLE_NAME } from "./packages";
export { SEA_NODE_VERSION, providerCacheDir } from "./sea-node";
export { readZip, writeZip } from "./zip";

/** Every platform's canonical package of this version (the Linux executables built or taken from the cache). */
export async function allPackages(cacheDir: string = providerCacheDir()): Promise<Record<PackageTarget, PackageFile[]>> {
  const bundle = readBundle();
  const built = await Promise.all(PACKAGE_TARGETS.map((target) => canonicalPackage(target, TOOL_VERSION, bundle, cacheDir)));
  return Object.fromEntries(PACKAGE_TARGETS.map((target, i) => [target, built[i] as PackageFile[]])) as Record<PackageTarget, PackageFile[]>;
}

/**
 * The zip of a package, kept in the cache under the hash of its files' names, modes and bytes:
 * zipping the two Linux executables is most of the time of `provider lock` and `provider package`.
 */
export function cachedZip(cacheDir: string): (files: readonly PackageFile[]) => Buffer {
  return (files) => {
    const key = sha256Hex(sortedFiles(files).map((f) => `${f.name} ${f.mode.toString(8)} ${sha256Hex(f.data)}\n`).join(""));
    const file = path.join(cacheDir, "zips", `${key}.zip`);
    try {
      return fs.readFileSync(file);
    } catch {
      const zip = writeZip(files);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, zip);
      fs.renameSync(temp, file);
      return zip;
    }
  };
}

/** `provider package --out DIR`. */
export async function packageRelease(outDir: string, cacheDir: string = providerCacheDir()): Promise<Release> {
  return writeRelease(outDir, TOOL_VERSION, await allPackages(cacheDir), cachedZip(cacheDir));
}

/** `provider lock [DIR]`: DIR/.terraform.lock.hcl with this provider's `h1:` and `zh:` hashes of every platform. */
export async function lockProvider(dir: string, cacheDir: string = providerCacheDir()): Promise<{ file: string; archives: readonly ReleaseArchive[]; changed: boolean }> {
  const { archives } = releaseArchives(TOOL_VERSION, await allPackages(cacheDir), cachedZip(cacheDir));
  const file = path.join(dir, LOCK_FILE_NAME);
  let existing: string | null = null;
  try {
    existing = fs.readFileSync(file, "utf8");
  } catch {
    existing = null;
  }
  const next = withLockEntry(existing, TOOL_VERSION, archives.flatMap((a) => [a.h1, a.zh]));
  if (next !== existing) fs.writeFileSync(file, next);
  return { file, archives, changed: next !== existing };
}
