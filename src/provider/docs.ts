/**
 * The provider's documentation in the registry's layout, made from the schemas of
 * src/provider/schema.ts (what the generator `npm run docs:provider`, tools/provider-docs.ts,
 * writes, and what test/provider/docs.test.ts compares with the pages on disk):
 *
 *   docs/provider/index.md                    the provider block: Example Usage, Schema, guides
 *   docs/provider/resources/rule_user_list.md Example Usage, Schema (nested schemas), Import
 *   docs/provider/data-sources/rules.md       Example Usage, Schema
 *   docs/provider/data-sources/rule.md        Example Usage, Schema
 *   docs/provider/guides/<name>.md           a guide: its template with its examples in place
 *
 * Pure: the examples (the .tf files under examples/provider/, which test/terraform runs) and the
 * guides' templates come in as text; nothing here reads a file. Not part of the provider's run:
 * only the generator and the tests load it.
 */
import type { Attribute, Block, CtyType, Schema } from "./protocol";
import { RULE_DATA_SOURCE, RULE_USER_LIST, RULES_DATA_SOURCE, providerSchema, ruleDataSourceSchema, ruleUserListSchema, rulesDataSourceSchema } from "./schema";

/** What the pages are made of besides the schemas: example files by path under examples/provider/, and guide templates by name. */
export interface DocsInput {
  readonly version: string;
  /** e.g. `provider.tf`, `resources/alertrules_rule_user_list/resource.tf` → its text */
  readonly examples: ReadonlyMap<string, string>;
  /** guide name (file name without .md) → its template (markdown; `{{example "PATH"}}`, `{{file "PATH"}}`, `{{version}}`) */
  readonly guides: ReadonlyMap<string, string>;
}

export const PROVIDER_NAME = "alertrules";
export const DOCS_ROOT = "docs/provider";
export const EXAMPLES_ROOT = "examples/provider";
export const GUIDES_ROOT = "templates/provider/guides";

/** The example files a page shows, by page (paths under examples/provider/). */
export const PAGE_EXAMPLES = {
  provider: "provider.tf",
  resource: `resources/${RULE_USER_LIST}/resource.tf`,
  importBlock: `resources/${RULE_USER_LIST}/import.tf`,
  importCommand: `resources/${RULE_USER_LIST}/import.sh`,
  rules: `data-sources/${RULES_DATA_SOURCE}/data-source.tf`,
  rule: `data-sources/${RULE_DATA_SOURCE}/data-source.tf`,
} as const;

// ---------------------------------------------------------------------------------------------------
// the Schema section, as the registry writes it (tfplugindocs)

function typeName(type: CtyType): string {
  if (typeof type === "string") return type === "bool" ? "Bool" : type.charAt(0).toUpperCase() + type.slice(1);
  if (type[0] === "object") return "Object";
  if (type[0] === "tuple") return "Tuple";
  const [kind, inner] = type;
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} of ${typeName(inner)}`;
}

function attributeType(attribute: Attribute): string {
  if (attribute.expects !== undefined) return `Dynamic, ${attribute.expects.nesting === "map" ? "Map" : "List"} of Object`;
  if (attribute.nested !== undefined) {
    const nesting = attribute.nested.nesting;
    return nesting === "single" ? "Attributes" : `Attributes ${nesting.charAt(0).toUpperCase()}${nesting.slice(1)}`;
  }
  return typeName(attribute.type!);
}

const anchor = (kind: "nestedatt" | "nestedblock", path: readonly string[]): string => `${kind}--${path.join("--")}`;

/** One nested schema to write below the lists: its anchor, its path and its members. */
interface Nested {
  readonly id: string;
  readonly path: readonly string[];
  readonly attributes: readonly Attribute[];
  readonly blocks: readonly Block[];
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function attributeLine(attribute: Attribute, path: readonly string[], nested: Nested[]): string {
  const flags = [attributeType(attribute), ...(attribute.sensitive === true ? ["Sensitive"] : [])].join(", ");
  let line = `- \`${attribute.name}\` (${flags}) ${sentence(attribute.description)}`;
  const members = attribute.nested?.attributes ?? attribute.expects?.attributes;
  if (members !== undefined) {
    const inner = [...path, attribute.name];
    const id = anchor("nestedatt", inner);
    nested.push({ id, path: inner, attributes: members, blocks: [] });
    line += ` (see [below for nested schema](#${id}))`;
  }
  return line;
}

