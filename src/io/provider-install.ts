/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1, §12.2): writes the canonical
 * package of this machine's platform (src/io/provider-package) into DIR's implied local mirror, so
 * `terraform init` in DIR finds `alert-rule-users/alertrules` with no network and no CLI
 * configuration file, and records the same `h1:` hash on every machine. No absolute path, no
 * Node.js version and no machine is in what it writes.
 *
 * What it writes is the release's zip, in the mirror's packed layout
 * (`terraform.d/plugins/HOST/NAMESPACE/TYPE/NAME_VERSION_OS_ARCH.zip`): Terraform unpacks it into
 * `.terraform/providers`, or into the plugin cache however and whenever one is set, and never
 * links either into `terraform.d` (which it does for an unpacked directory: removing the project
 * would break every other project sharing the cache). Under OpenTofu's registry host the same
 * file is a hard link: one copy on disk.
 *
 * Two entries:
 * - {@link installProviderAtHand}, synchronous (a cdktf synth calls it): the package at hand
 *   without building anything (darwin: always; the self-contained ones: once built on this
 *   machine), else, on Linux, the launcher package that runs with the node on PATH, marked as not
 *   the release's (`canonical: false`; `doctor` says so);
 * - {@link installCanonicalProvider}, for the CLI and `init --hcl`: builds the self-contained
 *   executable first (or takes a release's zip, `--from`), checks it, then installs it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError, ConfigError } from "../errors";
import { OPENTOFU_PROVIDER_HOST, mirrorPath, packedMirrorPath, terraformTarget } from "../core/native/native-provider";
import { h1Hash, sha256Hex } from "./provider-package/hashes";
import { isPackageTarget, releaseNames, type PackageFile, type PackageTarget } from "./provider-package/package-file";
import { BUNDLE_NAME, bundlePath, canonicalPackages, packageAtHand, packageOfFiles, packageOfZip, readBundle, type ProviderPackage } from "./provider-package/packages";
import { mirrorDirectory } from "./provider-package/release";
import { providerCacheDir } from "./provider-package/sea-node";
import { writeInside } from "./provider-package/write-inside";
import { TOOL_VERSION } from "./version";

/** What an install is for; every field defaults to the running process and this package. */
export interface ProviderInstallRequest {
  /** The directory `terraform init` runs in (absolute). */
  readonly dir: string;
  /** @default - this package's version */
  readonly version?: string;
  /** @default process.platform */
  readonly platform?: string;
  /** @default process.arch */
  readonly arch?: string;
  /** @default - the canonical package where it is at hand (see the module's comment) */
  readonly files?: readonly PackageFile[];
  /** @default - {@link providerCacheDir} */
  readonly cacheDir?: string;
}

export interface ProviderInstall {
  /** The zip Terraform installs from, absolute. */
  readonly file: string;
  /** The same, relative to the request's directory (`/`-separated). */
  readonly relativePath: string;
  /** The same zip under OpenTofu's registry host, relative to the request's directory. */
  readonly openTofuPath: string;
  readonly version: string;
  /** Terraform's OS_ARCH, e.g. `linux_amd64`. */
  readonly target: string;
  /** The `h1:` hash of what was installed (what `.terraform.lock.hcl` records). */
  readonly h1: string;
  /** False for the launcher package on Linux, which is not the release's (and needs node on PATH). */
  readonly canonical: boolean;
  /** Whether what was installed runs only with a node on PATH. */
  readonly needsNode: boolean;
  /** False when the same package was there already (nothing written). */
  readonly changed: boolean;
}

/** The platform of a request, refused where Terraform has no package of this provider. */
export function installTarget(platform: string = process.platform, arch: string = process.arch): PackageTarget {
  const target = terraformTarget(platform, arch);
  if (target === null || !isPackageTarget(target)) {
    throw new UsageError(`provider install: no package of this provider for ${platform} on ${arch}; there are packages for Linux and macOS (amd64, arm64) and Windows (amd64).`);
  }
  return target;
}

/**
 * Writes the package at hand (see the module's comment) into `request.dir`'s implied local
 * mirror; null where nothing is at hand (Windows, before `provider install` built its executable).
 */
export function installProviderAtHand(request: ProviderInstallRequest): ProviderInstall | null {
  const target = installTarget(request.platform, request.arch);
  const version = request.version ?? TOOL_VERSION;
  if (request.files !== undefined) return writeInstall(request.dir, version, packageOfFiles(target, request.files), true);
  const atHand = packageAtHand(target, version, readBundle(), request.cacheDir ?? providerCacheDir());
  return atHand === null ? null : writeInstall(request.dir, version, atHand.pkg, atHand.canonical);
}

/** The command that builds this machine's package where none is at hand. */
const REINSTALL_COMMAND = "npx --no alert-rule-users provider install";

/** {@link installProviderAtHand}, where a package is sure to be at hand (given, or not Windows). */
export function installProvider(request: ProviderInstallRequest): ProviderInstall {
  const installed = installProviderAtHand(request);
  if (installed === null) throw new UsageError(`provider install: the ${installTarget(request.platform, request.arch)} package is built by ${REINSTALL_COMMAND} (or taken from a release with --from DIR); it has not been built on this machine.`);
  return installed;
}

/**
 * Writes `pkg`'s zip into `dir`'s implied local mirror, under Terraform's registry host and
 * OpenTofu's (one file, two names), never through a link already in `dir`; removes the unpacked
 * directory an earlier install left for the same version and platform. Leaves an identical
 * package as it is.
 */
function writeInstall(dir: string, version: string, pkg: ProviderPackage, canonical: boolean): ProviderInstall {
  const relativePath = packedMirrorPath(version, pkg.target);
  const openTofuPath = packedMirrorPath(version, pkg.target, OPENTOFU_PROVIDER_HOST);
  const file = path.join(dir, ...relativePath.split("/"));
  const changed = !installedAlready(dir, relativePath, openTofuPath, pkg.zip);
  if (changed) writeInside(dir, new Map([[relativePath, { data: pkg.zip, mode: 0o644 }], [openTofuPath, { sameAs: relativePath }]]), "provider install");
  for (const host of [undefined, OPENTOFU_PROVIDER_HOST]) removeUnpacked(dir, path.posix.dirname(mirrorPath(version, pkg.target, host)));
  return { file, relativePath, openTofuPath, version, target: pkg.target, h1: h1Hash(pkg.files), canonical, needsNode: pkg.files.some((f) => f.name === BUNDLE_NAME), changed };
}

/** Whether both names hold exactly `zip` as regular files (no link). */
function installedAlready(dir: string, relativePath: string, openTofuPath: string, zip: Buffer): boolean {
  return [relativePath, openTofuPath].every((rel) => {
    const full = path.join(dir, ...rel.split("/"));
    try {
      const stat = fs.lstatSync(full);
      return stat.isFile() && stat.size === zip.length && fs.readFileSync(full).equals(zip);
    } catch {
      return false;
    }
  });
}

/** Removes `dir/rel` (`.../VERSION/OS_ARCH`, an unpacked package) when it and its version directory are real directories, and the version directory when it is left empty. */
function removeUnpacked(dir: string, rel: string): void {
  const target = path.join(dir, ...rel.split("/"));
  const versionDir = path.dirname(target);
  const isDir = (p: string) => {
    try {
      return fs.lstatSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (!isDir(versionDir) || !isDir(target)) return;
  fs.rmSync(target, { recursive: true, force: true });
  if (fs.readdirSync(versionDir).length === 0) fs.rmdirSync(versionDir);
}

/** Where a canonical package comes from for {@link installCanonicalProvider}. */
export interface CanonicalInstallRequest extends ProviderInstallRequest {
  /** The environment whose build cache is used (`ALERT_RULE_USERS_PROVIDER_CACHE`, when `cacheDir` is not given). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** A release directory (`provider package --out`), its mirror directory, or one zip of it. */
  readonly from?: string;
}

/**
 * The CLI's install: the canonical package of this platform, from a release (`from`: the zip's
 * SHA-256 checked against the release's SHA256SUMS) or built here (Linux: the executable, made
 * from the pinned Node.js of the npm registry, kept in the cache), checked against the hashes this
 * package carries where it carries them (dist/provider/packages.json, written when it is packed).
 */
export async function installCanonicalProvider(request: CanonicalInstallRequest): Promise<ProviderInstall> {
  const target = installTarget(request.platform, request.arch);
  const version = request.version ?? TOOL_VERSION;
  const pkg =
    request.from !== undefined
      ? packageFromRelease(request.from, version, target)
      : ((await canonicalPackages([target], version, readBundle(), request.cacheDir ?? providerCacheDir(request.env))).get(target) as ProviderPackage);
  const carried = carriedHashes();
  if (carried !== null && carried.version === version) {
    const expected = carried.packages[target]?.h1;
    const got = h1Hash(pkg.files);
    if (expected !== undefined && expected !== got) {
      throw new ConfigError(
        `provider install: the ${target} package made here has hash ${got}, but this alert-rule-users ${version} was released with ${expected}: refused. Install from the release instead: alert-rule-users provider install --from DIR (the directory of its zips).`,
      );
    }
  }
  return writeInstall(request.dir, version, pkg, true);
}

/** dist/provider/packages.json: the `h1:`/`zh:` hashes of every platform's package of this version. */
export function carriedHashes(): { version: string; packages: Partial<Record<PackageTarget, { h1: string; zh: string }>> } | null {
  const file = path.join(path.dirname(bundlePath()), "packages.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as { version: string; packages: Partial<Record<PackageTarget, { h1: string; zh: string }>> };
  } catch {
    return null;
  }
}

/**
 * The package of `target` from a release directory, its mirror, or a zip; checked against the
 * SHA256SUMS beside the zip (the mirror's entry is a link to the release's zip: beside that one).
 */
function packageFromRelease(from: string, version: string, target: PackageTarget): ProviderPackage {
  const names = releaseNames(version);
  let zipFile = from;
  if (fs.existsSync(from) && fs.statSync(from).isDirectory()) {
    // the release directory, the mirror directory (DIR/mirror), or the mirror's provider directory
    const candidates = [path.join(from, names.zip(target)), path.join(from, ...mirrorDirectory().split("/"), names.zip(target)), path.join(from, ...mirrorDirectory().split("/").slice(1), names.zip(target))];
    const found = candidates.find((c) => fs.existsSync(c));
    if (found === undefined) throw new UsageError(`provider install --from ${from}: no ${names.zip(target)} there; give the directory 'provider package --out' wrote, or the zip itself.`);
    zipFile = found;
  }
  let zip: Buffer;
  try {
    zip = fs.readFileSync(zipFile);
  } catch {
    throw new UsageError(`provider install --from ${from}: cannot read it; give the directory 'provider package --out' wrote, or the zip itself.`);
  }
  const sums = path.join(path.dirname(fs.realpathSync(zipFile)), names.sums);
  if (fs.existsSync(sums)) {
    const line = fs
      .readFileSync(sums, "utf8")
      .split("\n")
      .find((l) => l.endsWith(`  ${path.basename(zipFile)}`));
    if (line !== undefined && line.split("  ")[0] !== sha256Hex(zip)) {
      throw new ConfigError(`provider install --from: ${zipFile} does not match ${sums}: refused (a damaged or altered download; fetch it again).`);
    }
  }
  try {
    return packageOfZip(target, zip);
  } catch (error) {
    throw new ConfigError(`provider install --from: ${zipFile} is not a zip this reader knows (${(error as Error).message}): fetch it again.`);
  }
}
