/**
 * The plan as a pull-request comment (docs/contract.md §6): a hidden marker so a CI job can find and
 * update its own comment, a summary table, a warning block, one collapsible `diff` section per
 * changed rule, skipped rules and errors. Never shows the tenant ID or the base URL (the comment
 * may be public). Stays under `maxLength` characters by shortening, then dropping, per-rule
 * sections; the summary, warnings and errors are kept. Pure: returns a string.
 */
import type { Plan, RulePlan } from "../engine/plan-schema";
import { EXPIRING_SOON_DAYS } from "../engine/expiry";
import { blockingErrors } from "../engine/guards";
import type { ChangeRow } from "./common";
import {
  callSize,
  changeRows,
  changedSinceNotes,
  noChangesSentence,
  describeCall,
  expiredNotAdded,
  htmlText,
  listKind,
  mdCode,
  mdText,
  modeLabel,
  oneLine,
  plural,
  removesSomething,
  summarySentence,
} from "./common";
import { COUNTING_LEGEND, tallyPlan, tallyRemoved, tallyRule, tallyShort } from "./counts";

/** The hidden marker at the top of every plan comment. */
export const PLAN_COMMENT_MARKER = "<!-- alert-rule-users-plan -->";

/** GitHub refuses comments over 65,536 characters; the default leaves room for a CI job's own lines. */
export const DEFAULT_MARKDOWN_MAX_LENGTH = 65000;

export interface MarkdownRenderOptions {
  /** Most characters (UTF-16 code units) in the result. @default 65000 */
  readonly maxLength?: number;
}

/** Successively shorter forms, tried in order until the comment fits. */
interface Layout {
  /** Most diff lines per rule; null: all. */
  readonly diffLines: number | null;
  /** Rule sections shown (the first ones, in plan order). */
  readonly rulesShown: number;
  /** Most items in the warning, skipped and error lists; null: all. */
  readonly listLimit: number | null;
}

export function renderPlanMarkdown(plan: Plan, options: MarkdownRenderOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MARKDOWN_MAX_LENGTH;
  const updates = plan.rules.filter((r) => r.action === "update");
  const all = updates.length;

  for (const diffLines of [null, 20, 5]) {
    const text = assemble(plan, updates, { diffLines, rulesShown: all, listLimit: null });
    if (text.length <= maxLength) return text;
  }
  for (const listLimit of [null, 50, 10, 0]) {
    // Drop rule sections from the end: measure each once instead of re-rendering per count.
    const base = assemble(plan, updates, { diffLines: 5, rulesShown: 0, listLimit });
    let length = base.length;
    let shown = 0;
    for (const rule of updates) {
      const next = length + ruleSection(rule, 5).length + 2;
      if (next > maxLength) break;
      length = next;
      shown += 1;
    }
    for (; shown >= 0; shown -= 1) {
      const text = assemble(plan, updates, { diffLines: 5, rulesShown: shown, listLimit });
      if (text.length <= maxLength) return text;
    }
  }
  // Only a very small maxLength gets here: cut, and say so.
  const note = "\n\n_Plan truncated; see the full plan in the job artifact._\n";
  const text = assemble(plan, updates, { diffLines: 0, rulesShown: 0, listLimit: 0 });
  return maxLength <= note.length ? text.slice(0, Math.max(0, maxLength)) : text.slice(0, maxLength - note.length) + note;
}

