/**
 * The `alertrules_rule_user_list` resource (docs/provider.md): Terraform's refresh, plan, apply and
 * import of one rule's list, each turned into calls of src/io/workflow (the same observe, diff,
 * guards, execute and verify as the CLI). Nothing here decides what to send. The server
 * (src/provider/framework/server.ts) decodes each call into {@link RuleUserListModel}, checks the
 * run, and encodes what these methods answer.
 *
 *   read    one query-users (the rule's facts kept from the last read: no search), seen through the
 *           declaration in state (src/core/live/list-view.ts)
 *   plan    the engine's plan of the configuration against what the refresh read (no request), or,
 *           for a create, against a read now; the plan is kept whole in the planned private data,
 *           and everything it removes is shown (`removes`, design §12.1)
 *   apply   sends that plan's calls after reading the list again right before the first write, or
 *           nothing when the list moved since the plan read it ("plan again"), then verifies; the
 *           `timeouts` deadline bounds it until that first write
 */
import type { DesiredList } from "../../core/engine/desired";
import type { ObservedList } from "../../core/engine/observation";
import type { ObservePlanRequest, ReachedList } from "../../io/workflow/provider/rule-state";
import type { Plan, RulePlan } from "../../core/engine/plan-schema";
import type { RunOptions } from "../../io/workflow/session/session";
import { applyPlannedRule, applyRuleChange, claimRule, createKey, observeForPlan, planDestroy, planRuleChange, plannedRemovals, readRuleState, refusalOf, reviewDifferences, viewOfLiveList } from "../../io/workflow";
import { messageOf, redactString, redactStrings } from "../../io/door-words";
import { nativeImportIdProblem, parseNativeImportId } from "../../core/native/native-provider";
import { printable, printableLines, printableValues } from "../../core/render";
import { UNKNOWN, type Diagnostic, type MoveRequest, type PathStep, type Value } from "../protocol";
import type { ProviderRun } from "../configure";
import type { ApplyCall, PlanAnswer, Resource, StateAnswer } from "../framework/resource";
import { replacesIdentity } from "../framework/resource";
import type { WriteGuard } from "../framework/timeouts";
import { hasUnknown, known, sameValue, stringValue } from "../framework/values";
import { ruleUserListSchema } from "../schema";
import type { RuleUserListValidation } from "./rule-user-list-validation";
import { moveResourceState } from "./move-state";
import { declarationOf } from "./rule-user-list-declaration";
import { EMPTY_RULE_USER_LIST, declaredUsers, listModeOf, namedBy, referenceOf, ruleUserListModel, stateOf, type RuleUserListModel } from "./rule-user-list-model";
import { decodePrivate, encodePrivate, sameDeclaredUsers, usersValue, type PrivateData } from "./rule-user-list-values";
import { lastReadOf, privateOfRead } from "./rule-user-list-last-read";

/** A service's string as an attribute shows it (escaped: Terraform prints attributes as they are), or `fallback` where there is none. */
const shownOr = <F extends Value>(text: string | null | undefined, fallback: F): string | F => (text === null || text === undefined ? fallback : printable(text));

/**
 * Diagnostics: redacted, and nothing in them draws on the reviewer's terminal (design §13.2). What
 * came from the service is made printable (one line) where it is put in; the whole detail then
 * keeps only its own line feeds, every other control, separator and bidi character escaped.
 */
function error(summary: string, detail: string, attribute?: readonly PathStep[]): Diagnostic {
  return { severity: "error", summary, detail: printableLines(redactString(detail)), ...(attribute === undefined ? {} : { attribute }) };
}
function warning(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail: printableLines(redactString(detail)) };
}

/** Which attribute a plan error is about. */
function attributeOfError(errorKind: string | undefined, config: RuleUserListModel): readonly PathStep[] | undefined {
  if (errorKind === "unknown-rule" || errorKind === "ambiguous-rule" || errorKind === "duplicate-rule") return [namedBy(config)];
  if (errorKind === "policy") return ["users"];
  return undefined;
}

