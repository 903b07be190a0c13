/**
 * Which declarations changed between two synths of the app (docs/contract.md §10.1, `plan --changed-since
 * REF`): REF's declared lists and now's in, the rules whose declaration differs out. Decided on the
 * decoded declarations (`DesiredList`), never on the text of files, so a reformatted file, a moved
 * helper or a renamed variable change nothing. Pure: no git, no files.
 *
 * A declaration is identified by its rule reference (`ruleId`, or `ruleName` when declared by name)
 * and compared by its content: mode, `allowMassRemoval`, users, their aliases and expiries, and the
 * checks of the policies that apply to it. Consequences, by decision:
 * - The construct path and the stack are not content: a construct renamed or moved with the same
 *   rule reference and the same content is unchanged (nothing to read: nothing it declares changed).
 * - A policy is compared by its checks, not by where it is declared: a `RuleUserListPolicy` renamed
 *   or moved with the same checks changes no list; a check added, changed or removed changes every
 *   list it applies to.
 * - Users, aliases and expiries are compared exactly as synthesized (canonical order, declared
 *   spelling): any difference in what a write would send is a change.
 * - A rule declared by name at REF and by ID now (or the other way round) is a new reference: the
 *   declaration now is read and planned as added, the old one is reported as removed; once the read
 *   shows both name the same rule, the plan does not call it "no longer managed" (changed-since-plan.ts).
 * - A rule reference declared more than once (now or at REF) is always read, so the duplicate
 *   declaration error of a full plan is never hidden.
 */
import { canonicalJson } from "./canonical-json";
import { canonicalUsers } from "./canonical";
import type { DesiredList, DesiredUser } from "./desired";
import type { ListPolicy } from "./policy-schema";

/**
 * Why a declaration counts as changed, in the order they are reported. `unverified`: REF could not
 * be compared safely (changed-since.ts says why), so every declaration is read.
 */
export const DECLARATION_CHANGES = ["added", "duplicate", "unverified", "mode", "allowMassRemoval", "users", "aliases", "expiry", "policy"] as const;
export type DeclarationChange = (typeof DECLARATION_CHANGES)[number];

/** A declaration now whose rule must be read and planned, with what changed since REF. */
export interface ChangedDeclaration {
  readonly list: DesiredList;
  /** Never empty. */
  readonly changes: readonly DeclarationChange[];
}

/** A rule declared at REF and not now: no longer managed (never read, never written). */
export type RemovedDeclaration = Pick<DesiredList, "ruleId" | "ruleName" | "constructPath" | "stack">;

export interface DeclarationComparison {
  /** The declarations now to read and plan, in the order of `now`. */
  readonly changed: readonly ChangedDeclaration[];
  /** Declarations now that are the same as at REF: not read. */
  readonly unchanged: readonly DesiredList[];
  /** Rule references declared at REF that are declared no longer, in the order of `before`. */
  readonly removed: readonly RemovedDeclaration[];
}

/** The identity of a declaration: its rule reference. */
export function ruleReference(list: Pick<DesiredList, "ruleId" | "ruleName">): string {
  return list.ruleId !== null ? `id:${list.ruleId}` : `name:${list.ruleName ?? ""}`;
}

/** Compares REF's declarations (`before`) with now's. Never modifies its inputs. */
export function compareDeclarations(before: readonly DesiredList[], now: readonly DesiredList[]): DeclarationComparison {
  const beforeByRef = groupByReference(before);
  const nowByRef = groupByReference(now);
  const changed: ChangedDeclaration[] = [];
  const unchanged: DesiredList[] = [];
  for (const list of now) {
    const ref = ruleReference(list);
    const previous = beforeByRef.get(ref) ?? [];
    const changes: DeclarationChange[] =
      previous.length === 0 ? ["added"] : previous.length > 1 || (nowByRef.get(ref)?.length ?? 0) > 1 ? ["duplicate"] : differences(previous[0]!, list);
    if (changes.length === 0) unchanged.push(list);
    else changed.push({ list, changes });
  }
  const removed = before
    .filter((list) => !nowByRef.has(ruleReference(list)))
    .map(({ ruleId, ruleName, constructPath, stack }) => ({ ruleId, ruleName, constructPath, stack }));
  return { changed, unchanged, removed };
}

function groupByReference(lists: readonly DesiredList[]): Map<string, DesiredList[]> {
  const byRef = new Map<string, DesiredList[]>();
  for (const list of lists) {
    const ref = ruleReference(list);
    byRef.set(ref, [...(byRef.get(ref) ?? []), list]);
  }
  return byRef;
}

/** What differs between two declarations of the same rule reference, in DECLARATION_CHANGES order. */
export function differences(before: DesiredList, now: DesiredList): DeclarationChange[] {
  const found = new Set<DeclarationChange>();
  if (before.mode !== now.mode) found.add("mode");
  if (before.allowMassRemoval !== now.allowMassRemoval) found.add("allowMassRemoval");
  for (const change of userDifferences(before.users, now.users)) found.add(change);
  if (policyKey(before.policies) !== policyKey(now.policies)) found.add("policy");
  return DECLARATION_CHANGES.filter((change) => found.has(change));
}

function userDifferences(before: readonly DesiredUser[], now: readonly DesiredUser[]): DeclarationChange[] {
  const previous = new Map(canonicalUsers(before).map((u) => [u.userId, u]));
  const current = canonicalUsers(now);
  const found: DeclarationChange[] = [];
  if (previous.size !== current.length || current.some((u) => !previous.has(u.userId))) found.push("users");
  const kept = current.filter((u) => previous.has(u.userId)).map((u) => [previous.get(u.userId)!, u] as const);
  if (kept.some(([a, b]) => canonicalJson(a.aliases) !== canonicalJson(b.aliases))) found.push("aliases");
  if (kept.some(([a, b]) => (a.expiresAt ?? null) !== (b.expiresAt ?? null))) found.push("expiry");
  return found;
}

/** The checks of the policies, without where they are declared, in a stable order. */
export function policyKey(policies: readonly ListPolicy[] | undefined): string {
  const checks = (policies ?? []).map(({ path: _path, ...rest }) => canonicalJson(rest));
  return JSON.stringify([...new Set(checks)].sort());
}