function assemble(plan: Plan, updates: readonly RulePlan[], layout: Layout): string {
  const parts: string[] = [...head(plan)];
  const scope = changedSinceSection(plan, layout.listLimit);
  if (scope !== null) parts.push(scope);
  const violations = policySection(plan, layout.listLimit);
  if (violations !== null) parts.push(violations);
  const warnings = warningBlock(updates, layout.listLimit);
  if (warnings !== null) parts.push(warnings);

  if (updates.length > 0) {
    parts.push("### Changes");
    if (layout.diffLines !== null && layout.rulesShown > 0) {
      parts.push(`_Per-rule diffs are shortened to ${plural(layout.diffLines, "line")}; see the full plan in the job artifact._`);
    }
    const open = updates.length <= 3;
    for (const rule of updates.slice(0, layout.rulesShown)) parts.push(ruleSection(rule, layout.diffLines, open));
    const hidden = updates.length - Math.min(layout.rulesShown, updates.length);
    if (hidden > 0) {
      parts.push(`> [!NOTE]\n> Plan truncated: ${plural(hidden, "rule")} not shown; see the full plan in the job artifact.`);
    }
  } else if (plan.summary.errors === 0) {
    parts.push(mdText(noChangesSentence(plan)));
  }

  const skipped = skippedSection(plan.rules.filter((r) => r.action === "skip"), layout.listLimit);
  if (skipped !== null) parts.push(skipped);
  const errors = errorSection(plan, layout.listLimit);
  if (errors !== null) parts.push(errors);
  const soon = expiringSection(plan, layout.listLimit);
  if (soon !== null) parts.push(soon);
  parts.push(`<sub>${mdText(plan.tool.name)} ${mdText(plan.tool.version)} · plan created ${mdText(plan.createdAt)} · ${plan.changedSince === undefined ? `${plural(plan.summary.rules, "rule")} declared` : `${plural(plan.summary.rules, "rule")} read of ${plan.summary.rules + plan.changedSince.unread.count} declared`}</sub>`);
  return parts.join("\n\n") + "\n";
}

function head(plan: Plan): string[] {
  const s = plan.summary;
  const counts = { toUpdate: s.toUpdate, ...tallyPlan(plan.rules) };
  const rows: [string, number][] = [
    ["Rules to update", s.toUpdate],
    ["Users to add", counts.usersToAdd],
    ["Users to remove", counts.usersToRemove],
    ["Aliases to add", counts.aliasesToAdd],
    ["Aliases to remove", counts.aliasesToRemove],
    ["Rebuilds", s.rebuilds],
    ["Lists emptied", s.removeAll],
    ["Mass-removal guard hits", s.massRemovals],
    ["Skipped", s.skipped],
    ["Errors", s.errors],
    ["Unchanged", s.noOp],
    ["Write calls", s.calls],
  ];
  const table = ["| | Count |", "|---|---:|", ...rows.map(([label, n]) => `| ${label} | ${n} |`)].join("\n");
  return [`${PLAN_COMMENT_MARKER}\n## alert-rule-users plan`, `**${summarySentence(counts)}**`, `${table}\n\n<sub>${COUNTING_LEGEND}</sub>`];
}

function warningBlock(updates: readonly RulePlan[], limit: number | null): string | null {
  const items: string[] = [];
  for (const rule of updates) {
    const notes: string[] = [];
    if (rule.massRemoval.triggered) {
      notes.push(
        `**mass-removal guard**: would remove ${rule.massRemoval.lost} of ${plural(rule.massRemoval.entries, "entry", "entries")}, apply needs \`--allow-mass-removal\``,
      );
    }
    if (rule.changes.rebuild) {
      notes.push(`**rebuild** (the list is empty for a moment between \`remove-all-users\` and \`add-users\`): ${mdText(rule.reason ?? "")}`);
    } else if (rule.changes.removeAll) {
      notes.push(`**every entry is removed** (\`remove-all-users\`)`);
    }
    if (removesSomething(rule)) notes.push(`removes: ${mdText(tallyRemoved(tallyRule(rule)) || "the whole list")}`);
    if (notes.length > 0) items.push(`${ruleTitle(rule)}: ${notes.join("; ")}`);
  }
  if (items.length === 0) return null;
  return [
    "> [!WARNING]",
    "> This plan removes entries or rebuilds lists. Check each one before applying.",
    ...limitList(items, limit, "rule").map((item) => `> - ${item}`),
  ].join("\n");
}

