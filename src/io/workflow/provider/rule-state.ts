/**
 * The native provider's plan and apply of one rule (design §12.1): a plan is kept whole in
 * Terraform's planned private data, and its apply sends exactly that plan's calls, after the same
 * admission as a saved plan (src/io/workflow/steps/apply.ts), or nothing.
 *
 *   read     the rule a state names (its facts kept from the last read, else a lookup: rule-lookup.ts) and its list
 *   plan     the engine's plan of one declaration against what was read (the same observe and diff as the CLI's)
 *   apply    read again right before the first write; a list that moved since the plan read it sends
 *            nothing and says what moved ("plan again"); else the plan's calls, then verify
 *   destroy  with on_destroy = "clear": a plan of its own, made and shown at plan time, applied the same way
 */
import { buildPlan, hasChanges } from "../../../core/engine/build-plan";
import { checkNoExpiredAdds } from "../../../core/engine/admission";
import type { DesiredList } from "../../../core/engine/desired";
import { checkPlanIsApplicable } from "../../../core/engine/guards";
import { fingerprintList, sameListFingerprint } from "../../../core/engine/fingerprint";
import { describeListChange, plannedRemovals, type PlannedRemoval } from "../../../core/native/native-provider";
import type { ObservedList, RuleFacts, RuleObservation } from "../../../core/engine/observation";
import type { Plan } from "../../../core/engine/plan-schema";
import { rulesToReadAgain } from "../../../core/engine/still-planned";
import type { ApplyResult } from "../../../core/engine/apply-results";
import type { ListView, ViewBasis } from "../../../core/live/list-view";
import { viewOfList } from "../../../core/live/list-view";
import { IMPORT_RULE_FIELDS, NATIVE_RULE_FIELDS, notFoundReason } from "../../../core/engine/diff";
import { AlertRuleUsersError } from "../../../errors";
import { knownRuleNames, type RuleReference } from "../../observe";
import { TOOL_VERSION } from "../../version";
import type { TerraformRun } from "../../terraform-run";
import { applyPlanned } from "../steps/apply";
import { claimIdentity, claimKey, clearDeclaration, duplicateClaim, type Managed } from "../../../core/engine/provider-decisions";
import { readRuleList, type RuleLookup } from "./rule-lookup";
import type { RunOptions, Session } from "../session/session";

export type { PlannedRemoval };
export { plannedRemovals };

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

export { parseKeptPlan } from "../../../core/native/native-provider";

export type PlannedRuleApply =
  | { readonly kind: "applied"; readonly result: ApplyResult }
  | { readonly kind: "no-changes" }
  /** The list moved since the plan read it: nothing was sent. */
  | { readonly kind: "stale"; readonly changes: readonly string[] }
  /** Terraform stopped the run before the first write: nothing was sent. */
  | { readonly kind: "interrupted" };

/**
 * Applies a plan the provider made (and Terraform kept): reads the rule again right before the
 * first write, refuses (nothing sent) when the list is not the one the plan read (`observed`), then
 * the admission of a saved plan, the plan's calls and the read back. Throws the admission's errors.
 */
export async function applyPlannedRule(plan: Plan, observed: ObservedList | null, session: Session, options: RunOptions): Promise<PlannedRuleApply> {
  if (!hasChanges(plan)) return { kind: "no-changes" };
  checkNoExpiredAdds(plan, today());
  const reads = await session.readAgain(rulesToReadAgain(plan));
  const read = reads[0];
  const rule = plan.rules[0]!;
  if (read !== undefined && read.ok && fingerprintList(read.list) !== rule.fingerprint) {
    const changes = observed === null ? [] : describeListChange(observed, read.list);
    return { kind: "stale", changes: changes.length > 0 ? changes : ["the live list is not the one the plan read"] };
  }
  if (options.signal?.aborted === true) return { kind: "interrupted" };
  return { kind: "applied", result: await applyPlanned(plan, { session, readNow: reads }, options) };
}

/** A rule's list read after a failed apply, seen through the declaration: what the state then holds. */
export interface ReachedList {
  readonly rule: RuleFacts;
  readonly list: ObservedList;
  readonly view: ListView;
}

/** What a create's or update's apply came to; the provider turns each into state and diagnostics. */
export type RuleChangeApplied =
  /** The plan had no calls to keep (nothing to send). */
  | { readonly kind: "nothing-planned" }
  | { readonly kind: "no-changes"; readonly plan: Plan }
  | { readonly kind: "converged"; readonly plan: Plan }
  /** Terraform stopped the run before the first write: nothing was sent. */
  | { readonly kind: "interrupted" }
  /** The list moved since the plan read it: nothing was sent. */
  | { readonly kind: "stale"; readonly changes: readonly string[] }
  /** Sent, and the list did not converge: why, and the list as read after (null when it could not be read). */
  | { readonly kind: "failed"; readonly failed: string; readonly reached: ReachedList | null };