/** `removes` of a plan: what leaves the live list, as Terraform shows it (escaped: Terraform prints attributes as they are). */
function removesValue(plan: Plan | null): Value[] {
  const rule = plan?.rules[0];
  if (rule === undefined || rule.action !== "update") return [];
  return printableValues(plannedRemovals(rule.changes).map((r) => ({ user_id: r.userId, aliases: [...r.aliases] })));
}

/** The removals in a sentence: "3 entries: user "9102" (a@x), …". */
function describeRemovals(removes: readonly Value[]): string {
  const shown = removes.slice(0, 20).map((r) => {
    const { user_id: userId, aliases } = r as { user_id: string | null; aliases: string[] };
    return userId === null ? `an entry without a user ID (${aliases.map(printable).join(", ")})` : `user "${printable(userId)}" (${aliases.map(printable).join(", ")})`;
  });
  return `${shown.join("; ")}${removes.length > 20 ? `; and ${removes.length - 20} more (see removes)` : ""}`;
}

/** The run of an apply bounded by its deadline: its stop signal also fires at the deadline, and its first write is marked. */
function guarded(run: ProviderRun, guard: WriteGuard): ProviderRun {
  if (guard.signal === null) return run;
  return {
    ...run,
    signal: AbortSignal.any([run.signal, guard.signal]),
    session: {
      ...run.session,
      send: (plan, options) => {
        guard.writing();
        return run.session.send(plan, options);
      },
    },
  };
}

export class RuleUserListResource implements Resource<RuleUserListModel, ProviderRun> {
  readonly schema = ruleUserListSchema;
  readonly model = ruleUserListModel;

  constructor(private readonly validation: RuleUserListValidation) {}

  validate(config: RuleUserListModel): Diagnostic[] {
    return this.validation.validate(config);
  }

  importState(id: string): Promise<StateAnswer<RuleUserListModel>> {
    const problem = nativeImportIdProblem(id);
    if (problem !== null) return Promise.resolve({ state: null, diagnostics: [error("Invalid import ID", problem)] });
    const imported = parseNativeImportId(id);
    if (imported === null) {
      return Promise.resolve({ state: null, diagnostics: [error("Invalid import ID", 'Import a rule user list by its rule ID (observerRuleId), or by "name:" and the rule\'s exact name, with "additive:" in front for an additive list: terraform import alertrules_rule_user_list.NAME RULE_ID, or an import block with id = "RULE_ID".')] });
    }
    // The state names the rule as the configuration will (by ID or by name), so the generated
    // configuration names it once and the first plan after the import shows no change.
    return Promise.resolve({ state: { ...EMPTY_RULE_USER_LIST, id: imported.ruleId ?? id.trim(), ruleId: imported.ruleId, ruleName: imported.ruleName, mode: imported.mode } });
  }

  moveState(request: MoveRequest): Promise<StateAnswer<RuleUserListModel>> {
    return moveResourceState(request);
  }

