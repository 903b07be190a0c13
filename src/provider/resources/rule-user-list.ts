/**
 * The `alertrules_rule_user_list` resource (docs/provider.md): Terraform's refresh, plan, apply and
 * import of one rule's list, each turned into calls of src/io/workflow (the same observe, diff,
 * guards, execute and verify as the CLI). Nothing here decides what to send.
 *
 *   read    one query-users (the rule's facts kept from the last read: no search), seen through the
 *           declaration in state (src/core/live/list-view.ts)
 *   plan    the engine's plan of the configuration against what the refresh read (no request), or,
 *           for a create, against a read now; the plan is kept whole in the planned private data,
 *           and everything it removes is shown (`removes`, design §12.1)
 *   apply   sends that plan's calls after reading the list again right before the first write, or
 *           nothing when the list moved since the plan read it ("plan again"), then verifies
 */
import type { DesiredList } from "../../core/engine/desired";
import type { ObservedList } from "../../io/workflow/provider/rule-lookup";
import type { ObservePlanRequest, ReachedList } from "../../io/workflow/provider/rule-state";
import type { Plan, RulePlan } from "../../core/engine/plan-schema";
import type { RunOptions } from "../../io/workflow/session/session";
import { applyPlannedRule, applyRuleChange, createKey, observeForPlan, planDestroy, planRuleChange, plannedRemovals, readRuleState, refusalOf, reviewDifferences, viewOfLiveList } from "../../io/workflow";
import { redactString as redactText, redactStrings as redactValues } from "../../io/door-words";
import { nativeImportIdProblem, parseNativeImportId } from "../../core/native/native-provider";
import { printable, printableLines, printableValues } from "../../core/render";
import { UNKNOWN, type Diagnostic, type MoveRequest, type ObjectValue, type PathStep, type Value } from "../protocol";
import type { ProviderRun } from "../configure";
import { moveResourceState } from "./move-state";
import type { ApplyAnswer, ImportAnswer, PlanAnswer, ReadAnswer, Resource } from "../framework/resource";
import { decodeRuleUserList, type RuleUserListModel } from "./rule-user-list-model";
import { ruleUserListSchema } from "../schema";
import { declarationOf, decodePrivate, encodePrivate, hasUnknown, stateOf, usersValue, type PrivateData } from "./rule-user-list-values";

/** A service's string as an attribute shows it (escaped: Terraform prints attributes as they are), or `fallback` where there is none. */
const shownOr = (text: string | null | undefined, fallback: Value): Value => (text === null || text === undefined ? fallback : printable(text));

/** A planned value, or `fallback` where the plan did not know it. */
const known = (planned: Value, fallback: Value): Value => (planned === UNKNOWN ? fallback : planned);

/**
 * Diagnostics: redacted, and nothing in them draws on the reviewer's terminal (design §13.2). What
 * came from the service is made printable (one line) where it is put in; the whole detail then
 * keeps only its own line feeds, every other control, separator and bidi character escaped.
 */
