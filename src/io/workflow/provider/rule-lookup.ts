/**
 * One rule at a time, for the native provider (src/provider): the same observe, diff, admission,
 * execute and verify as the CLI's plan and apply, called for one declaration. The provider
 * turns Terraform's requests into these calls and knows nothing below them.
 */
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
import type { RunOptions, Session } from "../session/session";

export type { DeclarationInput, ListView, ObservedList, PolicyPropsInput, RuleFacts, RuleObservation, RuleReference };

/** How long lookups wait for company before their search is sent: requests that arrive together share one search. */
const LOOKUP_WINDOW_MS = 5;

const referenceKey = (r: RuleReference): string => (r.ruleId !== null ? `id:${r.ruleId}` : `name:${r.ruleName ?? ""}`);

/**
 * Resolves rules by ID or name; lookups that arrive within a few milliseconds of each other share
 * one metadata search (Terraform plans many resources at once). Where `upcoming` names the rules
 * the plans to come will ask for (the configuration's, src/io/terraform-run.ts), a search fills
 * its page with those not searched yet, and their answers wait for their lookup (each used once):
 * N resources cost ⌈N / page⌉ searches though Terraform plans only a few at a time.
 */
export class RuleLookup {
  private pending: { reference: RuleReference; settle: (o: Promise<RuleObservation>) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Answers of searches for rules no lookup had asked for yet, by reference; each served once. */
  private readonly ahead = new Map<string, Promise<RuleObservation>>();
  /** References searched ahead already (never searched ahead twice). */
  private readonly searchedAhead = new Set<string>();
  /** isEnabled of the rules the searches of this lookup found, by observerRuleId (RuleFacts does not carry it). */
  private readonly enabled = new Map<string, boolean>();

  constructor(
    private readonly session: Session,
    private readonly upcoming: () => readonly RuleReference[] = () => [],
  ) {}

  lookup(reference: RuleReference): Promise<RuleObservation> {
    const key = referenceKey(reference);
    const early = this.ahead.get(key);
    if (early !== undefined) {
      this.ahead.delete(key);
      // a search that failed is not this lookup's answer: it searches again, as it would have
      return early.catch(() => this.queue(reference));
    }
    return this.queue(reference);
  }

  private queue(reference: RuleReference): Promise<RuleObservation> {
    return new Promise<RuleObservation>((resolve) => {
      this.pending.push({ reference, settle: resolve });
      this.timer ??= setTimeout(() => this.flush(), LOOKUP_WINDOW_MS);
    });
  }

  /** Whether a rule this lookup found is enabled (as its last search said), or null when no search of it found it. */
  isEnabled(ruleId: string): boolean | null {
    return this.enabled.get(ruleId) ?? null;
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
    const references = batch.map((b) => b.reference);
    const asked = new Set(references.map(referenceKey));
    for (const key of asked) this.searchedAhead.add(key);
    // the rest of the page: rules the plans to come will ask for (no search more, a longer answer)
    const room = Math.ceil(asked.size / this.session.pageSize) * this.session.pageSize - asked.size;
    const extra: RuleReference[] = [];
    if (room > 0) {
      for (const r of this.upcoming()) {
        if (extra.length >= room) break;
        const key = referenceKey(r);
        if (this.searchedAhead.has(key)) continue;
        this.searchedAhead.add(key);
        extra.push(r);
      }
    }
    const found = lookupRules(this.session.client, [...references, ...extra], this.session.pageSize, (metadata) => {
      for (const m of metadata) this.enabled.set(m.observerRuleId, m.isEnabled);
    });
    batch.forEach((b, i) => b.settle(found.then((all) => all[i]!)));
    extra.forEach((r, i) => {
      const answer = found.then((all) => all[references.length + i]!);
      answer.catch(() => undefined); // a failed search fails the lookups that use it, not the process
      this.ahead.set(referenceKey(r), answer);
    });
  }
}

/** Reads one rule's list (one query-users): found with its list, or failed with the reason. */
export async function readRuleList(session: Session, rule: RuleFacts): Promise<RuleObservation> {
  const read = await readList(session.client, rule);
  return read.ok ? { kind: "found", rule, list: read.list } : { kind: "failed", rule, message: read.message };
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