  async read({ state, private: privateData }: { readonly state: RuleUserListModel; readonly private: Buffer }, run: ProviderRun): Promise<StateAnswer<RuleUserListModel>> {
    // the rule's facts only (the list is read now): nothing rebuilt from the state
    const lastRead = lastReadOf(privateData, null);
    // an import's first read: what importState wrote, no users and no private data yet
    const importing = lastRead === null && state.users === null;
    const ruleId = stringValue(state.ruleId);
    const ruleName = stringValue(state.ruleName);
    const users = declaredUsers(state);
    const read = await readRuleState(run, { id: ruleId ?? (ruleName === null ? stringValue(state.id) : null), reference: referenceOf(state), declared: { mode: listModeOf(state), users }, importing }, lastRead);
    if (read.kind === "gone" && read.reason !== null) return { state: null, diagnostics: [error("Cannot import: the import ID names no rule", printable(redactString(read.reason)))] };
    if (read.kind === "gone") return { state: null, diagnostics: [warning("Rule not found", `The rule ${printable(read.id ?? "?")} no longer exists in this tenant: it is removed from state, and a plan that still declares it fails.`)] };
    if (read.kind === "unreadable") return { state, private: privateData, diagnostics: [error(read.what === "rule" ? "Cannot read the rule" : "Cannot read the rule's list", printable(read.message))] };
    const { rule } = read;
    const base: RuleUserListModel = {
      ...state,
      id: printable(rule.observerRuleId),
      // a list imported by name keeps naming its rule by name only (the configuration does)
      ruleId: ruleId ?? (ruleName !== null && lastRead === null ? null : printable(rule.observerRuleId)),
    };
    if (read.kind === "skipped") {
      // never written: the state stays as declared
      const skipped: RuleUserListModel = { ...base, users: state.users ?? usersValue([]), listType: read.list !== null ? read.list.usersToAlertOn : stringValue(state.listType), expiredUserIds: [], entriesWithoutUserId: [], removes: [] };
      return { state: skipped, private: privateOfRead(rule, read.list, skipped) };
    }
    // what the service returned may echo a secret: state never holds one
    const next = stateOf({ base, rule, listType: read.list.usersToAlertOn, view: read.view });
    // an unchanged list answers the state it was given (the server then answers its bytes, and the
    // plan that follows is given the same value: its list and fingerprint are worked out once)
    const answered = sameValue(next, state) ? state : next;
    // the live list kept once: where the state shows it whole, private data holds its fingerprint
    return { state: answered, private: privateOfRead(rule, read.list, answered) };
  }

  /** What a plan's observation starts from (src/io/workflow/provider/rule-state.ts), with the private data read. */
  private observeRequest(prior: RuleUserListModel | null, config: RuleUserListModel, priorPrivate: Buffer, list: DesiredList): ObservePlanRequest {
    return {
      reference: referenceOf(config),
      prior: prior === null ? null : { ruleName: stringValue(prior.ruleName) },
      lastRead: lastReadOf(priorPrivate, prior),
      list,
      createRead: (data) => decodePrivate(Buffer.from(data ?? "", "utf8")),
    };
  }