function error(summary: string, detail: string, attribute?: readonly PathStep[]): Diagnostic {
  return { severity: "error", summary, detail: printableLines(redactText(detail)), ...(attribute === undefined ? {} : { attribute }) };
}
function warning(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail: printableLines(redactText(detail)) };
}
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Which attribute a plan error is about. */
function attributeOfError(errorKind: string | undefined, config: RuleUserListModel): readonly PathStep[] | undefined {
  if (errorKind === "unknown-rule" || errorKind === "ambiguous-rule" || errorKind === "duplicate-rule") return [config.namedBy];
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

export class RuleUserListResource implements Resource<RuleUserListModel> {
  readonly schema = ruleUserListSchema;

  constructor(private readonly current: () => ProviderRun | null) {}

  private need(): ProviderRun {
    const run = this.current();
    if (run === null) throw new Error("the alertrules provider is not configured (Terraform configures it before it reads or plans): run terraform again.");
    return run;
  }

  decode(value: ObjectValue): RuleUserListModel {
    return decodeRuleUserList(value);
  }

  validate(config: ObjectValue): Diagnostic[] {
    const declared = declarationOf(config);
    return declared.kind === "invalid" ? declared.diagnostics : [];
  }

  importState(id: string): Promise<ImportAnswer> {
    const problem = nativeImportIdProblem(id);
    if (problem !== null) return Promise.resolve({ state: {}, diagnostics: [error("Invalid import ID", problem)] });
    const imported = parseNativeImportId(id);
    if (imported === null) {
      return Promise.resolve({ state: {}, diagnostics: [error("Invalid import ID", 'Import a rule user list by its rule ID (observerRuleId), or by "name:" and the rule\'s exact name, with "additive:" in front for an additive list: terraform import alertrules_rule_user_list.NAME RULE_ID, or an import block with id = "RULE_ID".')] });
    }
    // The state names the rule as the configuration will (by ID or by name), so the generated
    // configuration names it once and the first plan after the import shows no change.
    return Promise.resolve({ state: { id: imported.ruleId ?? id.trim(), rule_id: imported.ruleId, rule_name: imported.ruleName, mode: imported.mode } });
  }

  moveState(request: MoveRequest): Promise<ApplyAnswer> {
    return moveResourceState(request);
  }

  async read({ state, private: kept }: { readonly state: RuleUserListModel; readonly private: Buffer }): Promise<ReadAnswer> {
    const run = this.need();
    const stored = decodePrivate(kept);
    // an import's first read: what importState wrote, no users and no private data yet
    const importing = stored === null && state.values.users === null;
    const read = await readRuleState(run, { id: state.ruleId ?? (state.ruleName === null ? state.id : null), reference: state.reference, declared: { mode: state.mode, users: state.users }, importing }, stored);
    if (read.kind === "gone" && read.reason !== null) return { state: null, diagnostics: [error("Cannot import: the import ID names no rule", printable(redactText(read.reason)))] };
    if (read.kind === "gone") return { state: null, diagnostics: [warning("Rule not found", `The rule ${printable(read.id ?? "?")} no longer exists in this tenant: it is removed from state, and a plan that still declares it fails.`)] };
    if (read.kind === "unreadable") return { state: state.wire, private: kept, diagnostics: [error(read.what === "rule" ? "Cannot read the rule" : "Cannot read the rule's list", printable(read.message))] };
    const { rule } = read;
    const base: ObjectValue = {
      ...state.wire,
      id: printable(rule.observerRuleId),
      // a list imported by name keeps naming its rule by name only (the configuration does)
      rule_id: state.ruleId ?? (state.ruleName !== null && stored === null ? null : printable(rule.observerRuleId)),
      mode: state.values.mode,
      allow_mass_removal: state.values.allow_mass_removal,
      on_destroy: state.values.on_destroy,
    };
    if (read.kind === "skipped") {
      // never written: the state stays as declared
      return {
        state: { ...base, users: state.values.users ?? usersValue([]), list_type: read.list !== null ? read.list.usersToAlertOn : state.listType, expired_user_ids: [], entries_without_user_id: [], removes: [] },
        private: encodePrivate({ rule, list: read.list }),
      };
    }
    return {
      // what the service returned may echo a secret: state never holds one
      state: stateOf({ base, rule, listType: read.list.usersToAlertOn, view: read.view }),
      private: encodePrivate({ rule, list: read.list }),
    };
  }

  /** What a plan's observation starts from (src/io/workflow/provider/rule-state.ts), with the private data read. */
  private observeRequest(prior: RuleUserListModel | null, config: RuleUserListModel, priorPrivate: Buffer, list: DesiredList): ObservePlanRequest {
    return {
      reference: config.reference,
      prior: prior === null ? null : { ruleName: prior.ruleName },
      kept: decodePrivate(priorPrivate),
      list,
      keptCreate: (data) => decodePrivate(Buffer.from(data ?? "", "utf8")),
    };
  }

  async plan({ prior, config, planned, priorPrivate }: { readonly prior: RuleUserListModel | null; readonly config: RuleUserListModel; readonly planned: RuleUserListModel; readonly priorPrivate: Buffer }): Promise<PlanAnswer> {
    const run = this.need();
    const declared = declarationOf(config.wire);
    if (declared.kind === "invalid") return { planned: null, diagnostics: declared.diagnostics };
    if (declared.kind === "unknown") {
      // `removes` is a promise, not "known after apply": nothing leaves the list. Terraform plans
      // again at apply with the values known then and refuses the apply when that plan's `removes`
      // differs, so an entry this plan could not show is never removed (docs/guarantees.md).
      const diagnostics = config.values.mode === "additive" ? [] : [unknownRemovals(config, prior)];
      return { planned: { ...planned.wire, id: prior?.values.id ?? UNKNOWN, rule_id: config.values.rule_id ?? UNKNOWN, rule_name: config.values.rule_name ?? UNKNOWN, list_type: UNKNOWN, expired_user_ids: UNKNOWN, entries_without_user_id: UNKNOWN, removes: [] }, diagnostics };
    }
    const observed = await observeForPlan(run, this.observeRequest(prior, config, priorPrivate, declared.list));
    // the schema replaces the resource where the configuration resolves to another rule (requiresReplace: "identity")
    const { observation, plan, replaced, duplicate } = await planRuleChange(run, observed, declared.list, prior === null ? undefined : prior.id);
    const rule = plan.rules[0]!;
    if (duplicate !== null) return { planned: null, diagnostics: [error("Two resources for one rule", duplicate, attributeOfError("duplicate-rule", config))] };
    if (rule.action === "error") {
      return { planned: null, diagnostics: [error(rule.errorKind === "policy" ? "Policy violation" : "Cannot plan this rule user list", inResourceWords(printable(rule.reason ?? rule.errorKind ?? "error")), attributeOfError(rule.errorKind ?? undefined, config))] };
    }
    const refused = refusalOf(plan, { honourRuleMassRemovalFlag: true });
    if (refused !== null) return { planned: null, diagnostics: [error("Mass removal refused", `${refused}\nSet allow_mass_removal = true on this resource if that is intended.`, ["users"])] };
    const unreviewed = notAsReviewed(run, rule);
    if (unreviewed !== null) return { planned: null, diagnostics: [unreviewed] };
    const diagnostics: Diagnostic[] = [];
    if (rule.action === "skip") diagnostics.push(warning("Rule skipped", `rule ${printable(rule.ruleId ?? "?")} (${printable(rule.ruleName ?? "")}): ${printable(rule.reason ?? "skipped")}; this resource never writes to it.`));
    for (const w of rule.warnings) diagnostics.push(warning("Rule user list", printable(typeof w === "string" ? w : JSON.stringify(w))));
    // the rule's facts come from the service, which may echo a secret: what reaches state never holds one
    const facts = observation.kind === "found" || observation.kind === "failed" ? (observation.rule === null ? null : redactValues(observation.rule)) : null;
    const list: ObservedList | null = observation.kind === "found" ? observation.list : null;
    const updating = rule.action === "update";
    const priorRemoves = prior?.values.removes ?? null;
    const removes: Value[] = updating ? removesValue(plan) : Array.isArray(priorRemoves) ? priorRemoves : [];
    if (updating && removes.length > 0 && (prior === null || prior.mode === "additive")) {
      const why = prior === null ? "Creating this resource" : 'Switching mode from "additive" to "authoritative"';
      diagnostics.push(warning(`${removes.length} ${removes.length === 1 ? "entry leaves" : "entries leave"} the live list`, `${why} removes from rule ${printable(rule.ruleId ?? "?")} (${printable(rule.ruleName ?? "")}) what the configuration does not declare: ${describeRemovals(removes)}.`));
    }
    const afterView = list !== null && list.usersToAlertOn !== "ALL_USERS" ? viewOfLiveList(list, { mode: declared.list.mode, users: declared.list.users }) : null;
    const kept = prior !== null && !replaced ? prior.values : null;
    const filled: ObjectValue = {
      ...planned.wire,
      id: shownOr(facts?.observerRuleId, UNKNOWN),
      // the counterpart of what the configuration sets: kept from the state, resolved at create
      rule_id: config.values.rule_id ?? (kept !== null ? kept.rule_id : shownOr(facts?.observerRuleId, UNKNOWN)),
      rule_name: config.values.rule_name ?? (kept !== null ? kept.rule_name : shownOr(facts?.name, UNKNOWN)),
      list_type: rule.listType ?? (prior?.values.list_type ?? null),
      // after the apply: expired users gone, an authoritative list rebuilt without entries lacking an ID
      expired_user_ids: updating ? [] : (prior?.values.expired_user_ids ?? (afterView === null ? [] : [...afterView.expiredOnList])),
      entries_without_user_id: updating
        ? declared.list.mode === "authoritative" ? [] : printableValues([...(afterView?.aliasesWithoutUserId ?? [])])
        : (prior?.values.entries_without_user_id ?? (afterView === null ? [] : printableValues([...afterView.aliasesWithoutUserId]))),
      removes,
    };
    if (prior === null && facts !== null && list !== null) run.terraform.keepCreate(createKey(run, declared.list), encodePrivate({ rule: facts, list }).toString("utf8"));
    const keep: PrivateData | null = facts === null ? null : { rule: facts, list, ...(updating ? { plan } : {}) };
    return { planned: filled, ...(keep === null ? {} : { plannedPrivate: encodePrivate(keep) }), diagnostics };
  }

  create({ planned, config, plannedPrivate }: { readonly planned: RuleUserListModel; readonly config: RuleUserListModel | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer> {
    return this.write(null, planned, config, plannedPrivate);
  }

  update({ prior, planned, config, plannedPrivate }: { readonly prior: RuleUserListModel; readonly planned: RuleUserListModel; readonly config: RuleUserListModel | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer> {
    return this.write(prior, planned, config, plannedPrivate);
  }

  /** A create's or update's apply: the plan's calls, or nothing when the list moved since the plan read it. */
  private async write(prior: RuleUserListModel | null, planned: RuleUserListModel, config: RuleUserListModel | null, plannedPrivate: Buffer): Promise<ApplyAnswer> {
    const run = this.need();
    const options: RunOptions = { honourRuleMassRemovalFlag: true, signal: run.signal };
    const declared = config === null ? null : declarationOf(config.wire);
    if (config === null || declared === null || declared.kind !== "declared") return { state: prior?.wire ?? null, diagnostics: [error("Cannot apply", "the configuration is not known in full at apply time; run terraform apply again.")] };
    const kept = decodePrivate(plannedPrivate);
    const label = `rule ${printable(kept?.rule.observerRuleId ?? planned.id ?? "?")}${kept === null ? "" : ` (${printable(kept.rule.name)})`}`;
    const nextPrivate = kept === null ? undefined : encodePrivate({ rule: kept.rule, list: null });
    const answer = (state: ObjectValue | null, diagnostics: Diagnostic[]) => ({ state, ...(nextPrivate === undefined ? {} : { private: nextPrivate }), diagnostics });
    const before = prior?.wire ?? null;
    try {
      const applied = await applyRuleChange(run, { kept, observe: this.observeRequest(prior, config, Buffer.alloc(0), declared.list), options });
      switch (applied.kind) {
        case "nothing-planned":
          return answer(settled(planned, null, kept), []);
        case "no-changes":
        case "converged":
          return answer(settled(planned, applied.plan, kept), []);
        case "interrupted":
          return answer(before, [error("Apply interrupted", "Terraform stopped the run before this rule's first write: nothing was sent for it.")]);
        case "stale":
          return answer(before, [error("The live list changed since the plan", `${label}: ${applied.changes.map(printable).join("; ")}. Nothing was sent for this rule: run terraform plan (or apply) again to see and approve the new plan.`)]);
        case "failed":
          return answer(applied.reached === null ? before : stateReached(planned, applied.reached), [error("The rule's list did not converge", `${printable(applied.failed)}. The state holds the list as it was read after the failure; run terraform apply again to finish.`)]);
      }
    } catch (err) {
      return answer(before, [error("Apply refused", messageOf(err))]);
    }
  }

  /**
   * A destroy's plan: `keep` leaves the live list (a warning says so); `clear` plans the removal of
   * what the resource manages now, from the rule that the state and its private data agree on, and
   * shows every entry it removes. The plan is kept for the apply, which sends it or nothing.
   */
  async planDelete({ prior, priorPrivate }: { readonly prior: RuleUserListModel; readonly priorPrivate: Buffer }): Promise<PlanAnswer> {
    if (prior.onDestroy !== "clear") {
      return { planned: null, diagnostics: [warning("The live list is kept", `Destroying this resource leaves the live list of rule ${prior.id ?? "?"} as it is (on_destroy = "keep"). Set on_destroy = "clear" to remove what it manages.`)] };
    }
    const run = this.need();
    const destroy = await planDestroy(run, { id: prior.id, reference: prior.reference, kept: decodePrivate(priorPrivate), managed: { mode: prior.mode, users: prior.users ?? [] } });
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

  /** A destroy's apply: `keep` forgets the resource; `clear` sends the destroy plan's calls, or nothing when the list moved. */
  async delete({ prior, plannedPrivate }: { readonly prior: RuleUserListModel | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer> {
    const run = this.need();
    const options: RunOptions = { honourRuleMassRemovalFlag: true, signal: run.signal };
    if (prior === null || prior.onDestroy !== "clear") {
      return { state: null, diagnostics: [warning("The live list is kept", `rule ${prior?.id ?? "?"}: removed from Terraform's state; its live list is left as it is (on_destroy = "keep").`)] };
    }
    const kept = decodePrivate(plannedPrivate);
    if (kept === null) return { state: null, diagnostics: [] };
    if (kept.plan === undefined) return { state: null, diagnostics: [] };
    try {
      const outcome = await applyPlannedRule(kept.plan, kept.list, run.session, options);
      if (outcome.kind === "interrupted") return { state: prior.wire, diagnostics: [error("Destroy interrupted", "Terraform stopped the run before the first write: nothing was sent.")] };
      if (outcome.kind === "stale") {
        return { state: prior.wire, diagnostics: [error("The live list changed since the plan", `rule ${printable(kept.rule.observerRuleId)} (${printable(kept.rule.name)}): ${outcome.changes.map(printable).join("; ")}. Nothing was removed: run terraform destroy (or plan -destroy) again to see and approve what it removes now.`)] };
      }
      if (outcome.kind === "applied" && !outcome.result.ok) {
        return { state: prior.wire, diagnostics: [error("The list was not cleared", outcome.result.rules.map((r) => printable(r.message ?? r.outcome)).join("; "))] };
      }
      return { state: null, diagnostics: [] };
    } catch (err) {
      return { state: prior.wire, diagnostics: [error("Destroy refused", messageOf(err))] };
    }
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

/** The attributes that decide what leaves the list, where the plan does not know them yet. */
const DECIDING = ["users", "mode", "rule_id", "rule_name", "policies"] as const;

/** The warning of a plan that cannot know what leaves the list: it promises nothing does, and says how to see the removals. */
function unknownRemovals(config: RuleUserListModel, prior: RuleUserListModel | null): Diagnostic {
  const unknown = DECIDING.filter((name) => hasUnknown(config.values[name]));
  const which = unknown.length === 0 ? "this configuration" : unknown.join(" and ");
  const rule = prior?.id ?? (typeof config.values.rule_id === "string" ? config.values.rule_id : typeof config.values.rule_name === "string" ? JSON.stringify(config.values.rule_name) : null);
  return warning(
    "Nothing leaves the list in this apply",
    `${which} ${unknown.length > 1 ? "are" : "is"} known only at apply, so this plan cannot show what would leave the live list${rule === null ? "" : ` of rule ${rule}`}; it promises that nothing does (removes = []). If the values known at apply would remove any entry, Terraform refuses the apply and nothing is sent ("Provider produced inconsistent final plan ... .removes": this promise kept, not a bug). To remove entries, make them known at plan time: apply what ${unknown.includes("users") ? "users" : which} depends on first (terraform apply -target=ADDRESS), then plan again; or declare them directly.`,
  );
}

/** A message of the engine in the resource's words (its attribute names, not the construct's props). */
function inResourceWords(message: string): string {
  return message.replace(/\bruleId\b/g, "rule_id").replace(/\bruleName\b/g, "rule_name").replace(/\ballowMassRemoval\b/g, "allow_mass_removal");
}

/** The state of a create or update that settled: what the plan knew stays as planned (Terraform checks); what it did not is filled, empty once verified. */
function settled(planned: RuleUserListModel, plan: Plan | null, kept: PrivateData | null): ObjectValue {
  const rule = plan?.rules[0];
  const v = planned.values;
  return {
    ...planned.wire,
    id: known(v.id, shownOr(rule?.ruleId ?? kept?.rule.observerRuleId, null)),
    rule_id: known(v.rule_id, shownOr(rule?.ruleId ?? kept?.rule.observerRuleId, null)),
    rule_name: known(v.rule_name, shownOr(rule?.ruleName ?? kept?.rule.name, null)),
    list_type: known(v.list_type, rule?.listType ?? null),
    expired_user_ids: known(v.expired_user_ids, []),
    entries_without_user_id: known(v.entries_without_user_id, []),
    removes: known(v.removes, removesValue(plan)),
  };
}

/** The list as it was read after a failed apply, seen through the declaration: the state that apply returns. */
function stateReached(planned: RuleUserListModel, reached: ReachedList): ObjectValue {
  const { rule, list, view } = reached;
  return stateOf({ base: { ...planned.wire, id: printable(rule.observerRuleId), rule_id: known(planned.values.rule_id, printable(rule.observerRuleId)), rule_name: known(planned.values.rule_name, printable(rule.name)) }, rule, listType: list.usersToAlertOn, view });
}
