/**
 * The native provider's rule lookups (src/provider): a rule by ID or name, the lookups that arrive
 * together sharing one metadata search (Terraform plans many resources at once), and the read of
 * one rule's list. What the provider does with them is src/io/workflow/provider/rule-state.ts.
 */
import { isSystemRule } from "../../../core/engine/rule-facts";
import type { RuleFacts, RuleObservation } from "../../../core/engine/observation";
import { lookupRules, readList, type RuleReference } from "../../observe";
import type { Session } from "../session/session";

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
