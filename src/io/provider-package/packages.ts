/**
 * The canonical package of each platform (docs/provider.md "Install"), whose bytes depend on the
 * version alone:
 * - linux_amd64, linux_arm64, windows_amd64: the self-contained executable (sea.ts) and Node.js's
 *   license;
 * - darwin_amd64, darwin_arm64: a `/bin/sh` launcher that runs the bundle beside it with the `node`
 *   (20 or later) on PATH, and the bundle (a macOS executable must be signed, which cannot be done
 *   here).
 * The bundle is dist/provider/alertrules-provider.js of this installed package, made by
 * `npm run build` (scripts/bundle-provider.mjs) and shipped in the npm package as it is.
 *
 * A package is kept as its files and its zip (zip.ts): the zip is what a release, a mirror and an
 * install (the packed layout) hold; the files are what Terraform's `h1:` hash is taken over.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ConfigError } from "../../errors";
import { packageRoot } from "../init-app";
import { executableName, sortedFiles, type PackageFile, type PackageTarget } from "./package-file";
import { cachedSeaZip, isSeaTarget, seaZips, type SeaTarget } from "./sea";
import { readZip, writeZip } from "./zip";

/** Not `terraform-provider-…`: Terraform runs the first file of a package whose name starts so. */
export const BUNDLE_NAME = "alertrules-provider.js";

/** One platform's package: its files (sorted) and its zip. */
export interface ProviderPackage {
  readonly target: PackageTarget;
  readonly files: readonly PackageFile[];
  readonly zip: Buffer;
}

/** dist/provider/alertrules-provider.js of this package (compiled: beside dist/src). */
export function bundlePath(): string {
  return __filename.endsWith(".js") ? path.resolve(__dirname, "..", "..", "..", "provider", BUNDLE_NAME) : path.join(packageRoot(), "dist", "provider", BUNDLE_NAME);
}

export function readBundle(): Buffer {
  const file = bundlePath();
  try {
    return fs.readFileSync(file);
  } catch {
    throw new ConfigError(`provider: the provider bundle ${file} is missing: this package was not built (npm run build makes it).`);
  }
}

/**
 * A launcher: runs the bundle beside it with the node on PATH, or says what is missing. The
 * darwin packages' launcher, or (`fallbackFor`) the one written on Linux where the executable is
 * not at hand: that one says so in a comment, so its `h1:` hash is no release's (a lock file of
 * the release refuses it, and `doctor` names it) instead of passing as the darwin package.
 */
export function launcherScript(version: string, fallbackFor?: PackageTarget): string {
  const needs = `terraform-provider-alertrules ${version}: this package runs with Node.js 20 or later on PATH`;
  const fallback =
    fallbackFor === undefined
      ? ""
      : `# NOT the release's ${fallbackFor} package (a self-contained executable): written where that
# executable was not at hand. npx --no alert-rule-users provider install writes the release's.
`;
  return `#!/bin/sh
# The alertrules provider ${version} for Terraform and OpenTofu (alert-rule-users): runs
# ${BUNDLE_NAME} (beside this file) with the node (20 or later) on PATH. exec: the provider is
# this process, so Terraform's SIGKILL at the end of a run leaves nothing behind.
${fallback}case $0 in */*) here=\${0%/*} ;; *) here=. ;; esac
if ! command -v node >/dev/null 2>&1; then
  msg="${needs}, and there is no node on PATH; install Node.js (nodejs.org, or brew install node), then run terraform again"
  echo "$msg"; echo "$msg" >&2
  exit 1
fi
exec node "$here/${BUNDLE_NAME}" "$@"
`;
}

/** The darwin package's files (the same for amd64 and arm64), or the Linux fallback's: cheap, synchronous. */
export function nodeLauncherPackage(version: string, bundle: Buffer, fallbackFor?: PackageTarget): PackageFile[] {
  return sortedFiles([
    { name: executableName(version), mode: 0o755, data: Buffer.from(launcherScript(version, fallbackFor), "utf8") },
    { name: BUNDLE_NAME, mode: 0o644, data: bundle },
  ]);
}

/** Whether a platform's package needs a `node` on the machine that runs Terraform. */
export function needsNode(target: PackageTarget): boolean {
  return target.startsWith("darwin_");
}

/** A package of its files. */
export function packageOfFiles(target: PackageTarget, files: readonly PackageFile[]): ProviderPackage {
  const sorted = sortedFiles(files);
  return { target, files: sorted, zip: writeZip(sorted) };
}

/** A package of its zip. */
export function packageOfZip(target: PackageTarget, zip: Buffer): ProviderPackage {
  return { target, files: readZip(zip), zip };
}

/** The canonical packages of `targets`; the self-contained ones built (or taken from the cache). */
export async function canonicalPackages(targets: readonly PackageTarget[], version: string, bundle: Buffer, cacheDir: string): Promise<Map<PackageTarget, ProviderPackage>> {
  const sea = targets.filter(isSeaTarget);
  const zips = sea.length === 0 ? new Map<SeaTarget, Buffer>() : await seaZips(bundle, version, sea, cacheDir);
  const out = new Map<PackageTarget, ProviderPackage>();
  for (const target of targets) {
    out.set(target, isSeaTarget(target) ? packageOfZip(target, zips.get(target) as Buffer) : packageOfFiles(target, nodeLauncherPackage(version, bundle)));
  }
  return out;
}

/**
 * The package of `target` at hand without building or fetching anything: the canonical one where
 * it is (darwin: always; the self-contained ones: once built on this machine), else on Linux the
 * fallback launcher (`canonical: false`), else (Windows) none.
 */
export function packageAtHand(target: PackageTarget, version: string, bundle: Buffer, cacheDir: string): { pkg: ProviderPackage; canonical: boolean } | null {
  if (!isSeaTarget(target)) return { pkg: packageOfFiles(target, nodeLauncherPackage(version, bundle)), canonical: true };
  const zip = cachedSeaZip(bundle, version, target, cacheDir);
  if (zip !== null) return { pkg: packageOfZip(target, zip), canonical: true };
  if (target.startsWith("linux_")) return { pkg: packageOfFiles(target, nodeLauncherPackage(version, bundle, target)), canonical: false };
  return null;
}
