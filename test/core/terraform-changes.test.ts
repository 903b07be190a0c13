/**
 * What a Terraform plan does to the live lists (src/core/native/terraform-changes.ts) and how a
 * person reads it (src/core/render/terraform-changes.ts): users and aliases added and removed from
 * the refreshed state to the planned value (case alone is no change), what a create removes
 * (`removes`), what a destroy keeps or clears; other resources and no-ops left out; every value
 * escaped in text and markdown.
 */
import { nativeChangesOf } from "../../src/core/native/terraform-changes";
import { renderTerraformChangesMarkdown, renderTerraformChangesText } from "../../src/core/render/terraform-changes";

/** A resource change as `terraform show -json` writes it. */
const change = (address: string, actions: string[], before: Record<string, unknown> | null, after: Record<string, unknown> | null, afterUnknown: Record<string, unknown> = {}) => ({
  address,
  mode: "managed",
  type: "alertrules_rule_user_list",
  change: { actions, before, after, after_unknown: afterUnknown },
});
const users = (entries: Record<string, string[]>) => Object.fromEntries(Object.entries(entries).map(([id, aliases]) => [id, { aliases, expires_at: null }]));
const show = (...changes: unknown[]) => ({ format_version: "1.2", resource_changes: changes });

describe("the changes of a Terraform plan to the live lists", () => {
  it("an update: users added and removed, aliases gained and lost (case alone is no change)", () => {
    // given
    const before = { id: "r-1", rule_id: "r-1", rule_name: "Exfiltration", mode: "authoritative", users: users({ "1": ["a@x.com", "A2@x.com"], "2": ["b@x.com"] }), removes: [] };
    const after = { ...before, users: users({ "1": ["a2@x.com", "a3@x.com"], "3": ["c@x.com"] }) };
    // when
    const [only, ...rest] = nativeChangesOf(show(change("alertrules_rule_user_list.x", ["update"], before, after)), "p.json");
    // then
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      address: "alertrules_rule_user_list.x",
      action: "update",
      ruleId: "r-1",
      ruleName: "Exfiltration",
      addUsers: [{ userId: "3", aliases: ["c@x.com"] }],
      addAliases: [{ userId: "1", aliases: ["a3@x.com"] }],
      removeAliases: [{ userId: "1", aliases: ["a@x.com"] }],
      removeUsers: [{ userId: "2", aliases: ["b@x.com"] }],
      removes: [],
    });
  });

  it("a create shows what it declares and what it removes; an unknown removes says so; a destroy keeps or clears", () => {
    const created = { rule_id: "r-2", rule_name: null, mode: "authoritative", users: users({ "9": ["z@x.com"] }), removes: [{ user_id: "8", aliases: ["y@x.com"] }] };
    const changes = nativeChangesOf(
      show(
        change("module.m.alertrules_rule_user_list.a", ["create"], null, created),
        change("alertrules_rule_user_list.b", ["create"], null, { ...created, removes: null }, { removes: true }),
        change("alertrules_rule_user_list.c", ["delete"], { rule_id: "r-3", on_destroy: "keep", users: users({ "7": ["w@x.com"] }) }, null),
        change("alertrules_rule_user_list.d", ["delete"], { rule_id: "r-4", on_destroy: "clear", users: users({ "6": ["v@x.com"] }) }, null),
        change("alertrules_rule_user_list.e", ["no-op"], created, created),
        { address: "terraform_data.t", mode: "managed", type: "terraform_data", change: { actions: ["create"], before: null, after: {} } },
      ),
      "p.json",
    );
    expect(changes.map((c) => [c.address, c.action, c.removes, c.onDestroy, c.removeUsers.length])).toEqual([
      ["alertrules_rule_user_list.b", "create", null, null, 0],
      ["alertrules_rule_user_list.c", "delete", [], "keep", 0],
      ["alertrules_rule_user_list.d", "delete", [], "clear", 1],
      ["module.m.alertrules_rule_user_list.a", "create", [{ userId: "8", aliases: ["y@x.com"] }], null, 0],
    ]);
  });

  it("refuses what is not a plan's JSON, naming the file", () => {
    expect(() => nativeChangesOf({ resource_changes: "x" }, "tfplan.json")).toThrow(/^tfplan\.json is not the JSON of a Terraform plan/);
  });

  it("renders every value escaped: an alias with a terminal escape and a newline cannot draw or forge a line", () => {
    // given: an alias the service returned with ESC and a newline in it
    const hostile = "x\u001b[31m@x.com\nFAKE: Apply complete!";
    const [c] = nativeChangesOf(show(change("alertrules_rule_user_list.x", ["update"], { rule_id: "r-1", users: users({ "1": [hostile] }) }, { rule_id: "r-1", users: users({}) })), "p.json");
    // when
    const text = renderTerraformChangesText([c!]);
    const markdown = renderTerraformChangesMarkdown([c!], "### Applied");
    // then
    for (const out of [text, markdown]) {
      expect(out).not.toContain("\u001b");
      expect(out).not.toMatch(/^FAKE/m);
      expect(out).toContain("\\u001b[31m@x.com");
    }
    expect(text).toBe('alertrules_rule_user_list.x (rule r-1): updated in place\n    - user "1" (x\\u001b[31m@x.com\\u000aFAKE: Apply complete!)\n');
    expect(markdown.split("\n").slice(0, 6)).toEqual(["### Applied", "", "1 rule user list changes:", "", "- `alertrules_rule_user_list.x` (rule r-1): updated in place", "  - `-` user `1` (`x\\u001b[31m@x.com FAKE: Apply complete!`)"]);
  });
});
