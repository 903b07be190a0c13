/**
 * `alert-rule-users provider install [DIR]` (docs/contract.md §11.1): writes the native provider into
 * DIR's implied local mirror, so `terraform init` in DIR finds `alert-rule-users/alertrules` with no
 * network and no CLI configuration file. What it writes is a small `/bin/sh` executable that runs
 * the provider (dist/src/provider/main.js of this installed package) with the Node.js that ran the
 * install, and says so in a sentence when that Node.js or this package is gone. Also used by synth
 * (src/constructs) for the directory of each stack that holds native resources.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "../errors";
import { OPENTOFU_PROVIDER_HOST, mirrorPath, terraformTarget } from "../core/native-provider";
import { writeFileAtomicSync } from "../shared/atomic-write";
import { shellQuote } from "../shared/text";
import { packageRoot } from "./init-app";
import { TOOL_VERSION } from "./version";

/** The command that installs the provider again, for messages. */
export const REINSTALL_COMMAND = "npx --no alert-rule-users provider install";

/** What an install is for; every field defaults to the running process and this package. */
export interface ProviderInstallRequest {
  /** The directory `terraform init` runs in (absolute). */
  readonly dir: string;
  /** @default - this package's version */
  readonly version?: string;
  /** @default process.execPath */
  readonly nodePath?: string;
  /** @default - dist/src/provider/main.js of this package */
  readonly providerMain?: string;
  /** @default process.platform */
  readonly platform?: string;
  /** @default process.arch */
  readonly arch?: string;
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
  readonly nodePath: string;
  readonly providerMain: string;
  /** False when the same executables were there already (nothing written). */
  readonly changed: boolean;
}

/**
 * The provider's entry of this installed package: next to this file once compiled
 * (dist/src/io → dist/src/provider/main.js); from a source checkout (ts-node, ts-jest), the build's.
 */
export function providerMainPath(): string {
  return __filename.endsWith(".js") ? path.resolve(__dirname, "..", "provider", "main.js") : path.join(packageRoot(), "dist", "src", "provider", "main.js");
}

/**
 * The executable: checks that the Node.js and the provider it names still exist (each gone one is
 * a sentence on stdout, where Terraform shows it in its error about the plugin, and on stderr for a
 * person who runs it), then replaces itself with that Node.js running the provider.
 */
export function providerScript(version: string, nodePath: string, providerMain: string): string {
  const gone = (what: string) =>
    `terraform-provider-alertrules: ${what}; install the provider again with the Node.js you use now: ${REINSTALL_COMMAND} (in the directory where you run terraform init)`;
  return `#!/bin/sh
# The alertrules provider ${version} for Terraform and OpenTofu (alert-rule-users), written by
# \`alert-rule-users provider install\`: it runs the provider with the Node.js that installed it.
node=${shellQuote(nodePath)}
provider=${shellQuote(providerMain)}
if [ ! -x "$node" ]; then
  msg="${gone("the Node.js this provider was installed with ($node) is gone")}"
  echo "$msg"; echo "$msg" >&2
  exit 1
fi
if [ ! -f "$provider" ]; then
  msg="${gone("alert-rule-users is no longer installed where this provider was installed from ($provider)")}"
  echo "$msg"; echo "$msg" >&2
  exit 1
fi
exec "$node" "$provider" "$@"
`;
}

/**
 * Writes the provider executable into `request.dir`'s implied local mirror (atomically, mode 0755),
 * under Terraform's registry host and under OpenTofu's (both resolve `alert-rule-users/alertrules`
 * through `terraform.d/plugins`, each to its own host); leaves identical ones as they are. Refuses
 * Windows, where Terraform needs a real `.exe`.
 */
export function installProvider(request: ProviderInstallRequest): ProviderInstall {
  const platform = request.platform ?? process.platform;
  const arch = request.arch ?? process.arch;
  if (platform === "win32") {
    throw new UsageError(
      "provider install: Windows is not supported: Terraform there runs a provider only as a .exe, and this provider is a Node.js program started by a shell script. Use Linux or macOS (WSL works), or the CLI's own plan and apply.",
    );
  }
  const target = terraformTarget(platform, arch);
  if (target === null) {
    throw new UsageError(`provider install: Terraform has no platform for ${platform} on ${arch}; the provider can be installed on Linux and macOS (amd64, arm64).`);
  }
  const version = request.version ?? TOOL_VERSION;
  const nodePath = path.resolve(request.nodePath ?? process.execPath);
  const providerMain = path.resolve(request.providerMain ?? providerMainPath());
  const relativePath = mirrorPath(version, target);
  const openTofuPath = mirrorPath(version, target, OPENTOFU_PROVIDER_HOST);
  const file = path.join(request.dir, ...relativePath.split("/"));
  const content = providerScript(version, nodePath, providerMain);
  let changed = false;
  for (const each of [file, path.join(request.dir, ...openTofuPath.split("/"))]) {
    if (isSameExecutable(each, content)) continue;
    writeExecutable(each, content);
    changed = true;
  }
  return { file, relativePath, openTofuPath, version, target, nodePath, providerMain, changed };
}

function writeExecutable(file: string, content: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new UsageError(`provider install: cannot create ${path.dirname(file)} (${code}); give a directory you can write to.`);
  }
  writeFileAtomicSync(file, content, { mode: 0o755 });
}

function isSameExecutable(file: string, content: string): boolean {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && (stat.mode & 0o777) === 0o755 && fs.readFileSync(file, "utf8") === content;
  } catch {
    return false;
  }
}
