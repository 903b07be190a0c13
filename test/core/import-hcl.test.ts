/**
 * `import --format hcl` (src/core/import/import-hcl.ts): a hostile tenant (quotes, `${`, `%{`, newlines,
 * Unicode, bidirectional controls, HCL keywords, two rules of one name) gives a configuration that
 * reads back (test/support/hcl-reader.ts) as exactly the live values, in which nothing runs as a
 * template, with resource names that are valid identifiers, unique, and the same whatever the order
 * of the rules. (That Terraform itself takes it and plans only imports: test/terraform/native-import-hcl.)
 */
import type { ImportedRule } from "../../src/core/import/import-code";
import { generateImportHcl, resourceNameFor, resourceNames } from "../../src/core/import/import-hcl";
import { hclString } from "../../src/core/import/hcl";
import { HOSTILE_ALIASES } from "../support/hostile-aliases";
import { readHcl } from "../support/hcl-reader";
import type { HclBlock, HclValue } from "../support/hcl-reader";

const rule = (observerRuleId: string, name: string, entries: { userId: string | null; aliases: string[] }[], extra: Partial<ImportedRule["rule"]> = {}, usersToAlertOn: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED" | "ALL_USERS" = "SPECIFIED_USERS"): ImportedRule => ({
  rule: { observerRuleId, name, isSystem: false, ruleSource: "Alerting", ...extra },
  list: { usersToAlertOn, entries },
});

const HOSTILE_NAMES = ['Quote " and \\ backslash', "Inter${polation} and %{ if true }directive%{ endif }", "Two\nlines\r\nand\ttab", "Überwachung 日本 🚨", "for", "in", "null", "9 digits first", "\u202eevil override"];

/** The hostile aliases a list can hold (the look-alike ones make a list undeclarable: commented out, tested apart). */
const ALIASES = HOSTILE_ALIASES.filter((a) => !/[\u200b\u202e]/.test(a));

const TENANT: ImportedRule[] = [
  ...HOSTILE_NAMES.map((name, i) => rule(`rule-${i}`, name, [{ userId: `u${i}`, aliases: [`user${i}@example.com`, ALIASES[i % ALIASES.length]!] }])),
  rule("twin-a", "Same name", [{ userId: "1", aliases: ["a@example.com"] }]),
  rule("twin-b", "Same name", [{ userId: "2", aliases: ["b@example.com"] }]),
  rule("template-id-${x}", "Weird ID", [{ userId: "id-${user}", aliases: ["$${already}@example.com", "100%{x}@example.com"] }], {}, "ALL_USERS_NOT_SPECIFIED"),
  rule("no-ids", "Has entries without IDs", [{ userId: null, aliases: ["ghost@example.com"] }, { userId: "3", aliases: ["c@example.com"] }]),
  rule("empty", "Empty list", []),
  { rule: { observerRuleId: "system", name: "Departing", isSystem: true, ruleSource: "Departing Employee" }, list: null },
  rule("everyone", "Everyone", [], {}, "ALL_USERS"),
  rule("bad", "User without aliases", [{ userId: "4", aliases: [] }]),
];

const generate = (rules: readonly ImportedRule[]) => generateImportHcl(rules, { providerVersion: "0.1.0", toolVersion: "0.1.0" });

const blocksOf = (config: HclBlock, type: string): HclBlock[] => config.blocks.filter((b) => b.type === type);