  async plan({ prior, config, planned, priorPrivate }: { readonly prior: RuleUserListModel | null; readonly config: RuleUserListModel; readonly planned: RuleUserListModel; readonly priorPrivate: Buffer }, run: ProviderRun): Promise<PlanAnswer<RuleUserListModel>> {
    const declared = declarationOf(config);
    if (declared.kind === "invalid") return { planned: null, diagnostics: declared.diagnostics };
    if (declared.kind === "unknown") {
      // `removes` is a promise, not "known after apply": nothing leaves the list. Terraform plans
      // again at apply with the values known then and refuses the apply when that plan's `removes`
      // differs, so an entry this plan could not show is never removed (docs/guarantees.md).
      const diagnostics = config.mode === "additive" ? [] : [unknownRemovals(config, prior)];
      return { planned: { ...planned, id: prior?.id ?? UNKNOWN, ruleId: config.ruleId ?? UNKNOWN, ruleName: config.ruleName ?? UNKNOWN, listType: UNKNOWN, expiredUserIds: UNKNOWN, entriesWithoutUserId: UNKNOWN, removes: [] }, diagnostics };
    }
    const observed = await observeForPlan(run, this.observeRequest(prior, config, priorPrivate, declared.list));
    const { observation, plan } = await planRuleChange(run, observed, declared.list);
    const rule = plan.rules[0]!;
    // the rule's facts come from the service, which may echo a secret: what reaches state never holds one
    const facts = observation.kind === "found" || observation.kind === "failed" ? (observation.rule === null ? null : redactStrings(observation.rule)) : null;
    const id = shownOr(facts?.observerRuleId, UNKNOWN);
    // the schema replaces the resource where the configuration resolves to another rule (requiresReplace: "identity"); one resource per rule otherwise
    const duplicate = observation.kind === "found" && !(prior !== null && replacesIdentity(prior.id, id)) ? claimRule(run, observation.rule, declared.list) : null;
    if (duplicate !== null) return { planned: null, diagnostics: [error("Two resources for one rule", duplicate, attributeOfError("duplicate-rule", config))] };
    if (rule.action === "error") {
      return { planned: null, diagnostics: [error(rule.errorKind === "policy" ? "Policy violation" : "Cannot plan this rule user list", printable(rule.reason ?? rule.errorKind ?? "error"), attributeOfError(rule.errorKind ?? undefined, config))] };
    }
    const refused = refusalOf(plan, { honourRuleMassRemovalFlag: true });
    if (refused !== null) return { planned: null, diagnostics: [error("Mass removal refused", `${refused}\nSet allow_mass_removal = true on this resource if that is intended.`, ["users"])] };
    const unreviewed = notAsReviewed(run, rule);
    if (unreviewed !== null) return { planned: null, diagnostics: [unreviewed] };
    const diagnostics: Diagnostic[] = [];
    if (rule.action === "skip") diagnostics.push(warning("Rule skipped", `rule ${printable(rule.ruleId ?? "?")} (${printable(rule.ruleName ?? "")}): ${printable(rule.reason ?? "skipped")}; this resource never writes to it.`));
    for (const w of rule.warnings) diagnostics.push(warning("Rule user list", printable(typeof w === "string" ? w : JSON.stringify(w))));
    const list: ObservedList | null = observation.kind === "found" ? observation.list : null;
    const updating = rule.action === "update";
    const removes = updating ? removesValue(plan) : Array.isArray(prior?.removes) ? prior.removes : [];
    if (updating && removes.length > 0 && (prior === null || listModeOf(prior) === "additive")) {
      const why = prior === null ? "Creating this resource" : 'Switching mode from "additive" to "authoritative"';
      diagnostics.push(warning(`${removes.length} ${removes.length === 1 ? "entry leaves" : "entries leave"} the live list`, `${why} removes from rule ${printable(rule.ruleId ?? "?")} (${printable(rule.ruleName ?? "")}) what the configuration does not declare: ${describeRemovals(removes)}.`));
    }
    // the live list seen through the declaration, where a computed attribute is taken from it (not where the state's is kept)
    let seen: { view: ReturnType<typeof viewOfLiveList> | null } | undefined;
    const after = (): ReturnType<typeof viewOfLiveList> | null => (seen ??= { view: list !== null && list.usersToAlertOn !== "ALL_USERS" ? viewOfLiveList(list, { mode: declared.list.mode, users: declared.list.users }) : null }).view;
    const filled: RuleUserListModel = {
      ...planned,
      // the prior value where the configuration declares the same users (in the state's compact type): no change shown
      users: prior !== null && sameDeclaredUsers(config.users, prior.users) ? prior.users : planned.users,
      id,
      // rule_id and rule_name keep the state's value where the configuration sets neither (useStateForUnknown); a create resolves them
      ruleId: known(planned.ruleId, shownOr(facts?.observerRuleId, UNKNOWN)),
      ruleName: known(planned.ruleName, shownOr(facts?.name, UNKNOWN)),
      listType: rule.listType ?? stringValue(prior?.listType ?? null),
      // after the apply: expired users gone, an authoritative list rebuilt without entries lacking an ID
      expiredUserIds: updating ? [] : (prior?.expiredUserIds ?? [...(after()?.expiredOnList ?? [])]),
      entriesWithoutUserId: updating
        ? declared.list.mode === "authoritative" ? [] : printableValues([...(after()?.aliasesWithoutUserId ?? [])])
        : (prior?.entriesWithoutUserId ?? printableValues([...(after()?.aliasesWithoutUserId ?? [])])),
      removes,
    };
    if (prior === null && facts !== null && list !== null) run.terraform.keepCreate(createKey(run, declared.list), encodePrivate({ rule: facts, list }).toString("utf8"));
    // the list read goes with a plan that changes it (its apply names what moved since); a plan with no calls keeps the rule's facts only
    const plannedData: PrivateData | null = facts === null ? null : updating ? { rule: facts, list, plan } : { rule: facts, list: null };
    return { planned: filled, ...(plannedData === null ? {} : { plannedPrivate: encodePrivate(plannedData) }), diagnostics };
  }

