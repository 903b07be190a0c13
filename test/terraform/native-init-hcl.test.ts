/**
 * The README's "Terraform (HCL) quick start" (issues 30, 49): its three commands from `init --hcl`
 * on, and then its drift step, read from README.md and run as written by one shell, in a directory
 * where alert-rule-users is installed, against the simulator (the setup the README puts aside: the
 * connection variables). `terraform init` needs no network and no CLI configuration; the plan
 * shows the sample list to create; the lock file records every platform; after the apply, the
 * user the drift step adds with `simulator users add` shows in the plan as one to remove. Run by
 * `npm run test:terraform`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, REPO, connectionEnv, runCommand } from "../support/cli";
import { MINUTES, explain } from "./support";
import { nativeTerraformEnv, requireProvider } from "./native-support";

const sim = useSimulator({});

/**
 * The commands of the shell block of the README's "Terraform (HCL) quick start" that starts with
 * `init --hcl` (the quick start once the package is installed; the blocks before it make the
 * release from a clone, since the package is not on the public registry).
 */
function quickStart(startsWith = "npx --no alert-rule-users init --hcl"): string[] {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Terraform (HCL) quick start"));
  const block = [...(section ?? "").matchAll(/```sh\n([^]*?)```/g)].find((b) => b[1]!.startsWith(startsWith));
  if (block === undefined) throw new Error(`README.md has no shell block starting with '${startsWith}' under '## Terraform (HCL) quick start'`);
  return block[1]!.split("\n").filter((line) => line.trim() !== "");
}

it("has exactly three commands, and they run as written against the simulator", async () => {
  requireProvider();
  const commands = quickStart();
  expect(commands).toHaveLength(3);
  // given a directory where alert-rule-users is installed (npx --no finds it in node_modules/.bin)
  const dir = mkdtempSync(join(tmpdir(), "aru-native-quickstart-"));
  try {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(REPO, join(dir, "node_modules", "alert-rule-users"), "dir");
    symlinkSync(CLI, join(dir, "node_modules", ".bin", "alert-rule-users"));
    const env = nativeTerraformEnv(dir, connectionEnv(sim));
    // when they run as written, one after the other in one shell (as typed: the cd holds for the next line)
    const result = await runCommand("sh", ["-ec", commands.join("\n")], { cwd: dir, env, timeoutMs: 10 * MINUTES });
    if (result.code !== 0) throw new Error(explain(commands.join("; "), result));
    // then the plan shows the sample list to create, with the user the starter adds
    const plan = result.stdout.replace(/\u001b\[[0-9;]*m/g, ""); // as written: in colour
    expect(plan).toMatch(/alertrules_rule_user_list\.engineering_exfiltration will be created/);
    expect(plan).toContain("erin.walker@example.com");
    expect(readFileSync(join(dir, "alert-rules", ".terraform.lock.hcl"), "utf8").match(/"h1:/g)).toHaveLength(4);
    // when the drift step runs as written, in the configuration's directory
    const drift = quickStart("terraform apply -auto-approve");
    expect(drift).toHaveLength(3);
    const after = await runCommand("sh", ["-ec", drift.join("\n")], { cwd: join(dir, "alert-rules"), env, timeoutMs: 10 * MINUTES });
    if (after.code !== 0) throw new Error(explain(drift.join("; "), after));
    // then the plan shows the user added behind Terraform's back, to be removed
    const driftPlan = after.stdout.replace(/\u001b\[[0-9;]*m/g, "");
    expect(driftPlan).toMatch(/alertrules_rule_user_list\.engineering_exfiltration will be updated in-place/);
    expect(driftPlan).toMatch(/- "31337"\s+=\s+\{/);
    expect(driftPlan).toContain("mallory@example.com");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 15 * MINUTES);