describe("import --format hcl", () => {
  const { source, rules } = generate(TENANT);
  const config = readHcl(source);
  const resources = blocksOf(config, "resource");
  const imports = blocksOf(config, "import");

  it("reads back: one resource and one import block per editable list, every value exactly as live", () => {
    const editable = TENANT.filter((r) => !["system", "everyone", "bad"].includes(r.rule.observerRuleId));
    expect(resources).toHaveLength(editable.length);
    expect(imports).toHaveLength(editable.length);
    for (const live of editable) {
      const resource = resources.find((r) => r.attributes["rule_id"] === live.rule.observerRuleId);
      expect(resource).toBeDefined();
      expect(resource!.labels[0]).toBe("alertrules_rule_user_list");
      const users: Record<string, HclValue> = {};
      for (const e of live.list!.entries) if (e.userId !== null) users[e.userId] = { aliases: [...e.aliases].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : a < b ? -1 : 1)) };
      expect(resource!.attributes["users"]).toEqual(users);
      const importBlock = imports.find((b) => (b.attributes["to"] as { traversal: string }).traversal === `alertrules_rule_user_list.${resource!.labels[1]}`);
      // an additive list (entries without a user ID) is imported as additive: the import shows no change
      expect(importBlock?.attributes["id"]).toBe(resource!.attributes["mode"] === "additive" ? `additive:${live.rule.observerRuleId}` : live.rule.observerRuleId);
    }
  });

  it("names resources with valid identifiers that are no keyword, unique, from the rule name", () => {
    const names = resources.map((r) => r.labels[1]!);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(["for", "in", "null", "if", "true", "false"]).not.toContain(name);
    }
    expect(names).toEqual(expect.arrayContaining(["rule_for", "rule_in", "rule_null", "rule_9_digits_first", "uberwachung", "quote_and_backslash"]));
    const twins = names.filter((n) => n.startsWith("same_name_"));
    expect(twins).toHaveLength(2);
    expect(twins.every((n) => /^same_name_[0-9a-f]{8}$/.test(n))).toBe(true);
  });

  it("gives every rule the same name whatever the order of the rules, and whatever other rules come and go", () => {
    const reversed = resourceNames([...TENANT].reverse().map((r) => r.rule));
    const forward = resourceNames(TENANT.map((r) => r.rule));
    expect([...reversed].sort()).toEqual([...forward].sort());
    // a rule gaining an unrelated neighbour keeps its name
    const withNeighbour = resourceNames([...TENANT.map((r) => r.rule), { observerRuleId: "new", name: "Brand new" }]);
    for (const [id, name] of forward) expect(withNeighbour.get(id)).toBe(name);
  });

  it("declares a list with entries without a user ID additive, with those entries in comments", () => {
    const noIds = resources.find((r) => r.attributes["rule_id"] === "no-ids")!;
    expect(noIds.attributes["mode"]).toBe("additive");
    expect(source).toMatch(/# {3}- "ghost@example\.com"/);
    expect(rules.find((r) => r.ruleId === "no-ids")?.disposition).toBe("declared-additive");
  });

  it("writes system, all-users and undeclarable rules as comments only", () => {
    for (const id of ["system", "everyone", "bad"]) {
      expect(resources.some((r) => r.attributes["rule_id"] === id)).toBe(false);
      expect(source).toContain(`(${id})`);
    }
    expect(source).toContain("# Not declared: the rule monitors all users");
  });

  it("keeps hostile names on one comment line, with bidirectional controls escaped", () => {
    for (const line of source.split("\n")) expect(line).not.toMatch(/[\r\u202e\u2028]/);
    expect(source).toContain('# "Two\\nlines\\r\\nand\\ttab" (rule-2)');
    expect(source).toContain("\\u202eevil override");
  });

  it("writes the provider's required_providers entry and a provider block that reads the environment", () => {
    const terraform = blocksOf(config, "terraform")[0]!;
    expect(blocksOf(terraform, "required_providers")[0]!.attributes["alertrules"]).toEqual({ source: "alert-rule-users/alertrules", version: "0.1.0" });
    expect(blocksOf(config, "provider")).toEqual([{ type: "provider", labels: ["alertrules"], attributes: {}, blocks: [] }]);
  });

  it("escapes every string so it reads back as itself and never runs as a template", () => {
    const hostile = ["${x}", "%{ for a in b }${a}%{ endfor }", "$${x}", "$$${x}", "%%{x}", 'a"b\\c', "\n\t\u0000\u001f\u007f", "日本 🚨 é", "\u202e\u2066"];
    for (const value of hostile) {
      const literal = hclString(value);
      expect(readHcl(`x = ${literal}`).attributes["x"]).toBe(value);
    }
    expect(resourceNameFor("")).toBe("rule");
    expect(resourceNameFor("___")).toBe("rule");
  });
});