  create({ planned, config, plannedPrivate }: { readonly planned: RuleUserListModel; readonly config: RuleUserListModel | null; readonly plannedPrivate: Buffer }, call: ApplyCall<ProviderRun>): Promise<StateAnswer<RuleUserListModel>> {
    return this.write(null, planned, config, plannedPrivate, call);
  }

  update({ prior, planned, config, plannedPrivate }: { readonly prior: RuleUserListModel; readonly planned: RuleUserListModel; readonly config: RuleUserListModel | null; readonly plannedPrivate: Buffer }, call: ApplyCall<ProviderRun>): Promise<StateAnswer<RuleUserListModel>> {
    return this.write(prior, planned, config, plannedPrivate, call);
  }

  /**
   * A create's or update's apply: the plan's calls, or nothing when the list moved since the plan
   * read it. The deadline (`timeouts.create` / `update`) stops it only before its first write.
   */
  private async write(prior: RuleUserListModel | null, planned: RuleUserListModel, config: RuleUserListModel | null, plannedPrivate: Buffer, { run, deadline }: ApplyCall<ProviderRun>): Promise<StateAnswer<RuleUserListModel>> {
    const bounded = await deadline.beforeFirstWrite((guard) => this.sent(prior, planned, config, plannedPrivate, guarded(run, guard)), "nothing was sent for this rule (the deadline passed before its first write).");
    if (bounded.kind === "expired") return { state: prior, diagnostics: [bounded.error] };
    const { value } = bounded;
    return bounded.late === null ? value : { ...value, diagnostics: [...(value.diagnostics ?? []), bounded.late] };
  }

  private async sent(prior: RuleUserListModel | null, planned: RuleUserListModel, config: RuleUserListModel | null, plannedPrivate: Buffer, run: ProviderRun): Promise<StateAnswer<RuleUserListModel>> {
    const options: RunOptions = { honourRuleMassRemovalFlag: true, signal: run.signal };
    const declared = config === null ? null : declarationOf(config);
    if (config === null || declared === null || declared.kind !== "declared") return { state: prior, diagnostics: [error("Cannot apply", "the configuration is not known in full at apply time; run terraform apply again.")] };
    const plannedData = decodePrivate(plannedPrivate);
    const label = `rule ${printable(plannedData?.rule.observerRuleId ?? stringValue(planned.id) ?? "?")}${plannedData === null ? "" : ` (${printable(plannedData.rule.name)})`}`;
    const nextPrivate = plannedData === null ? undefined : encodePrivate({ rule: plannedData.rule, list: null });
    const answer = (state: RuleUserListModel | null, diagnostics: Diagnostic[]) => ({ state, ...(nextPrivate === undefined ? {} : { private: nextPrivate }), diagnostics });
    try {
      const applied = await applyRuleChange(run, { planned: plannedData, observe: this.observeRequest(prior, config, Buffer.alloc(0), declared.list), options });
      switch (applied.kind) {
        case "nothing-planned":
          return answer(settled(planned, null, plannedData), []);
        case "no-changes":
        case "converged":
          return answer(settled(planned, applied.plan, plannedData), []);
        case "interrupted":
          return answer(prior, [error("Apply interrupted", "Terraform stopped the run before this rule's first write: nothing was sent for it.")]);
        case "stale":
          return answer(prior, [error("The live list changed since the plan", `${label}: ${applied.changes.map(printable).join("; ")}. Nothing was sent for this rule: run terraform plan (or apply) again to see and approve the new plan.`)]);
        case "failed":
          return answer(applied.reached === null ? prior : stateReached(planned, applied.reached), [error("The rule's list did not converge", `${printable(applied.failed)}. The state holds the list as it was read after the failure; run terraform apply again to finish.`)]);
      }
    } catch (err) {
      return answer(prior, [error("Apply refused", messageOf(err))]);
    }
  }

