/**
 * `alert-rule-users import`: turns live rule lists into TypeScript `RuleUserList` declarations
 * that, synthesized and planned, show no changes. Pure: rules and lists in, source text out; no
 * clock, no network.
 *
 * What each rule becomes:
 * - system rules and rules that monitor all users: a comment saying why they cannot be managed;
 * - lists whose entries all have user IDs: an authoritative RuleUserList (the default mode);
 * - lists with entries without a user ID: an `additive` RuleUserList of the entries with IDs,
 *   the other entries listed in comments with a warning. Authoritative would plan a rebuild
 *   (remove-all-users, then add-users), and those entries cannot be re-added without an ID;
 *   additive plans no change and never removes anything, so importing is safe;
 * - lists the construct would refuse (a user without aliases, an alias twice...): commented out
 *   whole, with the validation failures, so the generated file always synthesizes.
 */
import type { UsersToAlertOn } from "../../api/rules/schemas";
import { shellQuote } from "../../shared/text";
import { canonicalUsers } from "../engine/canonical";
import { validateDeclaration } from "../declaration";
import { isSystemRule } from "../engine/rule-facts";
import type { ObservedEntry } from "../engine/plan-schema";
import type { ObservedList, RuleFacts } from "../engine/observation";

/** One live rule: its metadata and, unless it was not read (system rules), its list. */
export interface ImportedRule {
  readonly rule: RuleFacts & { readonly isEnabled?: boolean };
  readonly list: ObservedList | null;
}

export interface ImportCodeOptions {
  /** Name of the generated function. @default "declareRuleUserLists" */
  readonly functionName?: string;
  /** Module the construct is imported from. @default "alert-rule-users" */
  readonly moduleName?: string;
  /** Tool name and version for the header comment. @default - no version line */
  readonly toolVersion?: string;
  /**
   * The file the module is written to (as the user named it), for the header's command that runs
   * it as an app by itself.
   * @default "rule-user-lists.ts"
   */
  readonly fileName?: string;
}

/** The stack a generated module declares its lists in when it runs as an app by itself. */
export const IMPORT_STACK_NAME = "alert-rules";

/** The command that runs a generated module as a cdktf app by itself (cdktf.json's `app`, or `plan --app`). */
export function importAppCommand(fileName: string): string {
  return `npx ts-node --transpile-only ${shellQuote(fileName)}`;
}

export type ImportDisposition = "declared" | "declared-additive" | "not-manageable" | "invalid";

export interface ImportedRuleReport {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly constructId: string | null;
  readonly disposition: ImportDisposition;
  /** Why a rule is additive, commented out or not manageable; null for a plain declaration. */
  readonly reason: string | null;
}

export interface ImportCode {
  readonly source: string;
  readonly rules: readonly ImportedRuleReport[];
  /** One line per rule that needs attention (for stderr). */
  readonly warnings: readonly string[];
}

const DEFAULT_FUNCTION = "declareRuleUserLists";

/**
 * A TypeScript string literal for any string: JSON escaping (quotes, backslashes, control
 * characters) plus U+2028/U+2029. Double-quoted, so `${` is plain text.
 */
