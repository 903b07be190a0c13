/**
 * `provider lock [DIR]` and `provider install --lock` (docs/provider.md "The lock file"): the lock
 * file is written by Terraform itself, `terraform providers lock` from a packed filesystem mirror
 * of this version's packages (a temporary directory), for every platform of the release. So it is
 * byte for byte the file `terraform providers lock -fs-mirror=RELEASE/mirror` (or
 * `-net-mirror=URL`) writes, `constraints` line and all, and the two never rewrite each other's.
 * Terraform runs with the environment without the token and the other secrets.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ConfigError, UsageError } from "../../errors";
import { LOCK_FILE_NAME, lockAddress } from "../../core/native/provider-lock";
import { childEnvironment } from "../../shared/secret-variables";
import { PACKAGE_TARGETS, releaseNames, type PackageTarget } from "./package-file";
import type { ProviderPackage } from "./packages";
import { mirrorDirectory } from "./release";

const run = promisify(execFile);

export interface LockResult {
  readonly file: string;
  readonly targets: readonly PackageTarget[];
  readonly changed: boolean;
}

/** The arguments of the one `terraform providers lock` every lock file of this provider comes from. */
export function providersLockArgs(mirror: string): string[] {
  return ["providers", "lock", `-fs-mirror=${mirror}`, ...PACKAGE_TARGETS.map((t) => `-platform=${t}`), lockAddress()];
}

/**
 * Asks Terraform (`terraform` on PATH, run in `dir`) to set this provider's entry of
 * `dir/.terraform.lock.hcl` from `packages`; other providers' entries are Terraform's to keep.
 */
export async function lockWithTerraform(dir: string, version: string, packages: ReadonlyMap<PackageTarget, ProviderPackage>, env: NodeJS.ProcessEnv): Promise<LockResult> {
  const file = path.join(dir, LOCK_FILE_NAME);
  const before = readOrNull(file);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "alert-rule-users-lock-"));
  try {
    const names = releaseNames(version);
    const mirror = path.join(temp, ...mirrorDirectory().split("/"));
    fs.mkdirSync(mirror, { recursive: true });
    for (const target of PACKAGE_TARGETS) {
      const pkg = packages.get(target);
      if (pkg === undefined) throw new Error(`provider lock: no ${target} package`);
      fs.writeFileSync(path.join(mirror, names.zip(target)), pkg.zip);
    }
    try {
      await run("terraform", [...providersLockArgs(path.join(temp, "mirror")), "-no-color"], {
        cwd: dir,
        env: { ...childEnvironment(env), CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0" },
        maxBuffer: 16 << 20,
      });
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { stderr?: string; stdout?: string };
      if (failure.code === "ENOENT") {
        throw new ConfigError(
          "provider lock: terraform is not on PATH. The lock file is written by Terraform itself (terraform providers lock), so that it is the file every other route writes: install Terraform 1.5 or later, or run terraform providers lock -fs-mirror=RELEASE/mirror with every -platform (docs/provider.md \"The lock file\").",
        );
      }
      const said = `${failure.stderr ?? ""}\n${failure.stdout ?? ""}`.replace(/\s+/g, " ").trim();
      throw new UsageError(
        `provider lock: terraform providers lock failed in ${dir}: ${said === "" ? failure.message : said}${/not required by|no configuration/i.test(said) ? " Run it where a configuration requires alert-rule-users/alertrules (required_providers)." : ""}`,
      );
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  const after = readOrNull(file);
  return { file, targets: PACKAGE_TARGETS, changed: after !== before };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}
