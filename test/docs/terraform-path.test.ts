/**
 * What the README tells a platform team about the Terraform path (issue 25): up front, that it
 * converges declared changes only (Terraform never sees live drift or an expiry passing) and that
 * each list change is a replace, with the drift workflow as the answer; and the Terraform steps
 * that work offline in the app `init` writes (which has no cdktf-cli for `cdktf deploy`). The steps
 * were run with Terraform 1.11 and terraform_data against the simulator (see the report of the
 * change); test/terraform/terraform-data.test.ts runs the same init/apply in CI.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";

const readme = readFileSync(join(REPO, "README.md"), "utf8");
const intro = readme.slice(0, readme.indexOf("## Quick start"));
const terraformPath = readme.slice(readme.indexOf("## The Terraform path"), readme.indexOf("### CDK Terrain"));

it("says up front that the Terraform path converges declared changes only, each as a replace, and points at the drift workflow", () => {
  expect(intro).not.toMatch(/gives the same result/);
  expect(intro).toMatch(/converges declared changes only/);
  expect(intro).toMatch(/never sees .*drift.* or an `expiresAt` passing/s);
  expect(intro).toMatch(/replace/);
  expect(intro).toMatch(/drift/);
});

it("shows the offline Terraform steps for the app init writes, and says cdktf deploy needs cdktf-cli", () => {
  expect(terraformPath).toContain("cd cdktf.out/stacks/alert-rules && terraform init && terraform apply");
  // synth, not plan, before Terraform: no connection is needed to synthesize (issue 32)
  expect(terraformPath).toContain("npx --no -- alert-rule-users synth ");
  expect(terraformPath).not.toMatch(/alert-rule-users plan +#/);
  expect(terraformPath).toMatch(/cdktf deploy.*cdktf-cli/s);
  expect(terraformPath).toMatch(/terraform\.alert-rules\.tfstate/);
});