export function tsString(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/* Line terminators end a `//` comment; bidirectional overrides and other controls hide code. */
const COMMENT_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

/** Text safe inside a `//` comment: one line, no controls, no bidirectional overrides. */
export function commentText(value: string): string {
  return value.replace(COMMENT_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A name as plain ASCII words joined by `separator`: accents dropped, lower case, every other run
 * of characters one separator, none at either end, at most `max` characters. One rule for the
 * construct IDs of `import --all` and the resource names of `import --format hcl`.
 */
export function slugOf(name: string, separator: "-" | "_", max: number): string {
  const runs = separator === "-" ? /-+/g : /_+/g;
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^${runs.source}|${runs.source}$`, "g"), "")
    .slice(0, max)
    .replace(new RegExp(`${runs.source}$`), "");
}

/**
 * A construct ID from a rule name: lower case letters, digits and dashes, starting with a letter
 * (Terraform resource names must), at most 60 characters; `rule` when nothing is left.
 */
export function constructIdFor(name: string): string {
  const slug = slugOf(name, "-", 60);
  if (slug === "") return "rule";
  return /^[a-z]/.test(slug) ? slug : `rule-${slug}`;
}

/** Construct IDs a RuleUserList puts beside itself in a stack (the `null` provider it may add). */
const RESERVED_IDS = ["alert-rule-users-null"];

/** Unique IDs in order: a second `x` becomes `x-2`, a third `x-3`, and so on. */
export function uniqueIds(bases: readonly string[]): string[] {
  const taken = new Set<string>(RESERVED_IDS);
  return bases.map((base) => {
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
    taken.add(id);
    return id;
  });
}

/** The list type in words, for comments. */
export function listTypeComment(type: UsersToAlertOn): string {
  switch (type) {
    case "SPECIFIED_USERS":
      return "inclusion list: alerts only on these users";
    case "ALL_USERS_NOT_SPECIFIED":
      return "exclusion list: alerts on everyone except these users";
    case "ALL_USERS":
      return "all users";
  }
}

function entryComment(entry: ObservedEntry): string {
  const aliases = entry.aliases.length === 0 ? "(no aliases)" : entry.aliases.map(tsString).join(", ");
  return `//   - no user ID: ${commentText(aliases)}`;
}

/** What import makes of one live rule, whatever the output format. */
export interface Planned {
  readonly item: ImportedRule;
  readonly disposition: ImportDisposition;
  readonly reason: string | null;
}

/** What a live rule becomes (declared, declared additive, not manageable, invalid), and why. */
export function classify(item: ImportedRule): Planned {
  const { rule, list } = item;
  if (isSystemRule(rule)) {
    return {
      item,
      disposition: "not-manageable",
      reason: `system rule (${rule.ruleSource}): its list is kept by the ${rule.ruleSource} list, not through this interface`,
    };
  }
  if (list === null) return { item, disposition: "not-manageable", reason: "its list could not be read" };
  if (list.usersToAlertOn === "ALL_USERS") {
    return { item, disposition: "not-manageable", reason: "the rule monitors all users: it has no user list to edit" };
  }
  const withId = list.entries.filter((e) => e.userId !== null);
  const failures = validateDeclaration({ ruleId: rule.observerRuleId, users: withId.map((e) => ({ userId: e.userId, aliases: [...e.aliases] })) });
  if (failures.length > 0) {
    return { item, disposition: "invalid", reason: `the live list cannot be declared as it is: ${failures.join("; ")}` };
  }
  const without = list.entries.length - withId.length;
  if (without > 0) {
    return {
      item,
      disposition: "declared-additive",
      reason:
        `${without === 1 ? "1 entry has" : `${without} entries have`} no user ID: declared additive (only adds, removes nothing). ` +
        "Find the IDs, add them to the declaration, then switch to authoritative: the next plan rebuilds the list once",
    };
  }
  return { item, disposition: "declared", reason: null };
}

function usersCode(entries: readonly ObservedEntry[], indent: string): string[] {
  const users = canonicalUsers(entries.flatMap((e) => (e.userId === null ? [] : [{ userId: e.userId, aliases: e.aliases }])));
  if (users.length === 0) return [`${indent}users: [],`];
  return [
    `${indent}users: [`,
    ...users.map((u) => `${indent}  { userId: ${tsString(u.userId)}, aliases: [${u.aliases.map(tsString).join(", ")}] },`),
    `${indent}],`,
  ];
}

function ruleHeader(rule: ImportedRule["rule"], list: ObservedList | null): string {
  const parts = [`${tsString(rule.name)} (${rule.observerRuleId})`];
  if (list !== null && list.usersToAlertOn !== "ALL_USERS") parts.push(listTypeComment(list.usersToAlertOn));
  if (rule.isEnabled === false) parts.push("disabled");
  return `// ${commentText(parts.join(", "))}`;
}

function declaration(p: Planned, id: string): string[] {
  const { rule, list } = p.item;
  const entries = list?.entries ?? [];
  const lines: string[] = [ruleHeader(rule, list)];
  if (p.disposition === "declared-additive") {
    lines.push(`// WARNING: ${commentText(p.reason ?? "")}.`);
    lines.push("// Entries without a user ID (not declared; they stay in the list):");
    append(lines, entries.filter((e) => e.userId === null).map(entryComment));
  }
  lines.push(`lists.push(`, `  new RuleUserList(scope, ${tsString(id)}, {`, `    ruleId: ${tsString(rule.observerRuleId)},`);
  if (p.disposition === "declared-additive") lines.push(`    mode: "additive",`);
  append(lines, usersCode(entries, "    "));
  lines.push("  }),", ");");
  return lines;
}

/**
 * Appends `items` to `target` one by one: `push(...items)` passes every item as an argument, and a
 * list of ~100,000 entries overflows the stack.
 */
function append(target: string[], items: readonly string[]): void {
  for (const item of items) target.push(item);
}

function commentedOut(p: Planned): string[] {
  const { rule, list } = p.item;
  const lines = [ruleHeader(rule, list), `// Not declared: ${commentText(p.reason ?? "")}.`];
  if (p.disposition === "invalid" && list !== null) {
    lines.push("// Live entries:");
    for (const e of list.entries) {
      lines.push(`//   - ${commentText(`${e.userId === null ? "no user ID" : tsString(e.userId)}: ${e.aliases.map(tsString).join(", ") || "(no aliases)"}`)}`);
    }
  }
  return lines;
}

/** The TypeScript module for `rules` (in the order given; callers sort by name for stable output). */
export function generateImportCode(rules: readonly ImportedRule[], options: ImportCodeOptions = {}): ImportCode {
  const functionName = options.functionName ?? DEFAULT_FUNCTION;
  const moduleName = options.moduleName ?? "alert-rule-users";
  const planned = rules.map(classify);
  const declared = planned.filter((p) => p.disposition === "declared" || p.disposition === "declared-additive");
  const ids = uniqueIds(declared.map((p) => constructIdFor(p.item.rule.name)));
  const idOf = new Map(declared.map((p, i) => [p, ids[i] ?? "rule"]));

  const body: string[] = [];
  for (const p of planned) {
    const id = idOf.get(p);
    if (body.length > 0) body.push("");
    append(body, id === undefined ? commentedOut(p) : declaration(p, id));
  }

  const inComment = (text: string): string => commentText(text).replace(/\*\//g, "*\\/");
  const runner = importAppCommand(options.fileName ?? "rule-user-lists.ts");
  const appCommand = inComment(JSON.stringify(runner));
  const header = [
    "/**",
    ` * Generated by \`alert-rule-users import\`${options.toolVersion === undefined ? "" : ` ${commentText(options.toolVersion)}`}: the rule user lists as they are`,
    " * on the service; `alert-rule-users plan` shows no changes for them. Edit freely from here on:",
    " * this file is yours. Use it either way:",
    ` * - as an app by itself: \`"app": ${appCommand}\` in cdktf.json, or`,
    ` *   \`alert-rule-users plan --app ${inComment(shellQuote(runner))}\` (one stack, "${IMPORT_STACK_NAME}");`,
    ` * - from your own app: call \`${functionName}(stack)\` in a stack of it.`,
    " */",
  ];
  const source = [
    ...header,
    `import { App, TerraformStack } from "cdktf";`,
    `import type { Construct } from "constructs";`,
    `import { RuleUserList } from ${tsString(moduleName)};`,
    "",
    `/** Declares ${declared.length === 1 ? "1 rule user list" : `${declared.length} rule user lists`} in \`scope\` (a TerraformStack) and returns them. */`,
    `export function ${functionName}(scope: Construct): RuleUserList[] {`,
    "  const lists: RuleUserList[] = [];",
    ...(body.length > 0 ? ["", ...body.map((l) => (l === "" ? "" : `  ${l}`)), ""] : []),
    "  return lists;",
    "}",
    "",
    "// Run as the program (not imported by another app): synthesize one stack with every list.",
    "declare const require: { main?: unknown } | undefined;",
    "declare const module: object | undefined;",
    `if (typeof require !== "undefined" && require.main === module) {`,
    "  const app = new App();",
    `  ${functionName}(new TerraformStack(app, ${tsString(IMPORT_STACK_NAME)}));`,
    "  app.synth();",
    "}",
    "",
  ].join("\n");

  return importResult(source, planned, (p) => idOf.get(p) ?? null, commentText);
}

/**
 * What an import (TypeScript or HCL) answers beside its source: each rule's report, named by
 * `nameOf` (the construct ID or resource name; null where not declared), and a warning, written
 * as a comment of the source's language by `comment`, for each rule declared additive or left out.
 */
export function importResult(source: string, planned: readonly Planned[], nameOf: (p: Planned) => string | null, comment: (text: string) => string): ImportCode {
  const reports = planned.map(
    (p): ImportedRuleReport => ({
      ruleId: p.item.rule.observerRuleId,
      ruleName: p.item.rule.name,
      constructId: nameOf(p),
      disposition: p.disposition,
      reason: p.reason,
    }),
  );
  const warnings = reports.flatMap((r) =>
    r.reason === null ? [] : [comment(`${r.disposition === "declared-additive" ? "Warning" : "Not declared"}: rule "${r.ruleName}" (${r.ruleId}): ${r.reason}.`)],
  );
  return { source, rules: reports, warnings };
}
