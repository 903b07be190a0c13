/**
 * `import --format hcl` into a directory that already configures the provider: the file leaves out
 * the blocks the directory has (Terraform refuses a second `required_providers` entry: "Duplicate
 * required providers configuration"), and keeps the resources and import blocks.
 * test/terraform/provider-import-configured.test.ts runs it with real Terraform.
 */
import type { ImportedRule } from "../../src/core/import/import-code";
import { generateImportHcl, providerBlocks, providerConfigured } from "../../src/core/import/import-hcl";

const RULES: ImportedRule[] = [{ rule: { observerRuleId: "r1", name: "Finance", isSystem: false, ruleSource: "Alerting" }, list: { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "1", aliases: ["a@example.com"] }] } }];
const MAIN_TF = providerBlocks("0.1.0").join("\n");

describe("providerConfigured", () => {
  it.each([
    ["the blocks init --hcl and import write", [MAIN_TF], { requiredProviders: true, providerBlock: true }],
    ["a required_providers entry among others, no provider block", ['terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws" }\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n'], { requiredProviders: true, providerBlock: false }],
    ["a provider block with arguments, in another file", ["", 'provider "alertrules" {\n  max_rps = 2\n}\n'], { requiredProviders: false, providerBlock: true }],
    ["blocks in comments only", ['# provider "alertrules" {}\n/* terraform { required_providers { alertrules = {} } } */\n'], { requiredProviders: false, providerBlock: false }],
    ["no files", [], { requiredProviders: false, providerBlock: false }],
  ])("reads %s", (_what, files, expected) => {
    expect(providerConfigured(files)).toEqual(expected);
  });
});

describe("generateImportHcl into a configured directory", () => {
  it("writes resources and import blocks only, and says why", () => {
    const { source } = generateImportHcl(RULES, { providerVersion: "0.1.0", configured: { requiredProviders: true, providerBlock: true } });
    expect(source).not.toMatch(/^terraform \{|^\s+required_providers \{|^provider "alertrules"/m);
    expect(source).toContain("# The directory's other .tf files already declare the provider's required_providers entry and the provider \"alertrules\" block:");
    expect(source).toMatch(/^resource "alertrules_rule_user_list" "finance" \{/m);
    expect(source).toMatch(/^import \{/m);
  });

  it("writes the block the directory lacks", () => {
    const { source } = generateImportHcl(RULES, { providerVersion: "0.1.0", configured: { requiredProviders: false, providerBlock: true } });
    expect(source).toContain("required_providers");
    expect(source).not.toMatch(/^provider "alertrules"/m);
  });

  it("writes both blocks into a directory that has neither, as before", () => {
    expect(generateImportHcl(RULES, { providerVersion: "0.1.0" }).source).toContain(MAIN_TF);
  });
});
