/**
 * A Linux provider executable: a Node.js single executable application (SEA) of the pinned Node.js
 * (sea-node.ts) holding the provider bundle. Deterministic: the preparation blob is made by the
 * pinned x64 Node.js itself from a sea-config.json with relative paths, `useCodeCache` and
 * `useSnapshot` off (both would embed V8 state of the build machine), and the warning off; postject
 * injects it as the ELF note `NODE_SEA_BLOB`. The blob does not depend on the CPU it runs on, so
 * the arm64 executable gets the blob the x64 Node.js made. Built ones are kept in the cache under
 * the SHA-256 of their inputs (the bundle, the Node.js pin, the architecture).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { sha256Hex } from "./hashes";
import { SEA_NODE_INTEGRITY, SEA_NODE_VERSION, seaNode, type SeaArch } from "./sea-node";

const run = promisify(execFile);

/** Node.js's SEA fuse (src/node_sea.cc); postject flips it in the executable it injects. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

type Inject = (file: string, resource: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void>;

export interface SeaExecutable {
  readonly executable: Buffer;
  /** Node.js's license, which the package carries beside the executable */
  readonly license: Buffer;
}

/** The cache key of an executable: every input of its bytes. */
export function seaKey(bundle: Buffer, arch: SeaArch): string {
  return sha256Hex(`${sha256Hex(bundle)} node-linux-${arch}@${SEA_NODE_VERSION} ${SEA_NODE_INTEGRITY[arch]} postject@1.0.0-alpha.6`);
}

export async function buildSea(bundle: Buffer, arch: SeaArch, cacheDir: string): Promise<SeaExecutable> {
  const kept = path.join(cacheDir, "sea", seaKey(bundle, arch));
  const keptExecutable = path.join(kept, "executable");
  const keptLicense = path.join(kept, "LICENSE");
  if (fs.existsSync(keptExecutable) && fs.existsSync(keptLicense)) {
    return { executable: fs.readFileSync(keptExecutable), license: fs.readFileSync(keptLicense) };
  }
  const [builder, target] = await Promise.all([seaNode("x64", cacheDir), seaNode(arch, cacheDir)]);
  fs.mkdirSync(cacheDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheDir, ".sea-"));
  try {
    fs.writeFileSync(path.join(work, "provider.js"), bundle);
    fs.writeFileSync(
      path.join(work, "sea-config.json"),
      JSON.stringify({ main: "provider.js", output: "sea-prep.blob", disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false }),
    );
    await run(builder.binary, ["--experimental-sea-config", "sea-config.json"], { cwd: work, env: { PATH: process.env["PATH"] ?? "" } });
    const blob = fs.readFileSync(path.join(work, "sea-prep.blob"));
    const file = path.join(work, "executable");
    fs.copyFileSync(target.binary, file);
    fs.chmodSync(file, 0o755);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- postject ships no types
    const { inject } = require("postject") as { inject: Inject };
    await quietly(() => inject(file, "NODE_SEA_BLOB", blob, { sentinelFuse: SEA_FUSE }));
    const built = { executable: fs.readFileSync(file), license: fs.readFileSync(target.license) };
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    const staged = path.join(work, "kept");
    fs.mkdirSync(staged);
    fs.renameSync(file, path.join(staged, "executable"));
    fs.writeFileSync(path.join(staged, "LICENSE"), built.license);
    fs.rmSync(kept, { recursive: true, force: true });
    fs.renameSync(staged, kept);
    return built;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
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
