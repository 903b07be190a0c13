/**
 * The provider's pages (docs/provider/, the registry's layout) are generated from its table of
 * types and their schemas: a page that says something else than the schema, or a page nobody
 * generates, fails here; a type added to the table gets its page. Fix: `npm run docs:provider`,
 * and commit the pages.
 */
import { differences, pagesOnDisk, readDocsInput } from "../../tools/provider-docs";
import { pageName, providerDocs, providerTypes, schemaSection, typeExamples } from "../../src/provider/docs";
import type { Schema } from "../../src/provider/protocol";
import { RULE_DATA_SOURCE, RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleDataSourceSchema, ruleUserListSchema, rulesDataSourceSchema } from "../../src/provider/schema";

describe("the provider's pages", () => {
  it("are what npm run docs:provider writes from the schemas, the examples and the guides' templates", () => {
    // given what the pages are made of, as it is in the repository
    const expected = providerDocs(readDocsInput());
    // then every page on disk is the page generated now, and there is no other
    expect(differences(expected, pagesOnDisk())).toEqual([]);
  });

  it("have the registry's sections: Example Usage and Schema on every page, Import on the resource's", () => {
    const pages = providerDocs(readDocsInput());
    for (const path of ["docs/provider/index.md", "docs/provider/resources/rule_user_list.md", "docs/provider/data-sources/rules.md", "docs/provider/data-sources/rule.md"]) {
      expect(pages.get(path)).toMatch(/^## Example Usage\n\n```terraform\n/m);
      expect(pages.get(path)).toMatch(/^## Schema$/m);
    }
    expect(pages.get("docs/provider/resources/rule_user_list.md")).toMatch(/^## Import$/m);
    for (const guide of ["upgrading", "for-each", "additive", "on-destroy", "policies", "troubleshooting"]) expect(pages.has(`docs/provider/guides/${guide}.md`)).toBe(true);
  });

  it("are one per type of the provider's table, each type's schema the one it serves", () => {
    const types = providerTypes();
    expect([...types.resources.keys()]).toEqual([RULE_USER_LIST]);
    expect([...types.dataSources.keys()]).toEqual([RULES_DATA_SOURCE, RULE_DATA_SOURCE]);
    expect(types.resources.get(RULE_USER_LIST)).toBe(ruleUserListSchema);
    const pages = [...providerDocs(readDocsInput()).keys()].filter((path) => !path.includes("/guides/"));
    expect(pages).toEqual(["docs/provider/index.md", "docs/provider/resources/rule_user_list.md", "docs/provider/data-sources/rules.md", "docs/provider/data-sources/rule.md"]);
  });

  it("give a type added to the table its page, its examples and its line in the index, with no other edit", () => {
    // given the table with one more resource type, and its example where the registry's layout puts it
    const input = readDocsInput();
    const type = "alertrules_rule_state";
    const schema: Schema = { version: 0, description: "A rule's enablement", attributes: [{ name: "rule_id", type: "string", required: true, description: "The rule." }] };
    const examples = new Map([...input.examples, [typeExamples(type).resource, `resource "${type}" "x" {\n  rule_id = "r"\n}\n`]]);
    // when the pages are made
    const pages = providerDocs({ ...input, examples, types: { ...input.types, resources: new Map([...input.types.resources, [type, schema]]) } });
    // then its page stands beside the others, with its example and schema, and the index links it
    const page = pages.get(`docs/provider/resources/${pageName(type)}.md`);
    expect(page).toContain(`# ${type} (Resource)`);
    expect(page).toContain(`resource "${type}" "x"`);
    expect(page).toContain("- `rule_id` (String) The rule.");
    expect(page).not.toContain("## Import");
    expect(pages.get("docs/provider/index.md")).toContain(`- [${type}](resources/rule_state.md)`);
    // and a type whose example is missing is named, with what to write
    expect(() => providerDocs({ ...input, types: { ...input.types, resources: new Map([[type, schema]]) } })).toThrow(`examples/provider/${typeExamples(type).resource} is missing`);
  });

  it.each([
    ["the provider block", providerSchema],
    ["alertrules_rule_user_list", ruleUserListSchema],
    ["alertrules_rules", rulesDataSourceSchema],
    ["alertrules_rule", ruleDataSourceSchema],
  ] as [string, Schema][])("name every attribute and block of %s, under Required, Optional or Read-Only", (_name, schema) => {
    const section = schemaSection(schema);
    for (const attribute of schema.attributes) {
      const group = attribute.required === true ? "Required" : attribute.optional === true ? "Optional" : "Read-Only";
      const start = section.indexOf(`### ${group}`);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = section.indexOf("\n### ", start + 1);
      expect(section.slice(start, end === -1 ? undefined : end)).toContain(`- \`${attribute.name}\` (`);
    }
    for (const block of schema.blocks ?? []) expect(section).toContain(`### Nested Schema for \`${block.name}\``);
  });

  it("follow a schema change: a new attribute appears in the page made from the changed schema", () => {
    // given the resource's schema with one more read-only attribute
    const changed: Schema = { ...ruleUserListSchema, attributes: [...ruleUserListSchema.attributes, { name: "added_later", type: ["set", "string"], computed: true, description: "An attribute added later." }] };
    // then its Schema section names it, and the page on disk (made from the schema as it is) does not match it
    expect(schemaSection(changed)).toContain("- `added_later` (Set of String) An attribute added later.");
    expect(schemaSection(changed)).not.toBe(schemaSection(ruleUserListSchema));
  });
});
