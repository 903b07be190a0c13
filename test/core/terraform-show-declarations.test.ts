/**
 * `terraform show -json` of a plan → the declarations it holds, as a synthesized output
 * (src/core/declaration/terraform-show.ts): only managed alertrules_rule_user_list resources, in
 * every module, with strings escaped as a .tf.json needs; outputs, variables and other resources
 * left behind; decodeStack reads them back as the declared lists.
 */
import { declarationsFromTerraformShow, HCL_STACK } from "../../src/core/declaration/terraform-show";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import { ConfigError } from "../../src/errors";

const list = (address: string, values: Record<string, unknown>) => ({ address, mode: "managed", type: "alertrules_rule_user_list", values });

const show = {
  format_version: "1.2",
  variables: { tok: { value: "secret-variable-value" } },
  output_changes: { x: { after: "PATH=/usr/bin\u0000ALERTS_API_TOKEN=leak" } },
  planned_values: {
    outputs: { x: { sensitive: false, value: "leak" } },
    root_module: {
      resources: [
        list("alertrules_rule_user_list.a", { rule_name: "Endpoint ${x} %{y}", users: { "9102": { aliases: ["alice@example.com"], expires_at: null } }, policies: null }),
        { address: "data.alertrules_rules.all", mode: "data", type: "alertrules_rules", values: { rules: [] } },
        { address: "terraform_data.other", mode: "managed", type: "terraform_data", values: { input: "leak" } },
      ],
      child_modules: [{ resources: [list('module.m.alertrules_rule_user_list.b["k"]', { rule_id: "r-2", mode: "additive", users: {} })] }],
    },
  },
};

describe("declarations from terraform show -json", () => {
  it("keeps only the managed alertrules_rule_user_list resources of every module, and nothing of outputs or variables", () => {
    // when
    const files = declarationsFromTerraformShow(show, "show.json");
    // then
    expect(Object.keys(files).sort()).toEqual(["manifest.json", `stacks/${HCL_STACK}/cdk.tf.json`]);
    expect(JSON.stringify(files)).not.toMatch(/leak|secret-variable-value/);
    const lists = decodeStack(HCL_STACK, files[`stacks/${HCL_STACK}/cdk.tf.json`]);
    expect(lists.map((l) => [l.constructPath, l.ruleId, l.ruleName, l.mode, l.users])).toEqual([
      ["alertrules_rule_user_list.a", null, "Endpoint ${x} %{y}", "authoritative", [{ userId: "9102", aliases: ["alice@example.com"] }]],
      ['module.m.alertrules_rule_user_list.b["k"]', "r-2", null, "additive", []],
    ]);
  });

  it("a plan without resources is an output without lists; anything but a plan's JSON is refused saying what to give", () => {
    const empty = declarationsFromTerraformShow({ format_version: "1.2" }, "show.json");
    expect(decodeStack(HCL_STACK, empty[`stacks/${HCL_STACK}/cdk.tf.json`])).toEqual([]);
    expect(() => declarationsFromTerraformShow({ resource: {} }, "show.json")).toThrow(ConfigError);
    expect(() => declarationsFromTerraformShow({ resource: {} }, "show.json")).toThrow(/show\.json is not the JSON of a Terraform plan \(terraform show -json PLANFILE\)/);
  });
});
