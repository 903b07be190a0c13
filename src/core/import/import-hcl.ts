/**
 * `alert-rule-users import --format hcl`: turns live rule lists into an HCL configuration of the
 * native provider (docs/contract.md §11.1): one `alertrules_rule_user_list` per editable list with
 * an `import` block by its rule ID, so `terraform plan` shows only imports, plus the provider's
 * `required_providers` entry and provider block. Pure: rules and lists in, text out.
 *
 * The same rules as the TypeScript import (import-code.ts) decide what each rule becomes: system and
 * all-users rules are comments; a list with entries without a user ID is additive, those entries in
 * comments; a list that cannot be declared as it is is commented out whole.
 *
 * Resource names are valid HCL identifiers, never a keyword, unique, and stable across runs: the
 * rule name in lower case with `_` (`rule_` in front when it does not start with a letter or is a
 * keyword); rules whose names give the same identifier each get the first hex digits of the
 * SHA-256 of their rule ID after it, so no name depends on the order of the rules.
 */
import { createHash } from "node:crypto";
import { canonicalUsers } from "../engine/canonical";
import { hclComment, hclString, isResourceName } from "./hcl";
import { classify, importResult, listTypeComment, slugOf } from "./import-code";
import type { ImportCode, ImportedRule, Planned } from "./import-code";
import { NATIVE_RESOURCE_TYPE, PROVIDER_LOCAL_NAME, PROVIDER_SOURCE, nativeImportId } from "../native/native-provider";

export interface ImportHclOptions {
  /** The provider version required (this package's). */
  readonly providerVersion: string;
  /** Tool name and version for the header comment. @default - no version */
  readonly toolVersion?: string;
  /**
   * What the directory the file goes to already declares (see {@link providerConfigured}): a
   * block Terraform would then see twice ("Duplicate required providers configuration") is left out.
   * @default - nothing: the file carries the terraform block and the provider block
   */
  readonly configured?: ProviderConfigured;
}

/** Whether a directory's configuration already has the provider's `required_providers` entry and its provider block. */
export interface ProviderConfigured {
  readonly requiredProviders: boolean;
  readonly providerBlock: boolean;
}

/**
 * What the `.tf` files of a directory (their text) already declare of this provider. Comments are
 * dropped first, so a commented-out block does not count; a heuristic of the text, not a parser:
 * an entry `alertrules = {` inside a `required_providers` block, a `provider "alertrules"` block.
 */
export function providerConfigured(files: readonly string[]): ProviderConfigured {
  const code = files.map((text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^"'\w$])(#|\/\/)[^\n]*/g, "$1")).join("\n");
  return {
    requiredProviders: new RegExp(`required_providers\\s*\\{[^]*?\\b${PROVIDER_LOCAL_NAME}\\s*=`).test(code),
    providerBlock: new RegExp(`(^|\\n)\\s*provider\\s+"${PROVIDER_LOCAL_NAME}"\\s*\\{`).test(code),
  };
}

const MAX_NAME = 50;

/** The resource name a rule name gives before deduplication. */
export function resourceNameFor(ruleName: string): string {
  const slug = slugOf(ruleName, "_", MAX_NAME);
  if (slug === "") return "rule";
  return isResourceName(slug) && /^[a-z]/.test(slug) ? slug : `rule_${slug}`;
}

const hashOf = (ruleId: string): string => createHash("sha256").update(ruleId, "utf8").digest("hex");

/**
 * Unique names for `rules`, by rule ID: the plain name where only one rule gives it, else the name
 * with 8 hex digits of its rule ID's hash (more when even those collide). Independent of order.
 */
export function resourceNames(rules: readonly { readonly observerRuleId: string; readonly name: string }[]): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const rule of rules) {
    const base = resourceNameFor(rule.name);
    byBase.set(base, [...(byBase.get(base) ?? []), rule.observerRuleId]);
  }
  const names = new Map<string, string>();
  const plain = new Set([...byBase].filter(([, ids]) => ids.length === 1).map(([base]) => base));
  for (const [base, ids] of byBase) {
    if (ids.length === 1) {
      names.set(ids[0]!, base);
      continue;
    }
    for (let digits = 8; digits <= 64; digits += 4) {
      const candidate = ids.map((id) => `${base}_${hashOf(id).slice(0, digits)}`);
      if (new Set(candidate).size === ids.length && !candidate.some((c) => plain.has(c))) {
        ids.forEach((id, i) => names.set(id, candidate[i]!));
        break;
      }
    }
  }
  return names;
}

function ruleHeader(p: Planned): string {
  const { rule, list } = p.item;
  const parts = [`${JSON.stringify(rule.name)} (${rule.observerRuleId})`];
  if (list !== null && list.usersToAlertOn !== "ALL_USERS") parts.push(listTypeComment(list.usersToAlertOn));
  if (rule.isEnabled === false) parts.push("disabled");
  return `# ${hclComment(parts.join(", "))}`;
}

