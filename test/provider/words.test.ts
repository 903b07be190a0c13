/**
 * The provider says every problem in its own words (src/shared/field-names.ts ATTRIBUTE_NAMES,
 * BLOCK_WORDS): the core reports its problems as data, so no diagnostic names a RuleUserList prop
 * (ruleId, allowMassRemoval, expiresAt, maxUsers, …) or a CLI flag (--base-url, --max-rps, …),
 * whatever the core's sentence.
 */
import { DECLARATION_FIELDS, POLICY_FIELDS, SETTING_FIELDS, FLAG_WORDS, PROP_NAMES } from "../../src/shared/field-names";
import { RULE_USER_LIST } from "../../src/provider/schema";
import { typedLiteral } from "../../src/provider/framework/dynamic";
import type { Diagnostic } from "../../src/provider/protocol";
import { alertRulesProvider } from "../../src/provider/provider";
import { providerSchema } from "../../src/provider/schema";
import { decoded, resourceConfig, usersLiteral } from "./support";

/** A prop of the construct that is not also the provider's word (users, mode and aliases are both). */
const PROPS = [...DECLARATION_FIELDS, ...POLICY_FIELDS].map((field) => PROP_NAMES[field]).filter((name) => !["users", "mode", "aliases"].includes(name));
const FLAGS = SETTING_FIELDS.map((field) => FLAG_WORDS.names[field]).filter((name) => name.startsWith("--"));

/** What of the construct's or the CLI's words a diagnostic says. */
function foreignWords(diagnostics: readonly Diagnostic[]): string[] {
  const text = diagnostics.map((d) => `${d.summary}\n${d.detail ?? ""}`).join("\n");
  return [...PROPS.filter((prop) => new RegExp(`\\b${prop.replace(".", "\\.")}\\b`).test(text)), ...FLAGS.filter((flag) => text.includes(flag))];
}

const provider = () => alertRulesProvider({ env: {}, cwd: process.cwd(), log: () => undefined });

describe("the provider's diagnostics, in its own words", () => {
  it("say a declaration's every problem by attribute: rule_id, mode, users[\"ID\"].expires_at, …", async () => {
    // given a configuration that breaks every rule a declaration has
    const configs = [
      resourceConfig({ users: usersLiteral([]) }),
      resourceConfig({ rule_id: "", users: usersLiteral([]) }),
      resourceConfig({ rule_name: " ", users: usersLiteral([]) }),
      resourceConfig({ rule_id: "r-1", rule_name: "both", users: usersLiteral([]) }),
      resourceConfig({
        rule_id: "r-1",
        mode: "sometimes",
        users: typedLiteral({ "a b": { aliases: ["x@example.com"] }, "9102": { aliases: ["X@example.com", "", "ａ@example.com", "b\u202e@example.com"], expires_at: "2026-02-30" }, "9107": { aliases: [], expires_at: "soon" } }),
      }),
    ];
    // when
    const diagnostics: Diagnostic[] = [];
    for (const config of configs) diagnostics.push(...(await provider().resources[RULE_USER_LIST]!.validateResourceConfig!(config)));
    // then
    expect(diagnostics.length).toBeGreaterThan(10);
    expect(foreignWords(diagnostics)).toEqual([]);
    const details = diagnostics.map((d) => d.detail ?? "").join("\n");
    expect(details).toContain("rule_id/rule_name: neither is set; set exactly one: rule_id (the rule's observerRuleId) or rule_name (its exact name)");
    expect(details).toContain("rule_id: is empty; set the rule's observerRuleId, or name the rule with rule_name instead");
    expect(details).toContain('users["9102"].expires_at: "2026-02-30" is not a date');
    expect(details).toContain('users["a b"].aliases[0]: "x@example.com" repeats users["9102"].aliases[0]');
    expect(diagnostics.find((d) => (d.detail ?? "").startsWith("rule_id: is empty"))?.attribute).toEqual(["rule_id"]);
  });

  it("say a policy's every problem by its attribute: max_users, allowed_alias_domains, … (a value of the wrong type is refused before, by the attribute's shape)", async () => {
    const policies = typedLiteral([{}, { max_users: -1, allowed_alias_domains: ["@example.com"], exclusion_lists_require_expiry_max_days: 1.5 }]);
    const diagnostics = await provider().resources[RULE_USER_LIST]!.validateResourceConfig!(resourceConfig({ rule_id: "r-1", users: usersLiteral([]), policies }));
    expect(diagnostics.map((d) => d.attribute)).toEqual([
      ["policies", { index: 0 }],
      ["policies", { index: 1 }, "max_users"],
      ["policies", { index: 1 }, "allowed_alias_domains"],
      ["policies", { index: 1 }, "exclusion_lists_require_expiry_max_days"],
    ]);
    expect(foreignWords(diagnostics)).toEqual([]);
    expect(diagnostics[0]!.detail).toBe("policies[0]: the policy sets no check; set at least one of max_users, allowed_alias_domains, exclusion_lists_require_expiry_max_days, forbid_removals_from_inclusion_lists");
  });

  it("say what the provider block lacks, or how to pace, by the block's arguments", async () => {
    const unset = await provider().configureProvider(decoded(providerSchema, {}), { terraformVersion: "1.11.4" });
    expect(unset.map((d) => d.detail).join("\n")).toMatch(/or set url in the provider block\..*or set token_command \(ALERTS_API_TOKEN_COMMAND\) to a command that prints one\..*or set tenant_id in the provider block\./s);
    expect(foreignWords(unset)).toEqual([]);
    const slow = await alertRulesProvider({ env: { ALERTS_API_URL: "http://127.0.0.1:9", ALERTS_API_TOKEN: "t0123456789abcdef", ALERTS_TENANT_ID: "t" }, cwd: process.cwd(), log: () => undefined }).configureProvider(decoded(providerSchema, { max_rps: 0.01, request_timeout: "10s" }), { terraformVersion: "1.11.4" });
    expect(slow.map((d) => d.detail).join("\n")).toMatch(/Use max_rps = 0\.1 or more, or raise request_timeout \(ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS\)\./);
    expect(foreignWords(slow)).toEqual([]);
  });
});
