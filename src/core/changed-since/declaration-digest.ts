/**
 * What a plan covered, so that what a reviewer saw is what gets applied: a digest of
 * every declaration the plan was made from, and whether its rule was read. `apply PLANFILE
 * --require-declarations` synthesizes again and refuses, nothing sent, when the declarations then
 * differ from those the plan covered: a declaration added, removed or changed since, which no
 * reviewed plan showed. Pure.
 *
 * The digest covers what a write follows from: the rule reference (`ruleId`, or `ruleName`), the
 * mode, `allowMassRemoval`, the users with their aliases and expiries (canonical order), and the
 * checks of the policies that apply to it. Not the construct path or the stack (as for
 * `--changed-since`, core/changed-declarations.ts): they are reported, not compared.
 */
import { createHash } from "node:crypto";
import { canonicalUsers } from "../engine/canonical";
import { canonicalJson } from "../engine/canonical-json";
import { policyKey, ruleReference } from "../engine/changed-declarations";
import type { DesiredList } from "../engine/desired";
import type { CoveredDeclaration, Plan } from "../engine/plan-schema";

/** sha256 of what a write of this declaration follows from. */
export function declarationDigest(list: DesiredList): string {
  const content = {
    reference: ruleReference(list),
    mode: list.mode,
    allowMassRemoval: list.allowMassRemoval,
    users: canonicalUsers(list.users).map((u) => ({ userId: u.userId, aliases: u.aliases, expiresAt: u.expiresAt ?? null })),
    policies: policyKey(list.policies),
  };
  return "sha256:" + createHash("sha256").update(canonicalJson(content)).digest("hex");
}

/** `plan` with the record of every declaration in `declared`; those in `unread` were not read (same objects). */
export function withDeclarations(plan: Plan, declared: readonly DesiredList[], unread: ReadonlySet<DesiredList> = new Set()): Plan {
  const declarations: CoveredDeclaration[] = declared.map((list) => ({
    constructPath: list.constructPath,
    stack: list.stack,
    reference: ruleReference(list),
    digest: declarationDigest(list),
    read: !unread.has(list),
  }));
  return { ...plan, declarations };
}

/** One way the declarations now differ from those a plan covered. */
export interface UncoveredDeclaration {
  readonly constructPath: string;
  readonly stack: string;
  /**
   * `changed`: declared then, with other content now; `new`: not declared then; `gone`: declared
   * then, not now; `rule`: a rule of the plan whose desired list is not what it declares now (a
   * plan whose rules do not follow from the declarations it records).
   */
  readonly kind: "changed" | "new" | "gone" | "rule";
}

/**
 * The declarations now that the plan's record does not cover, and those it covers that are no
 * longer declared; empty when they are the same (compared as multisets of reference and digest,
 * so duplicates count). Null when the plan records no declarations.
 */
export function uncoveredDeclarations(plan: Plan, now: readonly DesiredList[]): UncoveredDeclaration[] | null {
  if (plan.declarations === undefined) return null;
  const left = new Map<string, CoveredDeclaration[]>();
  for (const entry of plan.declarations) {
    const key = `${entry.reference}\n${entry.digest}`;
    left.set(key, [...(left.get(key) ?? []), entry]);
  }
  const references = new Set(plan.declarations.map((d) => d.reference));
  const found: UncoveredDeclaration[] = [];
  const unmatched: DesiredList[] = [];
  for (const list of now) {
    const key = `${ruleReference(list)}\n${declarationDigest(list)}`;
    const same = left.get(key);
    if (same !== undefined && same.length > 0) same.shift();
    else unmatched.push(list);
  }
  const gone = [...left.values()].flat();
  for (const list of unmatched) {
    const reference = ruleReference(list);
    found.push({ constructPath: list.constructPath, stack: list.stack, kind: references.has(reference) ? "changed" : "new" });
  }
  const changedReferences = new Set(unmatched.map((l) => ruleReference(l)));
  for (const entry of gone) {
    if (!changedReferences.has(entry.reference)) found.push({ constructPath: entry.constructPath, stack: entry.stack, kind: "gone" });
  }
  if (found.length > 0) return found;
  return plan.rules.filter((rule) => rule.calls.length > 0 && !followsFrom(rule, now)).map((rule) => ({ constructPath: rule.constructPath, stack: rule.stack, kind: "rule" as const }));
}

/** The declaration now at the rule's construct path declares what the rule plans: reference, mode, guard, and its desired users (less those the plan found expired). */
function followsFrom(rule: Plan["rules"][number], now: readonly DesiredList[]): boolean {
  const list = now.find((l) => l.constructPath === rule.constructPath && l.stack === rule.stack);
  if (list === undefined) return false;
  const reference = rule.declaredBy === "ruleId" ? `id:${rule.ruleId ?? ""}` : `name:${rule.ruleName ?? ""}`;
  const expired = new Set((rule.expired ?? []).map((u) => u.userId));
  const users = (us: readonly { userId: string; aliases: readonly string[] }[]) => canonicalJson(canonicalUsers(us).map((u) => ({ userId: u.userId, aliases: [...u.aliases] })));
  return (
    ruleReference(list) === reference &&
    list.mode === rule.mode &&
    list.allowMassRemoval === rule.allowMassRemoval &&
    users(list.users.filter((u) => !expired.has(u.userId))) === users(rule.desired)
  );
}