function resourceBlock(p: Planned, name: string): string[] {
  const { rule, list } = p.item;
  const entries = list?.entries ?? [];
  const lines = [ruleHeader(p)];
  if (p.disposition === "declared-additive") {
    lines.push(`# WARNING: ${hclComment(p.reason ?? "")}.`);
    lines.push("# Entries without a user ID (not declared; they stay in the list):");
    for (const e of entries.filter((x) => x.userId === null)) {
      lines.push(`#   - ${hclComment(e.aliases.length === 0 ? "(no aliases)" : e.aliases.map((a) => JSON.stringify(a)).join(", "))}`);
    }
  }
  const users = canonicalUsers(entries.flatMap((e) => (e.userId === null ? [] : [{ userId: e.userId, aliases: e.aliases }])));
  lines.push(
    "import {",
    `  to = ${NATIVE_RESOURCE_TYPE}.${name}`,
    `  id = ${hclString(nativeImportId({ ruleId: rule.observerRuleId, ruleName: null, mode: p.disposition === "declared-additive" ? "additive" : "authoritative" }))}`,
    "}",
    "",
    `resource "${NATIVE_RESOURCE_TYPE}" "${name}" {`,
    `  rule_id = ${hclString(rule.observerRuleId)}`,
  );
  if (p.disposition === "declared-additive") lines.push(`  mode    = "additive"`);
  if (users.length === 0) lines.push("  users   = {}");
  else {
    lines.push("  users = {");
    for (const u of users) lines.push(`    ${hclString(u.userId)} = { aliases = [${u.aliases.map(hclString).join(", ")}] }`);
    lines.push("  }");
  }
  lines.push("}");
  return lines;
}

function commentedOut(p: Planned): string[] {
  const { list } = p.item;
  const lines = [ruleHeader(p), `# Not declared: ${hclComment(p.reason ?? "")}.`];
  if (p.disposition === "invalid" && list !== null) {
    lines.push("# Live entries:");
    for (const e of list.entries) {
      lines.push(`#   - ${hclComment(`${e.userId === null ? "no user ID" : JSON.stringify(e.userId)}: ${e.aliases.map((a) => JSON.stringify(a)).join(", ") || "(no aliases)"}`)}`);
    }
  }
  return lines;
}

/** The `terraform` block with the provider's `required_providers` entry, and its provider block. */
export function providerBlocks(providerVersion: string): string[] {
  return [
    "terraform {",
    "  required_providers {",
    `    ${PROVIDER_LOCAL_NAME} = {`,
    `      source  = ${hclString(PROVIDER_SOURCE)}`,
    `      version = ${hclString(providerVersion)}`,
    "    }",
    "  }",
    "}",
    "",
    "# The connection comes from the environment: ALERTS_API_URL, ALERTS_TENANT_ID, and ALERTS_API_TOKEN",
    "# or ALERTS_API_TOKEN_COMMAND (a token is never written into a configuration or the state).",
    `provider "${PROVIDER_LOCAL_NAME}" {}`,
  ];
}

/** The provider's blocks the file carries: those the directory does not declare already. */
function providerPart(options: ImportHclOptions): string[] {
  const configured = options.configured ?? { requiredProviders: false, providerBlock: false };
  if (!configured.requiredProviders && !configured.providerBlock) return providerBlocks(options.providerVersion);
  const blocks = providerBlocks(options.providerVersion);
  const terraformBlock = blocks.slice(0, blocks.indexOf(""));
  const providerBlock = blocks.slice(blocks.indexOf("") + 1);
  return [
    `# The directory's other .tf files already declare ${[configured.requiredProviders ? "the provider's required_providers entry" : "", configured.providerBlock ? `the provider "${PROVIDER_LOCAL_NAME}" block` : ""].filter((s) => s !== "").join(" and ")}:`,
    "# this file leaves that out (Terraform refuses a second one).",
    ...(configured.requiredProviders ? [] : ["", ...terraformBlock]),
    ...(configured.providerBlock ? [] : ["", ...providerBlock]),
  ];
}

/** The HCL configuration for `rules` (in the order given; callers sort by name for stable output). */
export function generateImportHcl(rules: readonly ImportedRule[], options: ImportHclOptions): ImportCode {
  const planned = rules.map(classify);
  const declared = new Set(planned.filter((p) => p.disposition === "declared" || p.disposition === "declared-additive"));
  const names = resourceNames([...declared].map((p) => p.item.rule));
  const body: string[] = [];
  for (const p of planned) {
    const name = names.get(p.item.rule.observerRuleId);
    body.push("", ...(name === undefined || !declared.has(p) ? commentedOut(p) : resourceBlock(p, name)));
  }
  const source = [
    `# Generated by \`alert-rule-users import --format hcl\`${options.toolVersion === undefined ? "" : ` ${hclComment(options.toolVersion)}`}: the rule user lists as they are`,
    "# on the service, each with an import block, so `terraform plan` shows imports and no change.",
    "# Edit freely from here on: this file is yours. The provider: `npx --no alert-rule-users provider install`",
    "# in this directory, then `terraform init`.",
    "",
    ...providerPart(options),
    ...body,
    "",
  ].join("\n");
  return importResult(source, planned, (p) => (declared.has(p) ? (names.get(p.item.rule.observerRuleId) ?? null) : null), hclComment);
}
