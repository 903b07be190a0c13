/**
 * The provider's documentation in the registry's layout, made from its table of types (the rows of
 * src/provider/provider.ts, each with its schema): what the generator `npm run docs:provider`,
 * tools/provider-docs.ts, writes, and what test/provider/docs.test.ts compares with the pages on
 * disk. A type added to the table has its page with no edit here:
 *
 *   docs/provider/index.md                        the provider block: Example Usage, Schema, the types, guides
 *   docs/provider/resources/<type>.md              Example Usage, Schema (nested schemas), Import when
 *                                                  the type has import examples
 *   docs/provider/data-sources/<type>.md           Example Usage, Schema
 *   docs/provider/guides/<name>.md                 a guide: its template with its examples in place
 *
 * where <type> is the type's name without the provider's (`rule_user_list` for
 * `alertrules_rule_user_list`), and a type's examples stand at examples/provider/resources/<name>/
 * (`resource.tf`, and `import.tf` and `import.sh` when it can be imported) and
 * examples/provider/data-sources/<name>/data-source.tf, as the registry's tfplugindocs lays them out.
 *
 * Pure: the examples (the .tf files under examples/provider/, which test/terraform runs), the
 * guides' templates and the table come in as values; nothing here reads a file. Not part of the
 * provider's run: only the generator and the tests load it.
 */
import type { Attribute, Block, CtyType, ProviderDefinition, Schema } from "./protocol";
import { alertRulesProvider } from "./provider";
import { RULE_USER_LIST } from "./schema";

/** The table of types as the pages read it: the provider block's schema, and each resource type's and data source's, by name, in the table's order. */
export interface ProviderTypes {
  readonly provider: Schema;
  readonly resources: ReadonlyMap<string, Schema>;
  readonly dataSources: ReadonlyMap<string, Schema>;
}

/** What the pages are made of: the table of types, example files by path under examples/provider/, and guide templates by name. */
export interface DocsInput {
  readonly version: string;
  readonly types: ProviderTypes;
  /** e.g. `provider.tf`, `resources/alertrules_rule_user_list/resource.tf` → its text */
  readonly examples: ReadonlyMap<string, string>;
  /** guide name (file name without .md) → its template (markdown; `{{example "PATH"}}`, `{{file "PATH"}}`, `{{version}}`) */
  readonly guides: ReadonlyMap<string, string>;
}

export const PROVIDER_NAME = "alertrules";
export const DOCS_ROOT = "docs/provider";
export const EXAMPLES_ROOT = "examples/provider";
export const GUIDES_ROOT = "templates/provider/guides";
/** The provider block's example (the index page's), under examples/provider/. */
const PROVIDER_EXAMPLE = "provider.tf";

/** The schemas of a provider's table (`alertRulesProvider`'s rows); building the table loads no engine, reading a schema none either. */
export function typesOf(definition: Pick<ProviderDefinition, "schema" | "resources" | "dataSources">): ProviderTypes {
  return {
    provider: definition.schema,
    resources: new Map(Object.entries(definition.resources).map(([name, type]) => [name, type.schema] as const)),
    dataSources: new Map(Object.entries(definition.dataSources).map(([name, type]) => [name, type.schema] as const)),
  };
}

/** The table of this provider's types, as src/provider/provider.ts builds it. */
export function providerTypes(): ProviderTypes {
  return typesOf(alertRulesProvider({ env: {}, cwd: ".", log: () => undefined }));
}

/** A type's name on its page's path: without the provider's name (`rule_user_list`). */
export function pageName(type: string): string {
  return type.startsWith(`${PROVIDER_NAME}_`) ? type.slice(PROVIDER_NAME.length + 1) : type;
}

/** The example files a type's page shows (paths under examples/provider/), as tfplugindocs lays them out. */
export function typeExamples(type: string): { resource: string; importBlock: string; importCommand: string; dataSource: string } {
  return {
    resource: `resources/${type}/resource.tf`,
    importBlock: `resources/${type}/import.tf`,
    importCommand: `resources/${type}/import.sh`,
    dataSource: `data-sources/${type}/data-source.tf`,
  };
}

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

