/**
 * What a RuleUserList costs at synth besides cdktf's own work (docs/contract.md §10.1): no process per
 * construct (the Terraform version is checked once per stack), policies found wherever they were
 * declared, and the rule declarations of the app checked once: the same rule declared twice fails
 * synth with both construct paths, and each stack carries the app's declarations for its
 * provisioners (alert-rule-users.rules.json). Speed itself is measured by the bench
 * (synth-scaling), not here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { App, TerraformStack, Testing } from "cdktf";
import * as cdktn from "cdktn";
import { Construct } from "constructs";
import { RuleUserList, RuleUserListPolicy } from "../../src/constructs";
import { RuleUserList as CdktnRuleUserList } from "../../src/constructs/cdktn";
import { DECLARED_RULES_FILE, decodeDeclaredRules } from "../../src/core/declaration";
import { synthFailure } from "../support/synth-failure";
import { decodeAll } from "../support/decode-all";

const alice = { userId: "9102", aliases: ["alice@example.com"] };

/** The commands cdktf runs with execSync (its Terraform version check), counted. */
jest.mock("child_process", () => {
  const actual = jest.requireActual<Record<string, unknown> & { execSync: (...args: unknown[]) => unknown }>("child_process");
  return { ...actual, execSync: jest.fn(actual.execSync) };
});

/** The runs of `terraform version` while `run` executes. */
function terraformRuns(run: () => void): number {
  const execSync = jest.requireMock<{ execSync: jest.Mock }>("child_process").execSync;
  execSync.mockClear();
  run();
  return execSync.mock.calls.filter(([command]) => /terraform version$/.test(String(command))).length;
}

describe("terraform_data at synth", () => {
  it("checks the Terraform version once per stack, not once per list (cdktf entry)", () => {
    // given two stacks of 20 terraform_data lists each
    const app = Testing.app();
    for (const name of ["one", "two"]) {
      const stack = new TerraformStack(app, name);
      for (let i = 0; i < 20; i += 1) new RuleUserList(stack, `list-${i}`, { ruleId: `${name}-${i}`, resourceType: "terraform_data", users: [alice] });
    }
    // when / then
    expect(terraformRuns(() => app.synth())).toBe(2);
  });

  it("checks the Terraform version once per stack, not once per list (cdktn entry)", () => {
    // given one stack of 20 lists of the cdktn entry (terraform_data by default)
    const app = new cdktn.App({ outdir: Testing.app().outdir });
    const stack = new cdktn.TerraformStack(app, "alert-rules");
    for (let i = 0; i < 20; i += 1) new CdktnRuleUserList(stack, `list-${i}`, { ruleId: `r-${i}`, users: [alice] });
    // when / then
    expect(terraformRuns(() => app.synth())).toBe(1);
  });

  it("runs no process for null_resource lists", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "alert-rules");
    for (let i = 0; i < 20; i += 1) new RuleUserList(stack, `list-${i}`, { ruleId: `r-${i}`, users: [alice] });
    expect(terraformRuns(() => app.synth())).toBe(0);
  });
});

describe("RuleUserListPolicy, declared before or after the lists", () => {
  /** The policies each list carries, by construct path, for an app built in the given order. */
  function policiesWhen(order: "policies first" | "lists first"): Record<string, string[]> {
    const app = Testing.app();
    const prod = new TerraformStack(app, "prod");
    const team = new Construct(prod, "team-a");
    const declarePolicies = () => {
      new RuleUserListPolicy(app, "org-wide", { allowedAliasDomains: ["example.com"] });
      new RuleUserListPolicy(prod, "prod-rules", { maxUsers: 50 });
      new RuleUserListPolicy(team, "team-rules", { forbidRemovalsFromInclusionLists: true });
    };
    const declareLists = () => {
      new RuleUserList(prod, "watch", { ruleId: "r1", users: [alice] });
      new RuleUserList(team, "team-watch", { ruleId: "r2", resourceType: "terraform_data", users: [alice] });
    };
    if (order === "policies first") {
      declarePolicies();
      declareLists();
    } else {
      declareLists();
      declarePolicies();
    }
    const lists = decodeAll(app);
    return Object.fromEntries(lists.map((l) => [l.constructPath, (l.policies ?? []).map((p) => p.path)]));
  }

  it("gives every list the same policies, nearest scope first, in either order", () => {
    const expected = {
      "prod/watch": ["prod/prod-rules", "org-wide"],
      "prod/team-a/team-watch": ["prod/team-a/team-rules", "prod/prod-rules", "org-wide"],
    };
    expect(policiesWhen("policies first")).toEqual(expected);
    expect(policiesWhen("lists first")).toEqual(expected);
  });
});

describe("one rule declared by two RuleUserLists", () => {
  it("fails synth when two stacks declare the same ruleId, naming both constructs", () => {
    // given
    const app = Testing.app();
    new RuleUserList(new TerraformStack(app, "one"), "engineering", { ruleId: "c3e0", users: [alice] });
    new RuleUserList(new TerraformStack(app, "two"), "again", { ruleId: "c3e0", resourceType: "terraform_data", users: [] });
    // when
    const message = synthFailure(app);
    // then
    expect(message).toContain("[one/engineering] ruleId: rule 'c3e0' is declared again by two/again: keep exactly one RuleUserList per rule");
  });

  it("fails synth when one stack declares the same ruleName twice, naming both constructs", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "rules");
    new RuleUserList(stack, "finance", { ruleName: "Finance watch", users: [alice] });
    new RuleUserList(stack, "finance-too", { ruleName: "Finance watch", users: [] });
    const message = synthFailure(app);
    expect(message).toContain("[rules/finance] ruleName: rule 'Finance watch' is declared again by rules/finance-too");
    expect(message).toContain("[rules/finance-too] ruleName: rule 'Finance watch' is declared again by rules/finance");
  });

  it("synthesizes a rule by ID and a rule by name (only the service can tell they are one), and writes the app's declarations beside each stack", () => {
    // given one list by ID in one stack, one by name in another
    const app = new App({ outdir: Testing.app().outdir });
    new RuleUserList(new TerraformStack(app, "one"), "engineering", { ruleId: "c3e0", users: [alice] });
    new RuleUserList(new TerraformStack(app, "two"), "by-name", { ruleName: "Engineering watch", resourceType: "terraform_data", users: [] });
    // when
    app.synth();
    // then each stack's directory lists both, for its provisioners
    for (const [stack, self] of [["one", "one/engineering"], ["two", "two/by-name"]] as const) {
      const file = join(app.outdir, "stacks", stack, DECLARED_RULES_FILE);
      expect(existsSync(file)).toBe(true);
      expect(decodeDeclaredRules(readFileSync(file, "utf8"), file, self)).toEqual([
        { constructPath: "one/engineering", ruleId: "c3e0", ruleName: null },
        { constructPath: "two/by-name", ruleId: null, ruleName: "Engineering watch" },
      ]);
    }
  });
});