  /**
   * A destroy's plan: `keep` leaves the live list (a warning says so); `clear` plans the removal of
   * what the resource manages now, from the rule that the state and its private data agree on, and
   * shows every entry it removes. The plan is kept for the apply, which sends it or nothing.
   */
  async planDelete({ prior, priorPrivate }: { readonly prior: RuleUserListModel; readonly priorPrivate: Buffer }, run: ProviderRun): Promise<PlanAnswer<RuleUserListModel>> {
    const id = stringValue(prior.id);
    if (prior.onDestroy !== "clear") {
      return { planned: null, diagnostics: [warning("The live list is kept", `Destroying this resource leaves the live list of rule ${id ?? "?"} as it is (on_destroy = "keep"). Set on_destroy = "clear" to remove what it manages.`)] };
    }
    const destroy = await planDestroy(run, { id, reference: referenceOf(prior), lastRead: lastReadOf(priorPrivate, prior), managed: { mode: listModeOf(prior), users: declaredUsers(prior) ?? [] } });
    if (destroy.kind === "refused") return { planned: null, diagnostics: [error("Cannot clear the list", printable(destroy.reason))] };
    if (destroy.kind === "skipped") {
      return { planned: null, diagnostics: [warning("Rule skipped", `rule ${printable(destroy.rule.observerRuleId)} (${printable(destroy.rule.name)}) is never written by this provider; destroying the resource leaves its list as it is.`)] };
    }
    if (destroy.kind === "unsafe") return { planned: null, diagnostics: [error("Cannot clear an additive list safely", printable(destroy.reason))] };
    const { rule, plan } = destroy;
    const unreviewed = plan.rules[0] === undefined ? null : notAsReviewed(run, plan.rules[0]);
    if (unreviewed !== null) return { planned: null, diagnostics: [unreviewed] };
    const removes = removesValue(plan);
    const diagnostics = removes.length === 0 ? [] : [warning(`${removes.length} ${removes.length === 1 ? "entry leaves" : "entries leave"} the live list`, `Destroying this resource (on_destroy = "clear") removes from rule ${printable(rule.observerRuleId)} (${printable(rule.name)}): ${describeRemovals(removes)}.`)];
    return { planned: null, plannedPrivate: encodePrivate({ rule, list: destroy.list, plan }), diagnostics };
  }

  /**
   * A destroy's apply: `keep` forgets the resource; `clear` sends the destroy plan's calls, or
   * nothing when the list moved. The deadline (`timeouts.delete`) stops it only before its first write.
   */
  async delete({ prior, plannedPrivate }: { readonly prior: RuleUserListModel | null; readonly plannedPrivate: Buffer }, { run, deadline }: ApplyCall<ProviderRun>): Promise<StateAnswer<RuleUserListModel>> {
    if (prior === null || prior.onDestroy !== "clear") {
      return { state: null, diagnostics: [warning("The live list is kept", `rule ${stringValue(prior?.id ?? null) ?? "?"}: removed from Terraform's state; its live list is left as it is (on_destroy = "keep").`)] };
    }
    const plannedData = decodePrivate(plannedPrivate);
    if (plannedData?.plan === undefined) return { state: null, diagnostics: [] };
    const { plan } = plannedData;
    const bounded = await deadline.beforeFirstWrite(async (guard) => {
      const timed = guarded(run, guard);
      try {
        const outcome = await applyPlannedRule(plan, plannedData.list, timed.session, { honourRuleMassRemovalFlag: true, signal: timed.signal });
        if (outcome.kind === "interrupted") return { state: prior, diagnostics: [error("Destroy interrupted", "Terraform stopped the run before the first write: nothing was sent.")] };
        if (outcome.kind === "stale") {
          return { state: prior, diagnostics: [error("The live list changed since the plan", `rule ${printable(plannedData.rule.observerRuleId)} (${printable(plannedData.rule.name)}): ${outcome.changes.map(printable).join("; ")}. Nothing was removed: run terraform destroy (or plan -destroy) again to see and approve what it removes now.`)] };
        }
        if (outcome.kind === "applied" && !outcome.result.ok) {
          return { state: prior, diagnostics: [error("The list was not cleared", outcome.result.rules.map((r) => printable(r.message ?? r.outcome)).join("; "))] };
        }
        return { state: null, diagnostics: [] };
      } catch (err) {
        return { state: prior, diagnostics: [error("Destroy refused", messageOf(err))] };
      }
    }, "nothing was sent for this rule (the deadline passed before its first write).");
    if (bounded.kind === "expired") return { state: prior, diagnostics: [bounded.error] };
    return bounded.late === null ? bounded.value : { ...bounded.value, diagnostics: [...(bounded.value.diagnostics ?? []), bounded.late] };
  }
}