/**
 * A create's or update's apply (design §12.1): the plan kept in private data, sent by
 * {@link applyPlannedRule}; without one, nothing is sent. (A plan that could not know its calls,
 * `users` known only at apply, promised `removes = []`: Terraform plans again at apply, with the
 * values known then, and refuses the apply itself when that plan removes anything.) Throws the
 * admission's errors.
 */
export async function applyRuleChange(
  context: ProviderRuleContext,
  request: {
    readonly planned: (LastRead & { readonly plan?: Plan }) | null;
    readonly observe: ObservePlanRequest;
    readonly options: RunOptions;
  },
): Promise<RuleChangeApplied> {
  const { planned, observe } = request;
  const plan: Plan | null = planned?.plan ?? null;
  if (plan === null) return { kind: "nothing-planned" };
  const outcome = await applyPlannedRule(plan, planned?.list ?? null, context.session, request.options);
  if (outcome.kind === "no-changes") return { kind: "no-changes", plan };
  if (outcome.kind !== "applied") return outcome;
  if (outcome.result.ok) return { kind: "converged", plan };
  const failed = outcome.result.rules.map((r) => r.message ?? r.outcome).join("; ");
  return { kind: "failed", failed, reached: await listReached(context, observe.list, planned?.rule ?? null) };
}

/** The list as it is now, seen through the declaration (after a failed apply); null when the rule or its list cannot be read. */
async function listReached(context: ProviderRuleContext, list: DesiredList, plannedRule: RuleFacts | null): Promise<ReachedList | null> {
  const rule: RuleFacts | null = plannedRule ?? (await context.lookup.lookup({ ruleId: list.ruleId, ruleName: list.ruleName }).then((o) => (o.kind === "found" ? o.rule : null)));
  if (rule === null) return null;
  const read = await readRuleList(context.session, rule);
  if (read.kind !== "found" || read.list === null) return null;
  return { rule, list: read.list, view: viewOfLiveList(read.list, { mode: list.mode, users: list.users }) };
}

/** A destroy's plan with `on_destroy = "clear"`: refused, skipped (never written), or the plan of the clear. */
export type DestroyPlan =
  | { readonly kind: "refused"; readonly reason: string }
  | { readonly kind: "skipped"; readonly rule: RuleFacts }
  | { readonly kind: "unsafe"; readonly reason: string }
  | { readonly kind: "planned"; readonly rule: RuleFacts; readonly list: ObservedList; readonly plan: Plan };

/**
 * Plans a destroy's clear: the rule that the state's `id`, its `rule_id` / `rule_name` and its
 * private data agree on (never a bare `id`), its list (what the refresh read, else a read now),
 * then the engine's plan of what the clear leaves (src/core/engine/provider-decisions.ts `clearDeclaration`).
 */
export async function planDestroy(
  context: ProviderRuleContext,
  state: { readonly id: string | null; readonly reference: RuleReference; readonly lastRead: LastRead | null; readonly managed: Managed },
): Promise<DestroyPlan> {
  const rule = await ruleOfState(context, state);
  if (typeof rule === "string") return { kind: "refused", reason: rule };
  const observed = state.lastRead?.list ?? null;
  const read: RuleObservation = observed !== null ? { kind: "found", rule, list: observed } : await readRuleList(context.session, rule);
  if (read.kind !== "found" || read.list === null) return { kind: "refused", reason: read.kind === "failed" ? read.message : `rule ${rule.observerRuleId}: the list could not be read` };
  if (read.list.usersToAlertOn === "ALL_USERS" || rule.isSystem) return { kind: "skipped", rule };
  const clear = clearDeclaration(rule, read.list, state.managed);
  if (!clear.ok) return { kind: "unsafe", reason: clear.reason };
  return { kind: "planned", rule, list: read.list, plan: planOneRule(clear.declaration, { kind: "found", rule, list: read.list }, context.session) };
}

/** The rule a state names, where its `id`, `rule_id`, `rule_name` and private data agree; else why not. */
async function ruleOfState(context: ProviderRuleContext, state: { readonly id: string | null; readonly reference: RuleReference; readonly lastRead: LastRead | null }): Promise<RuleFacts | string> {
  const { id, reference, lastRead } = state;
  const disagree = `the state's id (${id ?? "none"}) does not name the rule its ${lastRead !== null ? "private data" : "rule_id / rule_name"} names; nothing will be sent. Run terraform apply -refresh-only, or set on_destroy = "keep".`;
  if (lastRead !== null) {
    const agrees = lastRead.rule.observerRuleId === id && (reference.ruleId === null || reference.ruleId === id) && (reference.ruleName === null || reference.ruleName === lastRead.rule.name);
    return agrees ? lastRead.rule : disagree;
  }
  if (reference.ruleId === null && reference.ruleName === null) return disagree;
  const found = await context.lookup.lookup(reference);
  if (found.kind !== "found") return `rule ${id ?? "?"} was not found; nothing will be sent.`;
  return found.rule.observerRuleId === id ? found.rule : disagree;
}