function blockLine(block: Block, path: readonly string[], nested: Nested[]): string {
  const inner = [...path, block.name];
  const id = anchor("nestedblock", inner);
  nested.push({ id, path: inner, attributes: block.attributes, blocks: block.blocks ?? [] });
  const kind = block.nesting === "single" ? "Block, Optional" : `Block ${block.nesting === "list" ? "List" : "Set"}${block.maxItems === undefined ? "" : `, Max: ${block.maxItems}`}`;
  return `- \`${block.name}\` (${kind}) ${sentence(block.description)} (see [below for nested schema](#${id}))`;
}

/** The Required / Optional / Read-Only groups of one level, each a list of lines. */
function groups(attributes: readonly Attribute[], blocks: readonly Block[], path: readonly string[], nested: Nested[]): { title: string; lines: string[] }[] {
  const byName = <T extends { name: string }>(list: readonly T[]): T[] => [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const required = byName(attributes.filter((a) => a.required === true)).map((a) => attributeLine(a, path, nested));
  const optional = [
    ...byName(attributes.filter((a) => a.optional === true)).map((a) => ({ name: a.name, line: () => attributeLine(a, path, nested) })),
    ...byName(blocks).map((b) => ({ name: b.name, line: () => blockLine(b, path, nested) })),
  ]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((entry) => entry.line());
  const readOnly = byName(attributes.filter((a) => a.computed === true && a.optional !== true && a.required !== true)).map((a) => attributeLine(a, path, nested));
  return [
    { title: "Required", lines: required },
    { title: "Optional", lines: optional },
    { title: "Read-Only", lines: readOnly },
  ].filter((group) => group.lines.length > 0);
}

/** The Schema section of a schema: top-level groups, then every nested schema in the order it was named. */
export function schemaSection(schema: Pick<Schema, "attributes" | "blocks">): string {
  const nested: Nested[] = [];
  const out: string[] = ["## Schema", ""];
  for (const group of groups(schema.attributes, schema.blocks ?? [], [], nested)) out.push(`### ${group.title}`, "", ...group.lines, "");
  for (let i = 0; i < nested.length; i++) {
    const level = nested[i]!;
    out.push(`<a id="${level.id}"></a>`, `### Nested Schema for \`${level.path.join(".")}\``, "");
    for (const group of groups(level.attributes, level.blocks, level.path, nested)) out.push(`${group.title}:`, "", ...group.lines, "");
  }
  return out.join("\n").trimEnd() + "\n";
}

// ---------------------------------------------------------------------------------------------------
// pages

function frontMatter(title: string, subcategory: string, description: string): string {
  return ["---", `page_title: ${JSON.stringify(title)}`, `subcategory: ${JSON.stringify(subcategory)}`, "description: |-", `  ${description.replace(/\n/g, "\n  ")}`, "---", ""].join("\n");
}

const GENERATED = "<!-- Generated by `npm run docs:provider` from src/provider/schema.ts, examples/provider/ and templates/provider/. Do not edit by hand. -->";

function example(input: DocsInput, path: string, language = "terraform"): string {
  const text = input.examples.get(path);
  if (text === undefined) throw new Error(`The example ${EXAMPLES_ROOT}/${path} is missing: write it (a test runs it with real Terraform), then run npm run docs:provider.`);
  return ["```" + language, text.trimEnd(), "```"].join("\n");
}

/** A guide's template with its `{{example "PATH"}}`, `{{file "PATH"}}` and `{{version}}` filled in. */
function fill(template: string, input: DocsInput, name: string): string {
  return template
    .replace(/\{\{version\}\}/g, input.version)
    .replace(/\{\{(example|file) "([^"]+)"\}\}/g, (_whole, kind: string, path: string) => {
      if (!input.examples.has(path)) throw new Error(`The guide ${GUIDES_ROOT}/${name}.md names ${EXAMPLES_ROOT}/${path}, which is missing.`);
      const language = kind === "file" ? (path.endsWith(".csv") ? "csv" : path.endsWith(".sh") ? "shell" : "text") : "terraform";
      return example(input, path, language);
    });
}

/** A guide's title: the first `# ` heading of its template. */
function titleOf(template: string, name: string): string {
  const heading = /^# (.+)$/m.exec(template);
  if (heading === null) throw new Error(`The guide ${GUIDES_ROOT}/${name}.md has no "# Title" line.`);
  return heading[1]!.trim();
}

