/**
 * The resource's MoveResourceState (src/provider/resources/move-state.ts): the state of the terraform_data or
 * null_resource a RuleUserList wrote → the state of alertrules_rule_user_list, from the triggers
 * alone (no request). test/terraform/provider-moved.test.ts runs it under real Terraform.
 */
import { POLICIES_TRIGGER, encodeTriggers } from "../../src/core/declaration";
import { policiesTrigger } from "../../src/core/declaration/native";
import { plain } from "../../src/provider/framework/dynamic";
import type { ListDeclaration } from "../../src/core/engine/desired";
import { movedState } from "../../src/provider/resources/move-state";
import { ruleUserListSchema } from "../../src/provider/schema";
import { usersOf } from "../../src/provider/resources/rule-user-list-values";

const TERRAFORM = "terraform.io/builtin/terraform";
const NULL = "registry.terraform.io/hashicorp/null";

const list = (over: Partial<ListDeclaration> = {}): ListDeclaration => ({
  ruleId: "a33e7c21-5cb0-4cf5-a266-852063111751",
  ruleName: null,
  mode: "authoritative",
  allowMassRemoval: false,
  users: [{ userId: "9102", aliases: ["alice@example.com"] }, { userId: "9107", aliases: ["bob@example.com"], expiresAt: "2099-12-31" }],
  ...over,
});

/** The triggers as Terraform keeps them in state: the templates of the synthesized JSON evaluated (`$${` is `${` there). */
const evaluated = (triggers: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(triggers).map(([k, v]) => [k, v.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{")]));

/** terraform_data's state: triggers_replace is a dynamic value, stored with its type. */
const terraformData = (declaration: ListDeclaration) => ({ id: "x", input: null, output: null, triggers_replace: { value: evaluated(encodeTriggers(declaration)), type: ["object", {}] } });

describe("moving a RuleUserList's provisioner resource onto alertrules_rule_user_list", () => {
  it("makes the state from terraform_data's triggers_replace: the rule, the mode, the users with their expiries; every attribute of the schema present", () => {
    // when
    const moved = movedState({ sourceProvider: TERRAFORM, sourceType: "terraform_data", sourceState: terraformData(list()) });
    // then
    if (!("state" in moved)) throw new Error(moved.error.detail);
    expect(moved.state).toMatchObject({
      id: "a33e7c21-5cb0-4cf5-a266-852063111751",
      rule_id: "a33e7c21-5cb0-4cf5-a266-852063111751",
      rule_name: null,
      mode: "authoritative",
      allow_mass_removal: false,
      on_destroy: "keep",
      policies: null,
      timeouts: null,
    });
    expect(usersOf(moved.state["users"])).toEqual([{ userId: "9102", aliases: ["alice@example.com"] }, { userId: "9107", aliases: ["bob@example.com"], expiresAt: "2099-12-31" }]);
    expect(Object.keys(moved.state).sort()).toEqual([...ruleUserListSchema.attributes.map((a) => a.name), ...(ruleUserListSchema.blocks ?? []).map((b) => b.name)].sort());
  });

  it("carries the policies the triggers hold into the state, as the configuration writes them (a template sequence in a name included); a damaged policies trigger is refused", () => {
    // given the triggers as a RuleUserList under a policy writes them
    const policies = [{ path: "app/${company}-domains", allowedAliasDomains: ["example.com"], maxUsers: 50 }];
    const triggers = { ...encodeTriggers(list()), [POLICIES_TRIGGER]: policiesTrigger(policies) };
    // when
    const moved = movedState({ sourceProvider: NULL, sourceType: "null_resource", sourceState: { id: "1", triggers: evaluated(triggers) } });
    // then
    if (!("state" in moved)) throw new Error(moved.error.detail);
    expect(plain(moved.state["policies"])).toEqual([{ name: "app/${company}-domains", max_users: 50, allowed_alias_domains: ["example.com"] }]);
    const damaged = movedState({ sourceProvider: NULL, sourceType: "null_resource", sourceState: { id: "1", triggers: { ...evaluated(triggers), [POLICIES_TRIGGER]: "{not json" } } });
    expect("error" in damaged && damaged.error.detail).toMatch(/policies of this null_resource is not the policies a RuleUserList writes/);
  });

  it("makes the state from null_resource's triggers, a list declared by name and additive", () => {
    const declaration = list({ ruleId: null, ruleName: "Sales endpoint exfiltration", mode: "additive" });
    const moved = movedState({ sourceProvider: NULL, sourceType: "null_resource", sourceState: { id: "1", triggers: evaluated(encodeTriggers(declaration)) } });
    if (!("state" in moved)) throw new Error(moved.error.detail);
    // the refresh right after the move resolves the name and fills id
    expect(moved.state).toMatchObject({ rule_id: null, rule_name: "Sales endpoint exfiltration", mode: "additive", id: "name:Sales endpoint exfiltration" });
  });

  it("reads a template sequence in an alias as written (Terraform's state holds it unescaped), and a big list carried in chunks", () => {
    const users = Array.from({ length: 3000 }, (_, i) => ({ userId: String(100000 + i), aliases: [`user${i}@example.com`] }));
    users[0] = { userId: "100000", aliases: ["${not-a-template}@example.com"] };
    const moved = movedState({ sourceProvider: TERRAFORM, sourceType: "terraform_data", sourceState: terraformData(list({ users })) });
    if (!("state" in moved)) throw new Error(moved.error.detail);
    const moved3000 = usersOf(moved.state["users"])!;
    expect(moved3000).toHaveLength(3000);
    expect(moved3000.find((u) => u.userId === "100000")!.aliases).toEqual(["${not-a-template}@example.com"]);
  });

  it.each([
    ["another resource type", { sourceProvider: "registry.terraform.io/hashicorp/aws", sourceType: "aws_s3_bucket", sourceState: {} }, /only the terraform_data and null_resource that a RuleUserList writes can; import the list instead/],
    ["a terraform_data not written by a RuleUserList", { sourceProvider: TERRAFORM, sourceType: "terraform_data", sourceState: { triggers_replace: { value: { a: "b" }, type: ["object", {}] } } }, /was not written by a RuleUserList/],
    ["a null_resource of another provider", { sourceProvider: "registry.terraform.io/example/null", sourceType: "null_resource", sourceState: {} }, /is not the null_resource a RuleUserList writes/],
    ["triggers of a future format", { sourceProvider: TERRAFORM, sourceType: "terraform_data", sourceState: { triggers_replace: { value: { ...encodeTriggers(list()), alert_rule_users_format: "9" }, type: ["object", {}] } } }, /format "9" is not supported/],
  ])("refuses %s with a sentence that says what to do", (_what, request, message) => {
    const moved = movedState(request);
    expect("error" in moved && moved.error.detail).toMatch(message);
  });
});
