/**
 * The plan as text for a terminal or a CI log, in the manner of `terraform plan` (docs/contract.md §6):
 * `+` add, `-` remove, `~` change, a fixed summary line. Pure: returns a string.
 */
import type { Plan, RulePlan } from "../engine/plan-schema";
import { CHANGE_KINDS, PLAN_SYMBOLS } from "../engine/change-kinds";
import type { PlanSymbol } from "../engine/change-kinds";
import { EXPIRING_SOON_DAYS } from "../engine/expiry";
import { blockingErrors } from "../engine/guards";
import type { ChangeRow, Paint } from "./common";
import { COUNTING_LEGEND, tallyPlan } from "./counts";
import {
  callSize,
  changeRows,
  changedSinceNotes,
  noChangesSentence,
  describeCall,
  expiredNotAdded,
  listKind,
  modeLabel,
  painter,
  plural,
  policyErrorsFirst,
  printable,
  quoted,
  summarySentence,
} from "./common";

export interface TextRenderOptions {
  /** ANSI colours; the CLI passes true only when the stream is a TTY. */
  readonly color: boolean;
}

const ROW = "      ";

export function renderPlanText(plan: Plan, options: TextRenderOptions): string {
  const paint = painter(options.color);
  const updates = plan.rules.filter((r) => r.action === "update");
  const skipped = plan.rules.filter((r) => r.action === "skip");
  const errors = plan.rules.filter((r) => r.action === "error");
  const out: string[] = [];

  const where = safeBaseUrl(plan.connection.baseUrl);
  if (updates.length > 0) {
    out.push(paint("bold", `alert-rule-users will change these rule lists${where === null ? "" : ` at ${where}`}:`), "");
    out.push(...legend(updates, paint), "");
    for (const rule of updates) out.push(...ruleBlock(rule, paint), "");
    if (plan.summary.noOp > 0) out.push(`  ${plural(plan.summary.noOp, "rule")} unchanged: the lists match the declaration.`, "");
  } else if (errors.length === 0) {
    out.push(paint("bold", printable(noChangesSentence(plan))), "");
  }

  const scope = changedSinceNotes(plan);
  if (scope !== null) {
    out.push(printable(scope.read));
    if (plan.changedSince !== undefined && plan.changedSince.unread.count > 0) out.push(paint("dim", `  # ${printable(scope.unread)}`));
    for (const note of scope.noLongerManaged) out.push(paint("yellow", `  # ${printable(note)}`));
    out.push("");
  }

  if (skipped.length > 0) {
    for (const rule of skipped) out.push(paint("dim", `  # rule ${ruleLabel(rule)} skipped: ${printable(rule.reason ?? "no reason given")}`));
    out.push("");
  }

  if (errors.length > 0) {
    out.push(paint("bold", "Errors:"));
    for (const rule of policyErrorsFirst(errors)) {
      out.push(`  ${paint(["bold", "red"], "!")} ${printable(rule.constructPath)}: ${printable(rule.reason ?? rule.errorKind ?? "error")}`);
    }
    out.push(
      blockingErrors(plan).length > 0
        ? "Apply refuses the whole plan until these declaration errors are fixed."
        : "These rules could not be observed and will not be applied; plan again.",
      "",
    );
  }

  const soon = plan.summary.expiringSoon ?? [];
  if (soon.length > 0) {
    out.push(paint("bold", `Expiring soon (within ${EXPIRING_SOON_DAYS} days):`));
    for (const user of soon) {
      out.push(`  ${printable(user.userId)}  ${user.aliases.map(printable).join(", ")}  expires on ${user.expiresAt}  (${printable(user.constructPath)})`);
    }
    out.push("");
  }

  const s = plan.summary;
  out.push(paint("bold", summarySentence({ toUpdate: s.toUpdate, ...tallyPlan(plan.rules) })));
  if (s.skipped > 0 || s.errors > 0 || s.rebuilds > 0) out.push(`${s.skipped} skipped, ${plural(s.errors, "error")}, ${plural(s.rebuilds, "rebuild")}`);
  return out.join("\n") + "\n";
}

/**
 * A Terraform-like legend of the symbols the changed rules' blocks use (and only those), on one
 * line: a legend of four to six lines on every plan is noise a reader learns to skip. The counting
 * rule follows only when
 * the counts could be misread: a user added or removed with several aliases counts once.
 */
