/**
 * A Terraform plan's changes to the live lists (src/core/native/terraform-changes.ts), for a person:
 * markdown for a job summary or an issue (what a merge applied, what drifted), text for a log.
 * Every value from the service or the configuration is escaped (src/core/render/common.ts).
 */
import type { NativeChange, UserAliases } from "../native/terraform-changes";
import { mdCode, mdText, plural, printable } from "./common";

const ACTION_WORDS: Record<NativeChange["action"], string> = {
  create: "created",
  update: "updated in place",
  delete: "destroyed",
  replace: "replaced",
};

/** The lines of one change: `+`/`-` a user or an alias, in `style`. */
function lines(change: NativeChange, style: "text" | "markdown"): string[] {
  const who = (u: UserAliases): string => (u.userId === null ? "entry without a user ID" : style === "markdown" ? mdCode(u.userId) : `"${printable(u.userId)}"`);
  const aliases = (u: UserAliases): string => u.aliases.map((a) => (style === "markdown" ? mdCode(a) : printable(a))).join(", ");
  const out: string[] = [];
  const created = change.action === "create" || change.action === "replace";
  for (const u of change.addUsers) out.push(`+ ${created ? "declares" : "user"} ${who(u)} (${aliases(u)})`);
  for (const u of change.addAliases) out.push(`+ aliases of ${who(u)}: ${aliases(u)}`);
  for (const u of change.removeAliases) out.push(`- aliases of ${who(u)}: ${aliases(u)}`);
  for (const u of change.removeUsers) out.push(`- user ${who(u)} (${aliases(u)})`);
  if (change.removes === null) out.push("- removes: known only at apply (the plan could not show it)");
  else for (const u of change.removes) out.push(`- removes from the live list: ${who(u)} (${aliases(u)})`);
  if (change.action === "delete") out.push(change.onDestroy === "clear" ? "- on_destroy = \"clear\": what it manages is removed" : "~ on_destroy = \"keep\": the live list is left as it is");
  return out;
}

function ruleOf(change: NativeChange, style: "text" | "markdown"): string {
  const name = change.ruleName ?? change.ruleId ?? "?";
  return style === "markdown" ? mdText(name) : printable(name);
}

/** The changes as markdown: a heading line, then one bullet per resource with its lines in a list. */
export function renderTerraformChangesMarkdown(changes: readonly NativeChange[], heading: string): string {
  if (changes.length === 0) return `${heading}\n\nNo alertrules_rule_user_list changes.\n`;
  const out = [heading, "", `${plural(changes.length, "rule user list")} ${changes.length === 1 ? "changes" : "change"}:`, ""];
  for (const change of changes) {
    out.push(`- ${mdCode(change.address)} (rule ${ruleOf(change, "markdown")}): ${ACTION_WORDS[change.action]}`);
    for (const line of lines(change, "markdown")) out.push(`  - \`${line.slice(0, 1)}\` ${line.slice(2)}`);
  }
  return `${out.join("\n")}\n`;
}

/** The changes as plain text, a block per resource. */
export function renderTerraformChangesText(changes: readonly NativeChange[]): string {
  if (changes.length === 0) return "No alertrules_rule_user_list changes.\n";
  const out: string[] = [];
  for (const change of changes) {
    out.push(`${printable(change.address)} (rule ${ruleOf(change, "text")}): ${ACTION_WORDS[change.action]}`);
    for (const line of lines(change, "text")) out.push(`    ${line}`);
  }
  return `${out.join("\n")}\n`;
}
