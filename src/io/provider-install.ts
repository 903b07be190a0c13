/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1, §12.2): writes the canonical
 * package of this machine's platform (src/io/provider-package) into DIR's implied local mirror, so
 * `terraform init` in DIR finds `alert-rule-users/alertrules` with no network and no CLI
 * configuration file, and records the same `h1:` hash on every machine. No absolute path, no
 * Node.js version and no machine is in what it writes.
 *
 * Two entries:
 * - {@link installProvider}, synchronous (synth and `init --hcl` call it): the package it is given,
 *   else the canonical one where it is at hand (darwin: always; Linux: once the executable has been
 *   built on this machine, by `provider install` or `provider package`), else, on Linux, the
 *   launcher package that runs with the node on PATH (`canonical: false`; `doctor` says so);
 * - {@link installCanonicalProvider}, for the CLI: builds the Linux executable first (or takes a
 *   release's zip, `--from`), checks it, then installs it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError, ConfigError } from "../errors";
import { OPENTOFU_PROVIDER_HOST, mirrorPath, terraformTarget } from "../core/native/native-provider";
import { h1Hash, sha256Hex } from "./provider-package/hashes";
import { executableName, isPackageTarget, releaseNames, sortedFiles, type PackageFile, type PackageTarget } from "./provider-package/package-file";
import { BUNDLE_NAME, bundlePath, canonicalPackage, needsNode, nodeLauncherPackage, readBundle } from "./provider-package/packages";
import { seaKey } from "./provider-package/sea";
import { providerCacheDir } from "./provider-package/sea-node";
import { readZip } from "./provider-package/zip";
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
  /**
   * Terraform's plugin cache (`TF_PLUGIN_CACHE_DIR`), where the package is written too, as a
   * directory of its own: Terraform would otherwise make the cache entry a link into this
   * directory's `terraform.d`, which breaks every other project when this one is removed.
   * @default - none
   */
  readonly pluginCacheDir?: string;
}

export interface ProviderInstall {
  /** The executable Terraform runs, absolute. */
  readonly file: string;
  /** The same, relative to the request's directory (`/`-separated). */
  readonly relativePath: string;
  /** The same executable under OpenTofu's registry host, relative to the request's directory. */
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
  if (platform === "win32") {
    throw new UsageError(
      "provider install: Windows is not supported: Terraform there runs a provider only as a .exe, and this provider has packages for Linux and macOS. Use Linux or macOS (WSL works), or the CLI's own plan and apply.",
    );
  }
  const target = terraformTarget(platform, arch);
  if (target === null || !isPackageTarget(target)) {
    throw new UsageError(`provider install: no package of this provider for ${platform} on ${arch}; there are packages for Linux and macOS (amd64, arm64).`);
  }
  return target;
}

/** The Linux executable built on this machine before, if any: read from the cache, checked by its key. */
function cachedLinuxPackage(target: PackageTarget, version: string, bundle: Buffer, cacheDir: string): PackageFile[] | null {
  const kept = path.join(cacheDir, "sea", seaKey(bundle, target === "linux_amd64" ? "x64" : "arm64"));
  try {
    return sortedFiles([
      { name: executableName(version), mode: 0o755, data: fs.readFileSync(path.join(kept, "executable")) },
      { name: "LICENSE.node", mode: 0o644, data: fs.readFileSync(path.join(kept, "LICENSE")) },
    ]);
  } catch {
    return null;
  }
}

/** The package at hand without building anything (see the module's comment). */
function localPackage(target: PackageTarget, version: string, cacheDir: string): { files: readonly PackageFile[]; canonical: boolean } {
  const bundle = readBundle();
  if (needsNode(target)) return { files: nodeLauncherPackage(version, bundle), canonical: true };
  const built = cachedLinuxPackage(target, version, bundle, cacheDir);
  return built !== null ? { files: built, canonical: true } : { files: nodeLauncherPackage(version, bundle), canonical: false };
}

/**
 * Writes the package into `request.dir`'s implied local mirror, under Terraform's registry host and
 * OpenTofu's: the `OS_ARCH` directory holds exactly the package's files (anything else there would
 * change its `h1:` hash), modes 0755/0644. Leaves an identical package as it is.
 */
