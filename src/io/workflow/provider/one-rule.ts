/**
 * One rule at a time, for the native provider (src/provider): the same observe, diff, admission,
 * execute and verify as the CLI's plan and apply, called for one declaration. The provider
 * turns Terraform's requests into these calls and knows nothing below them.
 */
import { redactString, redactStrings } from "../../../api/http/redact";
import { buildPlan } from "../../../core/engine/build-plan";
import { NATIVE_RULE_FIELDS } from "../../../core/engine/diff";
import type { DesiredList } from "../../../core/engine/desired";
import { checkPlanIsApplicable } from "../../../core/engine/guards";
import { isSystemRule } from "../../../core/engine/rule-facts";
import type { DeclarationInput } from "../../../core/declaration";
import type { PolicyPropsInput } from "../../../core/engine/policy-schema";
import type { ListView, ViewBasis } from "../../../core/live/list-view";
import { viewOfList } from "../../../core/live/list-view";
import type { ObservedList, RuleFacts, RuleObservation } from "../../../core/engine/observation";
import type { Plan } from "../../../core/engine/plan-schema";
import { AlertRuleUsersError } from "../../../errors";
import { lookupRules, readList, type RuleReference } from "../../observe";
import { TOOL_VERSION } from "../../version";
import { applyFresh, type FreshApply } from "../steps/apply";
import type { RunOptions, Session } from "../session/session";

export type { DeclarationInput, ListView, ObservedList, PolicyPropsInput, RuleFacts, RuleObservation, RuleReference };

/** How long lookups wait for company before their search is sent: requests that arrive together share one search. */
const LOOKUP_WINDOW_MS = 5;

/**
 * Resolves rules by ID or name; lookups that arrive within a few milliseconds of each other share
 * one metadata search (Terraform plans many resources at once).
 */
export class RuleLookup {
  private pending: { reference: RuleReference; settle: (o: Promise<RuleObservation>) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly session: Session) {}

  lookup(reference: RuleReference): Promise<RuleObservation> {
    return new Promise<RuleObservation>((resolve) => {
      this.pending.push({ reference, settle: resolve });
      this.timer ??= setTimeout(() => this.flush(), LOOKUP_WINDOW_MS);
    });
  }

  /** Resolves a rule and reads its list, as a plan observes it (a system rule's list is not read). */
  async observe(reference: RuleReference): Promise<RuleObservation> {
    const found = await this.lookup(reference);
    if (found.kind !== "found" || isSystemRule(found.rule)) return found;
    return readRuleList(this.session, found.rule);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.timer = null;
    const found = lookupRules(this.session.client, batch.map((b) => b.reference), this.session.pageSize);
    batch.forEach((b, i) => b.settle(found.then((all) => all[i]!)));
  }
}

/** Reads one rule's list (one query-users): found with its list, or failed with the reason. */
export async function readRuleList(session: Session, rule: RuleFacts): Promise<RuleObservation> {
  const read = await readList(session.client, rule);
  return read.ok ? { kind: "found", rule, list: read.list } : { kind: "failed", rule, message: read.message };
}

/** Text with every registered secret removed, in every form (src/api/http/redact.ts). */
export function redactText(text: string): string {
  return redactString(text);
}

/** Today (`yyyy-MM-dd`, UTC) by this machine's clock: the day expiries are judged by. */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The live list seen through a declaration (src/core/live/list-view.ts), judged by today's date. */
export function viewOfLiveList(observed: ObservedList, basis: ViewBasis, now: Date = new Date()): ListView {
  return viewOfList(observed, basis, today(now));
}

/**
 * Values with every registered secret removed from their strings: what the provider writes into
 * Terraform's state comes from the service (aliases, rule names), which may echo a secret.
 */
export function redactValues<T>(value: T): T {
  return redactStrings(value);
}

/**
 * The plan of one declaration against what was observed for it (pure). Not redacted as a whole:
 * the provider shows only its messages, each redacted where it is made (src/provider), and it
 * makes a plan per resource on Terraform's refresh path.
 */
export function planOneRule(desired: DesiredList, observation: RuleObservation, session: Session, now: Date = new Date()): Plan {
  return buildPlan({
    declarations: [desired],
    observations: [observation],
    connection: session.connection,
    createdAt: now.toISOString(),
    toolVersion: TOOL_VERSION,
    batchSize: session.batchSize,
    // messages name the rule by the resource's attributes (rule_id, rule_name)
    ruleFields: NATIVE_RULE_FIELDS,
  });
}

/** Why a plan may not be applied (a declaration error, the mass-removal guard), or null when it may. */
export function refusalOf(plan: Plan, options: RunOptions): string | null {
  try {
    checkPlanIsApplicable(plan, options);
    return null;
  } catch (err) {
    if (err instanceof AlertRuleUsersError) return err.message;
    throw err;
  }
}

/**
 * Converges one rule to its declaration, as `apply --auto-approve` does for a whole app: the rule
 * is read again right before writing, the calls follow from that read, the admission runs, and the
 * list is read back and verified.
 */
export async function applyOneRule(desired: DesiredList, session: Session, options: RunOptions): Promise<FreshApply> {
  return applyFresh([desired], session, options, { createdAt: new Date() }, { confirm: () => Promise.resolve(true), recheckAfterConfirm: false });
}