/** The index's list of the table's types, each linked to its page. */
function typeLinks(types: ProviderTypes): string[] {
  return [...[...types.resources.keys()].map((type) => `- [${type}](resources/${pageName(type)}.md)`), ...[...types.dataSources.keys()].map((type) => `- [${type}](data-sources/${pageName(type)}.md) (data source)`)];
}

function indexPage(input: DocsInput): string {
  const guides = [...input.guides.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, template]) => `- [${titleOf(template, name)}](guides/${name}.md)`);
  return [
    frontMatter(`${PROVIDER_NAME} Provider`, "", sentence(input.types.provider.description)),
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
    example(input, PROVIDER_EXAMPLE),
    "",
    schemaSection(input.types.provider).trimEnd(),
    "",
    "## Resources and data sources",
    "",
    ...typeLinks(input.types),
    "",
    "## Guides",
    "",
    ...guides,
    "",
  ].join("\n");
}

/**
 * What a type's page says besides its schema's description, by type: a paragraph after the
 * description, and how its import ID names what it imports. A type without a row has neither.
 */
const PAGE_PROSE: { readonly [type: string]: { readonly about?: string; readonly importId?: string } } = {
  [RULE_USER_LIST]: {
    about:
      "A plan reads the live list: a user or alias added or removed outside Terraform shows as an in-place update (`~`) of `users`. Apply reads the rule again right before its first write and sends what the plan showed, or nothing. System rules and rules that monitor all users are never written (a warning on every plan).",
    importId:
      "The import ID names the rule as the configuration does: `RULE_ID` (the rule's observerRuleId), or `name:` and the rule's exact name for a list declared by `rule_name`; with `additive:` in front for an additive list (`additive:name:Finance file type mismatch watch`). The imported state is the live list in that mode, so a configuration generated with `terraform plan -generate-config-out=FILE` plans no change.",
  },
};

/** The Import section of a resource whose examples show an import (an `import` block, `terraform import`); none otherwise. */
function importSection(input: DocsInput, type: string): string[] {
  const paths = typeExamples(type);
  if (!input.examples.has(paths.importBlock) && !input.examples.has(paths.importCommand)) return [];
  const importId = PAGE_PROSE[type]?.importId;
  return [
    "## Import",
    "",
    ...(importId === undefined ? [] : [importId, ""]),
    ...(input.examples.has(paths.importBlock) ? ["With an `import` block (Terraform 1.5 and later):", "", example(input, paths.importBlock), ""] : []),
    ...(input.examples.has(paths.importCommand) ? ["With `terraform import`:", "", example(input, paths.importCommand, "shell"), ""] : []),
  ];
}

function typePage(input: DocsInput, kind: "Resource" | "Data Source", type: string, schema: Schema): string {
  const about = PAGE_PROSE[type]?.about;
  const paths = typeExamples(type);
  return [
    frontMatter(`${type} ${kind} - ${PROVIDER_NAME}`, "", sentence(schema.description)),
    GENERATED,
    "",
    `# ${type} (${kind})`,
    "",
    sentence(schema.description),
    "",
    ...(about === undefined ? [] : [about, ""]),
    "## Example Usage",
    "",
    example(input, kind === "Resource" ? paths.resource : paths.dataSource),
    "",
    schemaSection(schema).trimEnd(),
    "",
    ...(kind === "Resource" ? importSection(input, type) : []),
  ].join("\n");
}

function guidePage(input: DocsInput, name: string, template: string): string {
  const title = titleOf(template, name);
  return [frontMatter(`${title} - ${PROVIDER_NAME}`, "Guides", title), GENERATED, "", fill(template, input, name).trimEnd(), ""].join("\n");
}

/** Every page, by path from the repository's root: the index, a page per type of the table, a page per guide. Throws a sentence naming what is missing. */
export function providerDocs(input: DocsInput): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(`${DOCS_ROOT}/index.md`, indexPage(input));
  for (const [type, schema] of input.types.resources) pages.set(`${DOCS_ROOT}/resources/${pageName(type)}.md`, typePage(input, "Resource", type, schema));
  for (const [type, schema] of input.types.dataSources) pages.set(`${DOCS_ROOT}/data-sources/${pageName(type)}.md`, typePage(input, "Data Source", type, schema));
  for (const [name, template] of input.guides) pages.set(`${DOCS_ROOT}/guides/${name}.md`, guidePage(input, name, template));
  return pages;
}