export function installProvider(request: ProviderInstallRequest): ProviderInstall {
  const target = installTarget(request.platform, request.arch);
  const version = request.version ?? TOOL_VERSION;
  const { files, canonical } = request.files !== undefined ? { files: request.files, canonical: true } : localPackage(target, version, request.cacheDir ?? providerCacheDir());
  const relativePath = mirrorPath(version, target);
  const openTofuPath = mirrorPath(version, target, OPENTOFU_PROVIDER_HOST);
  const file = path.join(request.dir, ...relativePath.split("/"));
  let changed = false;
  const dirs = [path.dirname(file), path.dirname(path.join(request.dir, ...openTofuPath.split("/")))];
  if (request.pluginCacheDir !== undefined && request.pluginCacheDir !== "") dirs.push(pluginCacheEntry(path.resolve(request.dir, request.pluginCacheDir), version, target));
  for (const dir of dirs) {
    if (writePackage(dir, files)) changed = true;
  }
  return { file, relativePath, openTofuPath, version, target, h1: h1Hash(files), canonical, needsNode: files.some((f) => f.name === BUNDLE_NAME), changed };
}

/** Writes `files` as the whole content of `dir`; false when it held exactly them already. */
function writePackage(dir: string, files: readonly PackageFile[]): boolean {
  if (holdsExactly(dir, files)) return false;
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new UsageError(`provider install: cannot create ${dir} (${code}); give a directory you can write to.`);
  }
  for (const file of files) {
    const target = path.join(dir, file.name);
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, file.data, { mode: file.mode });
    fs.chmodSync(temp, file.mode);
    fs.renameSync(temp, target);
  }
  return true;
}

/** The directory of this provider's package in Terraform's plugin cache (the unpacked layout). */
export function pluginCacheEntry(cacheDir: string, version: string, target: string): string {
  return path.join(cacheDir, ...path.posix.dirname(mirrorPath(version, target)).split("/").slice(2));
}

function holdsExactly(dir: string, files: readonly PackageFile[]): boolean {
  try {
    if (fs.lstatSync(dir).isSymbolicLink()) return false;
    const names = fs.readdirSync(dir).sort();
    if (names.join("\n") !== files.map((f) => f.name).join("\n")) return false;
    return files.every((f) => {
      const full = path.join(dir, f.name);
      const stat = fs.statSync(full);
      return stat.isFile() && (stat.mode & 0o777) === f.mode && stat.size === f.data.length && fs.readFileSync(full).equals(f.data);
    });
  } catch {
    return false;
  }
}

/** Where a canonical package comes from for {@link installCanonicalProvider}. */
export interface CanonicalInstallRequest extends ProviderInstallRequest {
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
  const files = request.from !== undefined ? packageFromRelease(request.from, version, target) : await canonicalPackage(target, version, readBundle(), request.cacheDir ?? providerCacheDir());
  const carried = carriedHashes();
  if (carried !== null && carried.version === version) {
    const expected = carried.packages[target]?.h1;
    const got = h1Hash(files);
    if (expected !== undefined && expected !== got) {
      throw new ConfigError(
        `provider install: the ${target} package made here has hash ${got}, but this alert-rule-users ${version} was released with ${expected}: refused. Install from the release instead: alert-rule-users provider install --from DIR (the directory of its zips).`,
      );
    }
  }
  return installProvider({ ...request, version, files });
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

/** The package of `target` from a release directory, its mirror, or a zip; checked against SHA256SUMS where there is one. */
function packageFromRelease(from: string, version: string, target: PackageTarget): PackageFile[] {
  const names = releaseNames(version);
  let zipFile = from;
  if (fs.existsSync(from) && fs.statSync(from).isDirectory()) {
    const candidates = [path.join(from, names.zip(target)), path.join(from, "mirror", "registry.terraform.io", "alert-rule-users", "alertrules", names.zip(target))];
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
  const sums = path.join(path.dirname(zipFile), names.sums);
  if (fs.existsSync(sums)) {
    const line = fs
      .readFileSync(sums, "utf8")
      .split("\n")
      .find((l) => l.endsWith(`  ${path.basename(zipFile)}`));
    if (line !== undefined && line.split("  ")[0] !== sha256Hex(zip)) {
      throw new ConfigError(`provider install --from: ${zipFile} does not match ${sums}: refused (a damaged or altered download; fetch it again).`);
    }
  }
  return readZip(zip);
}