/**
 * Where the run holds its plans against reviewed ones (a merge job): the error that stops a rule's
 * plan which is not what its reviewer saw, naming each difference; null when it is covered.
 */
function notAsReviewed(run: ProviderRun, rule: RulePlan): Diagnostic | null {
  if (run.reviewed === null) return null;
  const differences = reviewDifferences(run.reviewed, rule);
  if (differences.length === 0) return null;
  return error(
    "Not the reviewed plan",
    `rule ${printable(rule.ruleId ?? "?")} (${printable(rule.ruleName ?? "")}): this plan is not what the pull request's reviewer saw: ${differences.map(printable).join("; ")}. Nothing is applied: plan the change again in a pull request (or run the apply workflow by hand), review it, and merge.`,
  );
}

/** The attributes that decide what leaves the list, by the name Terraform shows, where the plan does not know them yet. */
function deciding(config: RuleUserListModel): readonly (readonly [string, Value])[] {
  return [["users", config.users], ["mode", config.mode], ["rule_id", config.ruleId], ["rule_name", config.ruleName], ["policies", config.policies]];
}

/** The warning of a plan that cannot know what leaves the list: it promises nothing does, and says how to see the removals. */
function unknownRemovals(config: RuleUserListModel, prior: RuleUserListModel | null): Diagnostic {
  const unknown = deciding(config).filter(([, value]) => hasUnknown(value)).map(([name]) => name);
  const which = unknown.length === 0 ? "this configuration" : unknown.join(" and ");
  const rule = stringValue(prior?.id ?? null) ?? (typeof config.ruleId === "string" ? config.ruleId : typeof config.ruleName === "string" ? JSON.stringify(config.ruleName) : null);
  return warning(
    "Nothing leaves the list in this apply",
    `${which} ${unknown.length > 1 ? "are" : "is"} known only at apply, so this plan cannot show what would leave the live list${rule === null ? "" : ` of rule ${rule}`}; it promises that nothing does (removes = []). If the values known at apply would remove any entry, Terraform refuses the apply and nothing is sent ("Provider produced inconsistent final plan ... .removes": this promise kept, not a bug). To remove entries, make them known at plan time: apply what ${unknown.includes("users") ? "users" : which} depends on first (terraform apply -target=ADDRESS), then plan again; or declare them directly.`,
  );
}

/** The state of a create or update that settled: what the plan knew stays as planned (Terraform checks); what it did not is filled, empty once verified. */
function settled(planned: RuleUserListModel, plan: Plan | null, plannedData: PrivateData | null): RuleUserListModel {
  const rule = plan?.rules[0];
  return {
    ...planned,
    id: known(planned.id, shownOr(rule?.ruleId ?? plannedData?.rule.observerRuleId, null)),
    ruleId: known(planned.ruleId, shownOr(rule?.ruleId ?? plannedData?.rule.observerRuleId, null)),
    ruleName: known(planned.ruleName, shownOr(rule?.ruleName ?? plannedData?.rule.name, null)),
    listType: known(planned.listType, rule?.listType ?? null),
    expiredUserIds: known(planned.expiredUserIds, []),
    entriesWithoutUserId: known(planned.entriesWithoutUserId, []),
    removes: known(planned.removes, removesValue(plan)),
  };
}

/** The list as it was read after a failed apply, seen through the declaration: the state that apply returns. */
function stateReached(planned: RuleUserListModel, reached: ReachedList): RuleUserListModel {
  const { rule, list, view } = reached;
  return stateOf({ base: { ...planned, id: printable(rule.observerRuleId), ruleId: known(planned.ruleId, printable(rule.observerRuleId)), ruleName: known(planned.ruleName, printable(rule.name)) }, rule, listType: list.usersToAlertOn, view });
}
