/**
 * The provider's packages and release (docs/provider.md "Install"): the canonical package of each
 * platform, deterministic zips, Terraform's hashes, the release directory and the lock file.
 */
import { TOOL_VERSION } from "../version";
import { lockWithTerraform, type LockResult } from "./lock";
import { PACKAGE_TARGETS, type PackageTarget } from "./package-file";
import { canonicalPackages, readBundle, type ProviderPackage } from "./packages";
import { writeRelease, type Release } from "./release";
import { providerCacheDir } from "./sea-node";

export { checkSums, mirrorDirectory, type Release, type ReleaseArchive } from "./release";
export { h1Hash, zhHash, sha256Hex } from "./hashes";
export { PACKAGE_TARGETS, executableName, releaseNames, type PackageFile, type PackageTarget } from "./package-file";
export { needsNode, BUNDLE_NAME, type ProviderPackage } from "./packages";
export { SEA_NODE_VERSION, providerCacheDir } from "./sea-node";
export { readZip, writeZip } from "./zip";
export type { LockResult } from "./lock";

/** Every platform's canonical package of this version (the self-contained ones built or taken from the cache). */
export async function allPackages(cacheDir: string = providerCacheDir()): Promise<Record<PackageTarget, ProviderPackage>> {
  const built = await canonicalPackages(PACKAGE_TARGETS, TOOL_VERSION, readBundle(), cacheDir);
  return Object.fromEntries(PACKAGE_TARGETS.map((target) => [target, built.get(target) as ProviderPackage])) as Record<PackageTarget, ProviderPackage>;
}

/** `provider package --out DIR`. */
export async function packageRelease(outDir: string, cacheDir: string = providerCacheDir()): Promise<Release> {
  return writeRelease(outDir, TOOL_VERSION, await allPackages(cacheDir));
}

/** `provider lock [DIR]`: DIR/.terraform.lock.hcl, written by `terraform providers lock` for every platform (lock.ts). */
export async function lockProvider(dir: string, env: NodeJS.ProcessEnv, cacheDir: string = providerCacheDir(env)): Promise<LockResult> {
  const packages = await allPackages(cacheDir);
  return lockWithTerraform(dir, TOOL_VERSION, new Map(Object.entries(packages) as [PackageTarget, ProviderPackage][]), env);
}