/** Where the provider's plans of one Terraform command note which declaration planned each rule. */
export interface RuleClaims {
  readonly session: Pick<Session, "connection">;
  /** Rule ID → the declarations planned for it in this process. */
  readonly planned: Map<string, Set<string>>;
  /** What the provider processes of this Terraform command share (one per provider alias). */
  readonly terraform: Pick<TerraformRun, "claim" | "keptCreate">;
}

/** What the provider's calls of one rule run on: the session, the lookups that share one search, and the claims. */
export interface ProviderRuleContext extends RuleClaims {
  readonly session: Session;
  readonly lookup: RuleLookup;
}

/** A rule's facts and list as the provider keeps them beside a resource (its private data). */
export interface LastRead {
  readonly rule: RuleFacts;
  readonly list: ObservedList | null;
}

/**
 * The fingerprint private data keeps of a list the state beside it shows whole: the first 128 bits
 * of the list's fingerprint (src/core/engine/fingerprint.ts), base64url, 22 characters. It tells the
 * plan whether the state is still the list that was read; apply's check of the live list compares
 * the plan's full fingerprint, not this one.
 */
function keptFingerprint(list: ObservedList): string {
  return keptOfFull(fingerprintList(list));
}
const keptOfFull = (full: string): string => Buffer.from(full.slice("sha256:".length, "sha256:".length + 32), "hex").toString("base64url");

/**
 * The live list as private data keeps it beside a state that also shows it (`shown`, the list
 * rebuilt from that state): its fingerprint alone where `shown` is the same list, else the list.
 */
export function keptList(list: ObservedList | null, shown: ObservedList | null): { readonly list: ObservedList | null; readonly fingerprint?: string } {
  if (list === null || shown === null) return { list };
  // the two lists' texts compared, one digested (and known for both: the plan that follows uses the state's)
  const full = sameListFingerprint(list, shown);
  return full === null ? { list } : { list: null, fingerprint: keptOfFull(full) };
}

/** The list private data kept as a fingerprint: `shown` (rebuilt from the state beside it) where it has that fingerprint, else null (read again). */
export function listOfFingerprint(fingerprint: string, shown: ObservedList | null): ObservedList | null {
  if (shown === null) return null;
  // a full fingerprint: private data written by the version before the short one
  const same = fingerprint.startsWith("sha256:") ? fingerprintList(shown) === fingerprint : keptFingerprint(shown) === fingerprint;
  return same ? shown : null;
}

/** A resource's refresh: the rule gone, unreadable, skipped (never written), or its list seen through the declaration. */
export type RuleStateRead =
  | { readonly kind: "gone"; readonly id: string | null; readonly reason: string | null }
  | { readonly kind: "unreadable"; readonly what: "rule" | "list"; readonly message: string }
  | { readonly kind: "skipped"; readonly rule: RuleFacts; readonly list: ObservedList | null }
  | { readonly kind: "read"; readonly rule: RuleFacts; readonly list: ObservedList; readonly view: ListView };

/**
 * Reads the rule a resource's state names (the facts kept from the last read: no search; else a
 * lookup), then its list (one query-users), seen through the declaration in state. For an import
 * (`importing`), a rule not found comes with the plan's reason in the import ID's words and the
 * name a typo meant (one more bounded request: the first page of the tenant's rules).
 */
export async function readRuleState(
  context: ProviderRuleContext,
  state: { readonly id: string | null; readonly reference: RuleReference; readonly declared: ViewBasis; readonly importing?: boolean },
  lastRead: LastRead | null,
): Promise<RuleStateRead> {
  const { id, reference } = state;
  let rule: RuleFacts;
  if (lastRead !== null && (id === null || lastRead.rule.observerRuleId === id)) rule = lastRead.rule;
  else {
    const found = await context.lookup.lookup(id !== null ? { ruleId: id, ruleName: null } : reference);
    if (found.kind === "not-found") {
      const reason = state.importing === true ? notFoundReason(reference, await knownRuleNames(context.session.client, context.session.pageSize), IMPORT_RULE_FIELDS) : null;
      return { kind: "gone", id: id ?? reference.ruleName, reason };
    }
    if (found.kind !== "found") return { kind: "unreadable", what: "rule", message: found.kind === "ambiguous" ? `${found.ruleIds.length} rules are named ${JSON.stringify(reference.ruleName)} (${found.ruleIds.join(", ")}): declare the list by rule_id.` : found.message };
    rule = found.rule;
  }
  const observed = await readRuleList(context.session, rule);
  if (observed.kind === "failed") return { kind: "unreadable", what: "list", message: observed.message };
  if (observed.kind !== "found" || observed.list === null || observed.list.usersToAlertOn === "ALL_USERS" || rule.isSystem) {
    // Skipped rules (system rules, all-users rules) are never written: the state stays as declared.
    return { kind: "skipped", rule, list: observed.kind === "found" ? observed.list : null };
  }
  return { kind: "read", rule, list: observed.list, view: viewOfLiveList(observed.list, state.declared) };
}