function ruleSection(rule: RulePlan, diffLines: number | null, open = false): string {
  const c = rule.changes;
  const symbol = c.rebuild ? "-/+" : c.removeAll ? "-" : "~";
  const name = rule.ruleName === null ? "(unnamed)" : htmlText(rule.ruleName);
  const id = rule.ruleId === null ? "" : ` <code>${htmlText(rule.ruleId)}</code>`;
  const summary =
    `<summary><b>${symbol} ${name}</b>${id} · ${listKind(rule.listType)}, ${modeLabel(rule.mode)}` +
    `${c.rebuild ? ", rebuild" : ""} · ${htmlText(tallyShort(tallyRule(rule)))}</summary>`;

  const body: string[] = [`Construct: ${mdCode(rule.constructPath)}`];
  if ((c.rebuild || c.removeAll) && rule.reason !== null) body.push(`Why: ${mdText(rule.reason)}`);
  for (const warning of rule.warnings) body.push(`:warning: ${mdText(warning)}`);
  if (rule.massRemoval.triggered) {
    body.push(
      `:no_entry: would remove ${rule.massRemoval.lost} of ${plural(rule.massRemoval.entries, "entry", "entries")}: apply needs \`--allow-mass-removal\`` +
        (rule.allowMassRemoval ? " (the construct sets `allowMassRemoval`, which the Terraform path honours)" : ""),
    );
  }
  body.push(diffBlock(changeRows(rule).flatMap(diffLinesOf), diffLines));
  const notAdded = expiredNotAdded(rule);
  if (notAdded.length > 0) body.push(`Not added (expired): ${notAdded.map((u) => `${mdCode(u.userId)} on ${mdText(u.expiresAt)}`).join(", ")}`);
  body.push(`Calls: ${rule.calls.map((call) => mdCode(call.operation) + describeCall(call.operation, callSize(call)).slice(call.operation.length)).join(" → ")}`);
  return [`<details${open ? " open" : ""}>`, summary, "", ...body.flatMap((b) => [b, ""]), "</details>"].join("\n");
}

/** Diff lines of one change row: one line per alias; `(alias)` marks aliases of a user who stays. */
function diffLinesOf(row: ChangeRow): string[] {
  const id = row.userId === null ? "(no user ID)" : oneLine(row.userId);
  switch (row.kind) {
    case "add-user":
      return row.aliases.map((a) => `+ ${id} ${oneLine(a)}`);
    case "add-aliases":
      return row.aliases.map((a) => `+ ${id} ${oneLine(a)}   (alias)`);
    case "remove-aliases":
      return row.aliases.map((a) => `- ${id} ${oneLine(a)}   (alias)`);
    case "remove-user":
    case "remove-entry": {
      const note = row.note === undefined ? "" : `   (${row.note})`;
      return row.aliases.length > 0 ? row.aliases.map((a) => `- ${id} ${oneLine(a)}${note}`) : [`- ${id}${note}`];
    }
  }
}

function diffBlock(lines: readonly string[], max: number | null): string {
  const shown = max === null || lines.length <= max ? [...lines] : [...lines.slice(0, max), `… and ${lines.length - max} more ${lines.length - max === 1 ? "line" : "lines"}`];
  const longestTicks = Math.max(0, ...shown.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((t) => t.length))));
  const fence = "`".repeat(Math.max(3, longestTicks + 1));
  return [`${fence}diff`, ...shown, fence].join("\n");
}

function skippedSection(skipped: readonly RulePlan[], limit: number | null): string | null {
  if (skipped.length === 0) return null;
  const rows = skipped.map(
    (r) => `| ${mdText(r.ruleName ?? "(unnamed)")} | ${r.ruleId === null ? "" : mdCode(r.ruleId, true)} | ${mdCode(r.constructPath, true)} | ${mdText(r.reason ?? "")} |`,
  );
  const shown = limitList(rows, limit, "skipped rule");
  const more = shown.length < rows.length ? shown.pop() : undefined;
  return [
    `### Skipped rules (${skipped.length})`,
    ["| Rule | Rule ID | Construct | Reason |", "|---|---|---|---|", ...shown].join("\n"),
    ...(more === undefined ? [] : [more]),
  ].join("\n\n");
}

