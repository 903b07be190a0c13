/**
 * A package that needs Node.js (the darwin packages: a launcher and the bundle) where no `node` is
 * on PATH: Terraform, which starts it, shows the launcher's sentence in its own error. The Linux
 * packages need no Node.js (test/terraform/provider-package.test.ts runs them where node is
 * unusable); the darwin launcher is the same `/bin/sh` script, so it runs here. Run by
 * `npm run test:terraform`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installProvider } from "../../src/io/provider-install";
import { nodeLauncherPackage, readBundle } from "../../src/io/provider-package/packages";
import { TOOL_VERSION } from "../../src/io/version";
import { MINUTES, TERRAFORM, terraform } from "./support";

const TERRAFORM_PATH = execFileSync("sh", ["-c", `command -v ${TERRAFORM}`], { encoding: "utf8" }).trim();
import { nativeTerraformEnv } from "./native-support";

it("terraform shows that the provider needs Node.js 20 or later on PATH, and that there is none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "aru-native-no-node-"));
  try {
    // given the launcher package installed, and a PATH of terraform's own directory, which holds no node
    const installed = installProvider({ dir, files: nodeLauncherPackage(TOOL_VERSION, readBundle()) });
    writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules", version = "${installed.version}" }\n  }\n}\n`);
    const env = nativeTerraformEnv(dir, { PATH: dirname(TERRAFORM_PATH) });
    expect(hasNode(env["PATH"] ?? "")).toBe(false);
    // when
    const init = await terraform(["init", "-input=false", "-no-color"], dir, env);
    const validate = await terraform(["validate", "-no-color"], dir, env);
    // then init installs it offline (it does not run it), and the first command that runs it fails with the sentence
    expect(init.code).toBe(0);
    expect(validate.code).toBe(1);
    expect(validate.stderr.replace(/\s+/g, " ")).toContain(`terraform-provider-alertrules ${TOOL_VERSION}: this package runs with Node.js 20 or later on PATH, and there is no node on PATH`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 5 * MINUTES);

function hasNode(path: string): boolean {
  return path.split(":").some((dir) => existsSync(join(dir, "node")));
}
