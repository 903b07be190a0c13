/**
 * The canonical package of each platform (docs/provider.md "Install"), whose bytes depend on the
 * version alone:
 * - linux_amd64, linux_arm64: the self-contained executable (sea.ts) and Node.js's LICENSE;
 * - darwin_amd64, darwin_arm64: a `/bin/sh` launcher that runs the bundle beside it with the `node`
 *   (20 or later) on PATH, and the bundle (a macOS executable must be signed, which cannot be done
 *   here).
 * The bundle is dist/provider/alertrules-provider.js of this installed package, made by
 * `npm run build` (scripts/bundle-provider.mjs) and shipped in the npm package as it is.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ConfigError } from "../../errors";
import { packageRoot } from "../init-app";
import { executableName, type PackageFile, type PackageTarget, sortedFiles } from "./package-file";
import { buildSea } from "./sea";

/** Not `terraform-provider-…`: Terraform runs the first file of a package whose name starts so. */
export const BUNDLE_NAME = "alertrules-provider.js";

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

/** The darwin launcher: runs the bundle beside it with the node on PATH, or says what is missing. */
export function launcherScript(version: string): string {
  const needs = `terraform-provider-alertrules ${version}: this package runs with Node.js 20 or later on PATH`;
  return `#!/bin/sh
# The alertrules provider ${version} for Terraform and OpenTofu (alert-rule-users): runs
# ${BUNDLE_NAME} (beside this file) with the node (20 or later) on PATH. exec: the provider is
# this process, so Terraform's SIGKILL at the end of a run leaves nothing behind.
case $0 in */*) here=\${0%/*} ;; *) here=. ;; esac
if ! command -v node >/dev/null 2>&1; then
  msg="${needs}, and there is no node on PATH; install Node.js (nodejs.org, or brew install node), then run terraform again"
  echo "$msg"; echo "$msg" >&2
  exit 1
fi
exec node "$here/${BUNDLE_NAME}" "$@"
`;
}

/** The darwin package (the same for amd64 and arm64): cheap, synchronous. */
export function nodeLauncherPackage(version: string, bundle: Buffer): PackageFile[] {
  return sortedFiles([
    { name: executableName(version), mode: 0o755, data: Buffer.from(launcherScript(version), "utf8") },
    { name: BUNDLE_NAME, mode: 0o644, data: bundle },
  ]);
}

/** Whether a platform's package needs a `node` on the machine that runs Terraform. */
export function needsNode(target: PackageTarget): boolean {
  return target.startsWith("darwin_");
}

/** The canonical package of `target`; Linux builds (or takes from the cache) its executable. */
export async function canonicalPackage(target: PackageTarget, version: string, bundle: Buffer, cacheDir: string): Promise<PackageFile[]> {
  if (needsNode(target)) return nodeLauncherPackage(version, bundle);
  const built = await buildSea(bundle, target === "linux_amd64" ? "x64" : "arm64", cacheDir);
  return sortedFiles([
    { name: executableName(version), mode: 0o755, data: built.executable },
    { name: "LICENSE.node", mode: 0o644, data: built.license },
  ]);
}
