/**
 * Helpers shared by the renderers: colour, safe printing of service-supplied strings, and the
 * wording of lists, calls and per-user change rows. Pure: no I/O, no console.
 */
import * as util from "node:util";
import type { UsersToAlertOn } from "../../api/rules/schemas";
import { plural } from "../../shared/text";
import { compareStrings } from "../engine/canonical";
import { escapeInvisible, escapeInvisibleDeep } from "../../shared/invisible";
import { noMentions } from "./mentions";
import type { ListMode } from "../engine/desired";
import { describeRule } from "../engine/desired";
import type { Plan, RulePlan } from "../engine/plan-schema";
import { CHANGE_KIND_LIST, CHANGE_KINDS } from "../engine/change-kinds";
import type { ChangeEntry, ChangeKind } from "../engine/change-kinds";

export type Style = "bold" | "dim" | "red" | "green" | "yellow";

/** Styles a piece of text; the identity when colour is off. */
export type Paint = (style: Style | readonly Style[], text: string) => string;

const SGR: Readonly<Record<Style, readonly [number, number]>> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
};

/**
 * ANSI colours through `util.styleText` (Node 20.12+), with plain SGR codes where it is absent.
 * The renderer is told whether to colour (the CLI decides from the TTY), so styleText's own
 * stream check is turned off: it would otherwise look at process.stdout.
 */
export function painter(color: boolean): Paint {
  if (!color) return (_style, text) => text;
  const styleText: unknown = (util as { styleText?: unknown }).styleText;
  return (style, text) => {
    if (text === "") return text;
    const styles: readonly Style[] = typeof style === "string" ? [style] : style;
    if (typeof styleText === "function") {
      return (styleText as typeof util.styleText)([...styles], text, { validateStream: false });
    }
    return styles.reduceRight((t, s) => `\u001b[${SGR[s][0]}m${t}\u001b[${SGR[s][1]}m`, text);
  };
}

/**
 * A service- or user-supplied string made safe to print on one line: control characters (terminal
 * escapes, newlines), zero-width characters and bidirectional controls ("trojan source") become
 * \uXXXX, so a reviewer sees them (src/shared/invisible.ts).
 */
export function printable(s: string): string {
  return escapeInvisible(s);
}

/**
 * A message whose line feeds are its structure (a Terraform diagnostic's paragraphs, a CLI error),
 * made safe to print: every other control, separator and bidi or zero-width character escaped.
 * What came from the service inside it is made {@link printable} where it is put in (one line).
 */
export function printableLines(s: string): string {
  return escapeInvisible(s, { lineBreaks: true });
}

/** Every string of a plain value (object keys too) made {@link printable}: attributes Terraform shows as they are. */
export function printableValues<T>(value: T): T {
  return escapeInvisibleDeep(value);
}

/** `"name"`: printable, with quotes inside escaped. */
export function quoted(s: string): string {
  return `"${printable(s).replace(/"/g, '\\"')}"`;
}

/**
 * The same for markup: line breaks and tabs become spaces, other invisible characters are shown
 * escaped (`\u200b`), never dropped: a markdown reviewer must see what will be sent.
 */
export function oneLine(s: string): string {
  return escapeInvisible(s.replace(/[\r\n\t]+/g, " "));
}

export { plural };

export function listKind(listType: UsersToAlertOn | null): string {
  switch (listType) {
    case "SPECIFIED_USERS":
      return "inclusion list";
    case "ALL_USERS_NOT_SPECIFIED":
      return "exclusion list";
    case "ALL_USERS":
      return "all users";
    case null:
      return "list not read";
  }
}

export function modeLabel(mode: ListMode): string {
  return mode === "additive" ? "additive (only adds)" : "authoritative";
}

/** The count and wording of calls: one table for every renderer and apply (src/core/engine/operations.ts). */
export { callSize, describeCall } from "../engine/operations";

export type { ChangeKind } from "../engine/change-kinds";

/** One user's change, as a renderer shows it. `userId` is null for entries without a user ID. */
export interface ChangeRow extends ChangeEntry {
  readonly kind: ChangeKind;
}

/**
 * The rule's changes, one row per user and kind (src/core/engine/change-kinds.ts), ordered by user ID,
 * then by the kind's rank; entries without an ID last.
 */
