/**
 * expiresAt on a declared user and RuleUserListPolicy, from construct to the synthesized JSON
 * (as `cdktf synth` writes it, `//` blocks included) and back through decodeStack.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { Construct } from "constructs";
import { RuleUserList, RuleUserListPolicy } from "../../src/constructs";
import { synthFailure } from "../support/synth-failure";
import { decodeAll } from "../support/decode-all";

const alice = { userId: "9102", aliases: ["alice@example.com"] };

describe("expiresAt", () => {
  it("travels in the users trigger and is read back", () => {
    // given
    const app = Testing.app();
    const stack = new TerraformStack(app, "stack");
    new RuleUserList(stack, "exceptions", { ruleId: "r1", users: [{ ...alice, expiresAt: "2026-12-31" }, { userId: "7", aliases: ["bob@example.com"] }] });

    // when
    const [list] = decodeAll(app);

    // then
    expect(list!.users).toEqual([
      { userId: "7", aliases: ["bob@example.com"] },
      { userId: "9102", aliases: ["alice@example.com"], expiresAt: "2026-12-31" },
    ]);
    const json = JSON.parse(Testing.synth(stack)) as { resource: { null_resource: Record<string, { triggers: { users: string } }> } };
    expect(Object.values(json.resource.null_resource)[0]!.triggers.users).toBe(
      '[{"userId":"7","aliases":["bob@example.com"]},{"userId":"9102","aliases":["alice@example.com"],"expiresAt":"2026-12-31"}]',
    );
  });

  it.each([
    ["2026-02-30", 'users[0].expiresAt: "2026-02-30" is not a date (no such day in the calendar)'],
    ["2026-13-01", 'users[0].expiresAt: "2026-13-01" is not a date'],
    ["2026/12/31", 'users[0].expiresAt: "2026/12/31" is not written yyyy-MM-dd'],
    ["31-12-2026", 'users[0].expiresAt: "31-12-2026" is not written yyyy-MM-dd'],
    ["2026-12-31T00:00:00Z", 'users[0].expiresAt: "2026-12-31T00:00:00Z" is not written yyyy-MM-dd'],
    [20261231, "users[0].expiresAt: must be a date string \"yyyy-MM-dd\" (UTC), got number 20261231"],
  ])("refuses %j at synth, with the construct path", (expiresAt, message) => {
    // given
    const app = Testing.app();
    const stack = new TerraformStack(app, "prod");
    new RuleUserList(stack, "exceptions", { ruleId: "r1", users: [{ ...alice, expiresAt: expiresAt as string }] });

    // then
    expect(synthFailure(app)).toContain(`[prod/exceptions] ${message}`);
  });
});

describe("RuleUserListPolicy", () => {
  it("applies to every list under its scope, across stacks, and only there", () => {
    // given an org-wide policy on the app, a stricter one on one stack and one on a sub-scope
    const app = Testing.app();
    const prod = new TerraformStack(app, "prod");
    const dev = new TerraformStack(app, "dev");
    new RuleUserListPolicy(app, "org-wide", { allowedAliasDomains: ["example.com"] });
    new RuleUserListPolicy(prod, "prod-rules", { maxUsers: 50, exclusionListsRequireExpiry: { maxDays: 90 } });
    const team = new Construct(prod, "team-a");
    new RuleUserListPolicy(team, "team-rules", { forbidRemovalsFromInclusionLists: true });
    new RuleUserList(prod, "watch", { ruleId: "r1", users: [alice] });
    new RuleUserList(team, "team-watch", { ruleId: "r2", users: [alice] });
    new RuleUserList(dev, "dev-watch", { ruleId: "r3", users: [alice] });

    // when
    const lists = decodeAll(app);

    // then each list carries the policies above it, nearest first
    const policies = Object.fromEntries(lists.map((l) => [l.constructPath, (l.policies ?? []).map((p) => p.path)]));
    expect(policies).toEqual({
      "prod/watch": ["prod/prod-rules", "org-wide"],
      "prod/team-a/team-watch": ["prod/team-a/team-rules", "prod/prod-rules", "org-wide"],
      "dev/dev-watch": ["org-wide"],
    });
    expect(lists.find((l) => l.constructPath === "prod/watch")!.policies![0]).toEqual({
      path: "prod/prod-rules",
      maxUsers: 50,
      exclusionListsRequireExpiry: { maxDays: 90 },
    });
  });

  it("leaves lists without a policy exactly as before (no // key, no override)", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "stack");
    new RuleUserList(stack, "watch", { ruleId: "r1", users: [alice] });
    app.synth();
    const text = readFileSync(join(app.outdir, "stacks/stack/cdk.tf.json"), "utf8");
    expect(text).not.toContain("alert_rule_users_policies");
    expect(text).not.toContain("overrides");
  });

  it("refuses invalid props at synth, with the policy's construct path", () => {
    // given
    const app = Testing.app();
    const stack = new TerraformStack(app, "prod");
    new RuleUserListPolicy(stack, "guardrails", { maxUsers: -3, allowedAliasDomains: ["@example.com"], exclusionListsRequireExpiry: { maxDays: 1.5 } });

    // then every failure is listed
    const failure = synthFailure(app);
    expect(failure).toContain("[prod/guardrails] maxUsers: must be a whole number of users, 0 or more, got number -3");
    expect(failure).toContain('[prod/guardrails] allowedAliasDomains[0]: must be a domain without "@" or spaces');
    expect(failure).toContain("[prod/guardrails] exclusionListsRequireExpiry.maxDays: must be a whole number of days");
  });

  it("depends on constructs only, not cdktf (so the cdktn entry can export it)", () => {
    const source = readFileSync(join(__dirname, "../../src/constructs/rule-user-list-policy.ts"), "utf8");
    const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(imports.filter((i) => !i!.startsWith("../core/"))).toEqual(["constructs", "constructs"]);
  });
});