/** What a plan's observation starts from: the configuration's rule, the state's, the last read (private data), and what a create's plan of this command read. */
export interface ObservePlanRequest {
  readonly reference: RuleReference;
  readonly prior: { readonly ruleName: string | null } | null;
  readonly lastRead: LastRead | null;
  readonly list: DesiredList;
  /** What a create's plan of this command read, from the text the command keeps (src/io/terraform-run.ts `keptCreate`). */
  readonly createRead: (data: string | null) => LastRead | null;
}

/** What a create's plan read, kept for the apply of the same Terraform command (src/io/terraform-run.ts). */
export function createKey(context: Pick<RuleClaims, "session">, list: DesiredList): string {
  return JSON.stringify([context.session.connection, list.ruleId, list.ruleName]);
}

/**
 * The observation a plan starts from: the refresh's read (no request); for a create, what the
 * plan of this Terraform command read (its apply plans the same), else a lookup and a read now.
 * `fromPrivate` says the rule's facts came from private data (a system rule is checked again).
 */
export async function observeForPlan(
  context: ProviderRuleContext,
  request: ObservePlanRequest,
): Promise<{ observation: RuleObservation; fromPrivate: boolean }> {
  const { reference, prior, lastRead } = request;
  const sameRule =
    prior !== null &&
    lastRead !== null &&
    (reference.ruleId !== null ? reference.ruleId === lastRead.rule.observerRuleId : reference.ruleName === prior.ruleName || reference.ruleName === lastRead.rule.name);
  if (sameRule && lastRead.list !== null) return { observation: { kind: "found", rule: lastRead.rule, list: lastRead.list }, fromPrivate: true };
  if (sameRule) return { observation: await readRuleList(context.session, lastRead.rule), fromPrivate: true };
  if (prior === null) {
    const earlier = request.createRead(context.terraform.keptCreate(createKey(context, request.list)));
    if (earlier !== null && earlier.list !== null) return { observation: { kind: "found", rule: earlier.rule, list: earlier.list }, fromPrivate: false };
  }
  return { observation: await context.lookup.observe(request.reference), fromPrivate: false };
}

/** A resource's plan of a change: the engine's plan, and the observation it was made from. */
export interface RuleChangePlan {
  readonly observation: RuleObservation;
  readonly plan: Plan;
}

/**
 * Plans a resource's change (design §12.1): the observation ({@link observeForPlan}), the engine's
 * plan, and the rule checked again by a fresh lookup where private data gave its facts. The claim
 * of the rule (one resource per rule, {@link claimRule}) is the resource's, once it knows whether
 * the plan replaces it.
 */
export async function planRuleChange(
  context: ProviderRuleContext,
  observed: { readonly observation: RuleObservation; readonly fromPrivate: boolean },
  list: DesiredList,
): Promise<RuleChangePlan> {
  let { observation } = observed;
  let plan = planOneRule(list, observation, context.session);
  const rule = plan.rules[0]!;
  // A rule's facts from private data are not trusted to write or to skip: the lookup says (one search shared by the plans that arrive together).
  if (observed.fromPrivate && observation.kind === "found" && (rule.action === "update" || rule.action === "skip")) {
    const fresh = await context.lookup.lookup({ ruleId: observation.rule.observerRuleId, ruleName: null });
    if (fresh.kind === "found" && JSON.stringify(fresh.rule) !== JSON.stringify(observation.rule)) {
      observation = { ...observation, rule: fresh.rule };
      plan = planOneRule(list, observation, context.session);
    }
  }
  return { observation, plan };
}

/**
 * One resource per rule, across every provider configuration of this Terraform command (an alias
 * is a process of its own: src/io/terraform-run.ts): notes `list` as planning `rule`, here and in
 * the command's claims. Null, or why the plan is refused (src/core/engine/provider-decisions.ts).
 */
export function claimRule(claims: RuleClaims, rule: RuleFacts, list: DesiredList): string | null {
  const identity = claimIdentity(list);
  const here = claims.planned.get(rule.observerRuleId) ?? new Set<string>();
  here.add(identity);
  claims.planned.set(rule.observerRuleId, here);
  const elsewhere = claims.terraform.claim(claimKey(claims.session.connection.tenantId, rule.observerRuleId), identity);
  return duplicateClaim(rule, here, elsewhere);
}
