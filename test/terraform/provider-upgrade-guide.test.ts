/**
 * The upgrading guide (docs/provider/guides/upgrading.md) ends with a lock file for every platform
 * (issue 49: `terraform init -upgrade` alone left one of linux_amd64 only). Its steps 2 and 3, read
 * from the page and run as written, with real Terraform, in a project whose lock file is what a
 * plain `terraform init` writes (this machine's platform only, the state a team is in before it
 * upgrades): the lock file then records the package of every platform of the release (five
 * platforms, four packages: the two darwin ones are one) with the guide's version constraint, and
 * `terraform init -lockfile=readonly` accepts it. Run by `npm run test:terraform`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, runCommand } from "../support/cli";
import { MINUTES, explain, terraform } from "./support";
import { nativeTerraformEnv, requireProvider } from "./native-support";

/** The inline commands of the guide's numbered steps 2 and 3, as the page writes them. */
function guideSteps(): string[] {
  const page = readFileSync(join(REPO, "docs", "provider", "guides", "upgrading.md"), "utf8");
  const step = (n: number) => new RegExp(`^${n}\\. [^]*?(?=^\\d\\. )`, "m").exec(page)?.[0] ?? "";
  return [2, 3].map((n) => {
    const commands = [...step(n).matchAll(/`((?:npx|terraform) [^`]+)`/g)].map((m) => m[1]!);
    if (commands.length === 0) throw new Error(`the upgrading guide's step ${n} names no command`);
    return commands[0]!;
  });
}

it("steps 2 and 3 of the upgrading guide leave a lock file of every platform that init -lockfile=readonly accepts", async () => {
  requireProvider();
  const steps = guideSteps();
  expect(steps).toEqual(["npx --no alert-rule-users provider install --lock", "terraform init"]);
  // given a project (the guide's versions.tf), initialized the plain way: a lock of this platform only
  const dir = mkdtempSync(join(tmpdir(), "aru-upgrade-guide-"));
  try {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(REPO, join(dir, "node_modules", "alert-rule-users"), "dir");
    symlinkSync(CLI, join(dir, "node_modules", ".bin", "alert-rule-users"));
    copyFileSync(join(REPO, "examples", "provider", "guides", "upgrading", "versions.tf"), join(dir, "versions.tf"));
    const env = nativeTerraformEnv(dir);
    const install = await runCommand(process.execPath, [CLI, "provider", "install"], { cwd: dir, env, timeoutMs: 5 * MINUTES });
    if (install.code !== 0) throw new Error(explain("provider install", install));
    const plain = await terraform(["init", "-input=false", "-no-color"], dir, env);
    if (plain.code !== 0) throw new Error(explain("terraform init", plain));
    expect(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8").match(/"h1:/g)).toHaveLength(1);
    // when the guide's steps 2 and 3 run as written
    const run = await runCommand("sh", ["-ec", steps.join("\n")], { cwd: dir, env, timeoutMs: 10 * MINUTES });
    if (run.code !== 0) throw new Error(explain(steps.join("; "), run));
    // then
    const lock = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
    expect(lock.match(/"h1:/g)).toHaveLength(4);
    expect(lock).toContain('constraints = "~> 0.1"');
    const readonly = await terraform(["init", "-lockfile=readonly", "-input=false", "-no-color"], dir, env);
    if (readonly.code !== 0) throw new Error(explain("terraform init -lockfile=readonly", readonly));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 15 * MINUTES);