function indexPage(input: DocsInput): string {
  const guides = [...input.guides.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, template]) => `- [${titleOf(template, name)}](guides/${name}.md)`);
  return [
    frontMatter(`${PROVIDER_NAME} Provider`, "", sentence(providerSchema.description)),
    GENERATED,
    "",
    `# ${PROVIDER_NAME} Provider`,
    "",
    `Keeps the user lists of security alert rules as declared: one \`${RULE_USER_LIST}\` per rule, read live at every plan. The provider ships in the \`alert-rule-users\` npm package (version ${input.version}), and its release (\`provider package\`) serves as a filesystem or network mirror. On Linux and Windows it is a self-contained executable (no Node.js where Terraform runs); on macOS a launcher that runs it with the \`node\` (20 or later) on PATH. \`npx --no alert-rule-users provider install\` in the directory that holds your \`.tf\` files writes it where \`terraform init\` finds it, with no registry and no network; \`npx --no alert-rule-users provider lock\` writes \`.terraform.lock.hcl\` for every platform: commit it.`,
    "",
    "Every argument is optional and falls back to its environment variable; a value set in the block wins. No secret is written to state, a plan, Terraform's log or a diagnostic.",
    "",
    "## Example Usage",
    "",
    example(input, PAGE_EXAMPLES.provider),
    "",
    schemaSection(providerSchema).trimEnd(),
    "",
    "## Resources and data sources",
    "",
    `- [${RULE_USER_LIST}](resources/rule_user_list.md)`,
    `- [${RULES_DATA_SOURCE}](data-sources/rules.md) (data source)`,
    `- [${RULE_DATA_SOURCE}](data-sources/rule.md) (data source)`,
    "",
    "## Guides",
    "",
    ...guides,
    "",
  ].join("\n");
}

function resourcePage(input: DocsInput): string {
  return [
    frontMatter(`${RULE_USER_LIST} Resource - ${PROVIDER_NAME}`, "", sentence(ruleUserListSchema.description)),
    GENERATED,
    "",
    `# ${RULE_USER_LIST} (Resource)`,
    "",
    sentence(ruleUserListSchema.description),
    "",
    "A plan reads the live list: a user or alias added or removed outside Terraform shows as an in-place update (`~`) of `users`. Apply reads the rule again right before its first write and sends what the plan showed, or nothing. System rules and rules that monitor all users are never written (a warning on every plan).",
    "",
    "## Example Usage",
    "",
    example(input, PAGE_EXAMPLES.resource),
    "",
    schemaSection(ruleUserListSchema).trimEnd(),
    "",
    "## Import",
    "",
    "The import ID names the rule as the configuration does: `RULE_ID` (the rule's observerRuleId), or `name:` and the rule's exact name for a list declared by `rule_name`; with `additive:` in front for an additive list (`additive:name:Finance file type mismatch watch`). The imported state is the live list in that mode, so a configuration generated with `terraform plan -generate-config-out=FILE` plans no change.",
    "",
    "With an `import` block (Terraform 1.5 and later):",
    "",
    example(input, PAGE_EXAMPLES.importBlock),
    "",
    "With `terraform import`:",
    "",
    example(input, PAGE_EXAMPLES.importCommand, "shell"),
    "",
  ].join("\n");
}

function dataSourcePage(input: DocsInput, type: string, schema: Schema, examplePath: string): string {
  return [
    frontMatter(`${type} Data Source - ${PROVIDER_NAME}`, "", sentence(schema.description)),
    GENERATED,
    "",
    `# ${type} (Data Source)`,
    "",
    sentence(schema.description),
    "",
    "## Example Usage",
    "",
    example(input, examplePath),
    "",
    schemaSection(schema).trimEnd(),
    "",
  ].join("\n");
}

function guidePage(input: DocsInput, name: string, template: string): string {
  const title = titleOf(template, name);
  return [frontMatter(`${title} - ${PROVIDER_NAME}`, "Guides", title), GENERATED, "", fill(template, input, name).trimEnd(), ""].join("\n");
}

/** Every page, by path from the repository's root. Throws a sentence naming what is missing. */
export function providerDocs(input: DocsInput): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(`${DOCS_ROOT}/index.md`, indexPage(input));
  pages.set(`${DOCS_ROOT}/resources/rule_user_list.md`, resourcePage(input));
  pages.set(`${DOCS_ROOT}/data-sources/rules.md`, dataSourcePage(input, RULES_DATA_SOURCE, rulesDataSourceSchema, PAGE_EXAMPLES.rules));
  pages.set(`${DOCS_ROOT}/data-sources/rule.md`, dataSourcePage(input, RULE_DATA_SOURCE, ruleDataSourceSchema, PAGE_EXAMPLES.rule));
  for (const [name, template] of input.guides) pages.set(`${DOCS_ROOT}/guides/${name}.md`, guidePage(input, name, template));
  return pages;
}
