/**
 * The provider executable when the Node.js it was installed with is gone (issue 29's install,
 * issue 30's `provider install`): Terraform, which starts it, shows the executable's sentence (which
 * Node.js, and the command that installs again) in its own error. Run by `npm run test:terraform`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installProvider } from "../../src/io/provider-install";
import { MINUTES, terraform } from "./support";
import { nativeTerraformEnv } from "./native-support";

it("terraform shows which Node.js is gone and how to install the provider again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "aru-native-gone-"));
  try {
    // given a provider installed by a Node.js that is not there any more
    const gone = join(dir, "nvm", "v22.0.0", "bin", "node");
    const installed = installProvider({ dir, nodePath: gone });
    writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules", version = "${installed.version}" }\n  }\n}\n`);
    const env = nativeTerraformEnv(dir);
    // when
    const init = await terraform(["init", "-input=false", "-no-color"], dir, env);
    const validate = await terraform(["validate", "-no-color"], dir, env);
    // then init installs it offline (it does not run it), and the first command that runs it fails with the sentence
    expect(init.code).toBe(0);
    expect(validate.code).toBe(1);
    const said = validate.stderr.replace(/\s+/g, " ");
    expect(said).toContain(`terraform-provider-alertrules: the Node.js this provider was installed with (${gone}) is gone; install the provider again with the Node.js you use now: npx --no alert-rule-users provider install`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 5 * MINUTES);

it("the dependency lock file records this machine's provider: a lock file from another machine's install makes terraform init refuse (why init --hcl keeps it out of git)", async () => {
  const root = mkdtempSync(join(tmpdir(), "aru-native-lock-"));
  try {
    const configure = (dir: string, nodePath: string) => {
      const installed = installProvider({ dir, nodePath });
      writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules", version = "${installed.version}" }\n  }\n}\n`);
    };
    // given a lock file written where the provider runs this Node.js
    const here = join(root, "here");
    const there = join(root, "there");
    configure(here, process.execPath);
    configure(there, "/opt/hostedtoolcache/node/24.0.0/x64/bin/node");
    expect((await terraform(["init", "-input=false", "-no-color"], here, nativeTerraformEnv(here))).code).toBe(0);
    writeFileSync(join(there, ".terraform.lock.hcl"), readFileSync(join(here, ".terraform.lock.hcl"), "utf8"));
    // when another machine inits with it
    const init = await terraform(["init", "-input=false", "-no-color"], there, nativeTerraformEnv(there));
    // then
    expect(init.code).toBe(1);
    expect(init.stderr.replace(/\s+/g, " ")).toContain("doesn't match any of the checksums previously recorded in the dependency lock file");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 5 * MINUTES);