export function changeRows(rule: RulePlan): ChangeRow[] {
  const c = rule.changes;
  const rows: ChangeRow[] = [];
  const withoutId: ChangeRow[] = [];
  for (const kind of CHANGE_KIND_LIST) {
    const spec = CHANGE_KINDS[kind];
    for (const item of spec.items(c)) (spec.unit === "entry" ? withoutId : rows).push({ kind, ...spec.entry(item) });
  }
  rows.sort((a, b) => compareStrings(a.userId ?? "", b.userId ?? "") || CHANGE_KINDS[a.kind].rank - CHANGE_KINDS[b.kind].rank);
  return [...rows, ...withoutId];
}

/** True when the rule takes anything away: users, aliases, entries, or the whole list. */
export function removesSomething(rule: RulePlan): boolean {
  const c = rule.changes;
  return c.removeAll || CHANGE_KIND_LIST.some((kind) => CHANGE_KINDS[kind].direction === "remove" && CHANGE_KINDS[kind].items(c).length > 0);
}

/** The summary sentence, identical in text and markdown (fixed wording, so scripts can read it). */
export function summarySentence(s: {
  readonly toUpdate: number;
  readonly usersToAdd: number;
  readonly usersToRemove: number;
  readonly aliasesToAdd: number;
  readonly aliasesToRemove: number;
}): string {
  return (
    `Plan: ${plural(s.toUpdate, "rule")} to update, ${plural(s.usersToAdd, "user")} to add, ${plural(s.usersToRemove, "user")} to remove, ` +
    `${plural(s.aliasesToAdd, "alias", "aliases")} to add, ${plural(s.aliasesToRemove, "alias", "aliases")} to remove.`
  );
}

/** Markdown inline text: markup characters escaped, HTML neutralized, one line. */
export function mdText(s: string): string {
  return noMentions(oneLine(s))
    .replace(/[\\`*_[\]#|~$]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** HTML text (inside `<summary>`, where markdown is not parsed). */
export function htmlText(s: string): string {
  return noMentions(oneLine(s)).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A code span that survives backticks in its content; in a table, `|` is escaped as GFM requires. */
export function mdCode(s: string, inTable = false): string {
  let text = oneLine(s);
  if (inTable) text = text.replace(/\|/g, "\\|");
  if (text === "") return "` `";
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((t) => t.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ")) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Rules in policy error first, then the others, each group in plan order (the PR comment lists violations first). */
export function policyErrorsFirst(rules: readonly RulePlan[]): RulePlan[] {
  return [...rules.filter((r) => r.errorKind === "policy"), ...rules.filter((r) => r.errorKind !== "policy")];
}

/** Declared users of an additive list that are not added because they expired (authoritative lists remove them instead). */
export function expiredNotAdded(rule: RulePlan): readonly { readonly userId: string; readonly expiresAt: string }[] {
  if (rule.mode !== "additive") return [];
  return rule.expired ?? [];
}

/** The line of a plan without changes: a `--changed-since` plan speaks only for the rules it read. */
export function noChangesSentence(plan: Plan): string {
  return plan.changedSince === undefined
    ? "No changes. The lists match the declaration."
    : `No changes in the rules whose declaration changed since ${plan.changedSince.ref}.`;
}

/**
 * What a `--changed-since` plan says besides its rules (docs/contract.md §10.1): how many declared rules
 * it left unread and why, and the rules no longer managed. Null for a full plan. Plain words; each
 * renderer escapes them for its medium (service strings are not among them: only declared names).
 */
export function changedSinceNotes(plan: Plan): { readonly read: string; readonly unread: string; readonly noLongerManaged: readonly string[] } | null {
  const scope = plan.changedSince;
  if (scope === undefined) return null;
  const since = `${scope.ref} (${scope.commit.slice(0, 12)})`;
  const installed = scope.refDependencies?.how === "installed" ? ` ${scope.ref} was synthesized with its own dependencies (${scope.refDependencies.reason}).` : "";
  return {
    read:
      scope.fallback !== undefined
        ? `Every declared rule was read (${plural(plan.rules.length, "rule")}): the declarations could not be compared safely with ${since}, because ${scope.fallback.reason}.`
        : `Only the declarations changed since ${since} were read: ${plural(plan.rules.length, "rule")}.${installed}`,
    unread: `${plural(scope.unread.count, "declared rule")} not read: ${scope.unread.reason}.`,
    noLongerManaged: scope.noLongerManaged.map((r) => `${describeRule(r)} (${r.constructPath} at ${scope.ref}): no longer managed; its list is left as it is, not read, not written`),
  };
}