function legend(updates: readonly RulePlan[], paint: Paint): string[] {
  // Every changed rule shows its construct path as a "#" note.
  const used = new Set<PlanSymbol>(["#"]);
  let severalAliases = false;
  for (const rule of updates) {
    const c = rule.changes;
    used.add(c.rebuild ? "-/+" : c.removeAll ? "-" : "~");
    if ([...c.addUsers, ...c.removeUsers].some((u) => u.aliases.length > 1)) severalAliases = true;
    for (const row of changeRows(rule)) for (const symbol of CHANGE_KINDS[row.kind].symbols) used.add(symbol);
  }
  const symbols = PLAN_SYMBOLS.filter(([symbol]) => used.has(symbol)).map(([symbol, meaning]) => `${symbol} ${meaning}`);
  return [paint("dim", `Symbols: ${symbols.join(", ")}.`), ...(severalAliases ? [paint("dim", COUNTING_LEGEND)] : [])];
}

/** `rule "Endpoint exfiltration" (c3e0…)`: name quoted and made printable, full ID. */
function ruleLabel(rule: RulePlan): string {
  const name = rule.ruleName === null ? "(unnamed)" : quoted(rule.ruleName);
  return rule.ruleId === null ? name : `${name} (${printable(rule.ruleId)})`;
}

function ruleBlock(rule: RulePlan, paint: Paint): string[] {
  const c = rule.changes;
  const [symbol, colour, what] = c.rebuild
    ? (["-/+", "yellow", ": rebuild"] as const)
    : c.removeAll
      ? (["-", "red", ": remove every entry"] as const)
      : (["~", "yellow", ""] as const);
  const lines = [
    `  ${paint(["bold", colour], symbol)} ${paint("bold", `rule ${ruleLabel(rule)} ${listKind(rule.listType)}, ${modeLabel(rule.mode)}${what}`)}`,
    paint("dim", `${ROW}# ${printable(rule.constructPath)}`),
  ];
  if ((c.rebuild || c.removeAll) && rule.reason !== null) lines.push(`${ROW}${printable(rule.reason)}`);
  for (const warning of rule.warnings) lines.push(`${ROW}${paint("yellow", `! ${printable(warning)}`)}`);
  if (rule.massRemoval.triggered) {
    const allowed = rule.allowMassRemoval ? " (the construct sets allowMassRemoval, which the Terraform path honours)" : "";
    lines.push(
      `${ROW}${paint(["bold", "red"], `! would remove ${rule.massRemoval.lost} of ${plural(rule.massRemoval.entries, "entry", "entries")}: apply needs --allow-mass-removal${allowed}`)}`,
    );
  }
  for (const row of changeRows(rule)) lines.push(ROW + changeLine(row, paint) + (row.note === undefined ? "" : paint("dim", `  (${row.note})`)));
  for (const user of expiredNotAdded(rule)) lines.push(ROW + paint("dim", `# ${printable(user.userId)} not added: expired on ${user.expiresAt}`));
  const calls = rule.calls.map((call) => describeCall(call.operation, callSize(call)));
  lines.push(`${ROW}calls: ${calls.join(" → ")}`);
  return lines;
}

function changeLine(row: ChangeRow, paint: Paint): string {
  const aliases = row.aliases.map(printable).join(", ");
  const id = row.userId === null ? "(no user ID)" : printable(row.userId);
  switch (row.kind) {
    case "add-user":
      return paint("green", `+ ${id}  ${aliases}`);
    case "add-aliases":
      return `${paint("yellow", `~ ${id}`)}  ${paint("green", `+ ${aliases}`)}`;
    case "remove-aliases":
      return `${paint("yellow", `~ ${id}`)}  ${paint("red", `- ${aliases}`)}`;
    case "remove-user":
    case "remove-entry":
      return paint("red", `- ${id}  ${aliases}`);
  }
}

/** The base URL without credentials, query or fragment; null when it is not a URL. */
function safeBaseUrl(baseUrl: string): string | null {
  try {
    const url = new URL(baseUrl);
    return printable(`${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`);
  } catch {
    return null;
  }
}