/** Rules refused by a RuleUserListPolicy: listed first, one item per violation. */
function policySection(plan: Plan, limit: number | null): string | null {
  const refused = plan.rules.filter((r) => r.action === "error" && r.errorKind === "policy");
  if (refused.length === 0) return null;
  const items = refused.flatMap((r) => {
    const where = `${mdCode(r.constructPath)}${r.ruleId === null ? "" : ` (rule ${mdCode(r.ruleId)})`}`;
    const violations = r.violations ?? [];
    return violations.length > 0
      ? violations.map((v) => `${where}: policy ${mdCode(v.policy)}, **${v.check}**: ${mdText(v.message)}`)
      : [`${where}: ${mdText(r.reason ?? "policy violation")}`];
  });
  return [
    `### Policy violations (${items.length})`,
    "> [!CAUTION]\n> Apply refuses the whole plan until these lists pass their policies (RuleUserListPolicy).",
    limitList(items, limit, "violation").map((i) => `- ${i}`).join("\n"),
  ].join("\n\n");
}

/** Users whose expiresAt falls within the next 14 days: a reminder to extend or let them lapse. */
function expiringSection(plan: Plan, limit: number | null): string | null {
  const soon = plan.summary.expiringSoon ?? [];
  if (soon.length === 0) return null;
  const rows = soon.map(
    (u) => `| ${mdCode(u.userId, true)} | ${mdText(u.aliases.join(", "))} | ${mdText(u.expiresAt)} | ${mdCode(u.constructPath, true)} |`,
  );
  const shown = limitList(rows, limit, "user");
  const more = shown.length < rows.length ? shown.pop() : undefined;
  return [
    `### Expiring soon (${soon.length})`,
    `Users whose \`expiresAt\` falls within ${EXPIRING_SOON_DAYS} days${plan.now === undefined ? "" : ` of ${mdText(plan.now)}`}; from that day on, plan removes them (additive lists stop adding them).`,
    ["| User | Aliases | Expires on | Construct |", "|---|---|---|---|", ...shown].join("\n"),
    ...(more === undefined ? [] : [more]),
  ].join("\n\n");
}

function errorSection(plan: Plan, limit: number | null): string | null {
  const errors = plan.rules.filter((r) => r.action === "error" && r.errorKind !== "policy");
  if (errors.length === 0) return null;
  const blocking = blockingErrors(plan).some((r) => r.errorKind !== "policy");
  const items = errors.map((r) => `${mdCode(r.constructPath)}${r.ruleId === null ? "" : ` (rule ${mdCode(r.ruleId)})`}: ${mdText(r.reason ?? r.errorKind ?? "error")}`);
  return [
    `### Errors (${errors.length})`,
    blocking
      ? "> [!CAUTION]\n> Apply refuses the whole plan until these declaration errors are fixed."
      : "> [!CAUTION]\n> These rules could not be observed and will not be applied; plan again.",
    limitList(items, limit, "error").map((i) => `- ${i}`).join("\n"),
  ].join("\n\n");
}

/** A `--changed-since` plan: what was read, what was not and why, what is no longer managed. */
function changedSinceSection(plan: Plan, limit: number | null): string | null {
  const scope = changedSinceNotes(plan);
  if (scope === null) return null;
  const unread = (plan.changedSince?.unread.count ?? 0) > 0 ? ` ${mdText(scope.unread)}` : "";
  const lines = ["> [!NOTE]", `> ${mdText(scope.read)}${unread}`];
  if (scope.noLongerManaged.length > 0) {
    lines.push(">", "> No longer declared:", ...limitList(scope.noLongerManaged.map(mdText), limit, "rule").map((item) => `> - ${item}`));
  }
  return lines.join("\n");
}

/** At most `limit` items, then one `… and K more` item. */
function limitList(items: readonly string[], limit: number | null, one: string): string[] {
  if (limit === null || items.length <= limit) return [...items];
  const more = items.length - limit;
  return [...items.slice(0, limit), `… and ${more} more ${more === 1 ? one : `${one}s`}; see the full plan in the job artifact.`];
}

function ruleTitle(rule: RulePlan): string {
  const name = `**${rule.ruleName === null ? "(unnamed)" : mdText(rule.ruleName)}**`;
  return rule.ruleId === null ? name : `${name} (${mdCode(rule.ruleId)})`;
}
