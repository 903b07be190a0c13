/**
 * One file of a provider package (docs/provider.md "Install"): its name inside the package
 * directory, its mode (0755 for what Terraform runs, 0644 else) and its bytes. A package is the list
 * of its files sorted by name: what the zip holds, what `provider install` unpacks, what the `h1:`
 * hash is taken over.
 */
export interface PackageFile {
  readonly name: string;
  readonly mode: 0o755 | 0o644;
  readonly data: Buffer;
}

/** The platforms every release has, in Terraform's `OS_ARCH` spelling. */
export const PACKAGE_TARGETS = ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"] as const;
export type PackageTarget = (typeof PACKAGE_TARGETS)[number];

export function isPackageTarget(target: string): target is PackageTarget {
  return (PACKAGE_TARGETS as readonly string[]).includes(target);
}

/**
 * The executable's name inside a package, as Terraform looks for it: `terraform-provider-TYPE_vVERSION`,
 * with `.exe` on Windows (Terraform there runs only a file of that name).
 */
export function executableName(version: string, target?: PackageTarget): string {
  return `terraform-provider-alertrules_v${version}${target !== undefined && target.startsWith("windows_") ? ".exe" : ""}`;
}

/** The release file names of a version (the registry's and `terraform providers mirror`'s). */
export function releaseNames(version: string): { zip: (target: PackageTarget) => string; sums: string; manifest: string } {
  const base = `terraform-provider-alertrules_${version}`;
  return { zip: (target) => `${base}_${target}.zip`, sums: `${base}_SHA256SUMS`, manifest: `${base}_manifest.json` };
}

/** Files sorted by name (byte order), as every package is kept. */
export function sortedFiles(files: readonly PackageFile[]): PackageFile[] {
  return [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
