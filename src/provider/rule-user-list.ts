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
import type { DesiredList } from "../core/engine/desired";
import type { ObservedList, RuleFacts, RuleObservation } from "../io/workflow/provider/one-rule";
import type { Plan } from "../core/engine/plan-schema";
import type { RunOptions } from "../io/workflow/session/session";
import { applyPlannedRule, planClear, planOneRule, plannedRemovals, readRuleList, redactText, redactValues, refusalOf, viewOfLiveList } from "../io/workflow";
import { nativeImportIdProblem, parseNativeImportId } from "../io/workflow/door";
import { UNKNOWN, type Diagnostic, type ObjectValue, type PathStep, type ResourceType, type Value } from "./protocol";
import type { ProviderRun } from "./configure";
import { ruleUserListSchema } from "./schema";
import { DEFAULT_MODE, declarationOf, decodePrivate, encodePrivate, usersOf, usersValue, type PrivateData } from "./values";
import { stateOf } from "./values";

type PlanAnswer = Awaited<ReturnType<ResourceType["plan"]>>;

const str = (v: Value | undefined): string | null => (typeof v === "string" ? v : null);
/** A planned value, or `fallback` where the plan did not know it. */
const known = (planned: Value | undefined, fallback: Value): Value => (planned === UNKNOWN || planned === undefined ? fallback : planned);

function error(summary: string, detail: string, attribute?: readonly PathStep[]): Diagnostic {
  return { severity: "error", summary, detail: redactText(detail), ...(attribute === undefined ? {} : { attribute }) };
}
function warning(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail: redactText(detail) };
}
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The rule a configuration or state names, for a lookup. */
function referenceOf(value: ObjectValue): { ruleId: string | null; ruleName: string | null } {
  const ruleId = str(value["rule_id"]);
  return ruleId !== null ? { ruleId, ruleName: null } : { ruleId: null, ruleName: str(value["rule_name"]) };
}

/** Which attribute a plan error is about. */
function attributeOfError(errorKind: string | undefined, config: ObjectValue): readonly PathStep[] | undefined {
  if (errorKind === "unknown-rule" || errorKind === "ambiguous-rule" || errorKind === "duplicate-rule") return [config["rule_id"] !== null ? "rule_id" : "rule_name"];
  if (errorKind === "policy") return ["users"];
  return undefined;
}

/** A declaration's identity, to tell two resources for one rule from one resource planned twice. */
function identityOf(list: DesiredList): string {
  return JSON.stringify([list.ruleId === null ? "name" : "id", list.mode, list.users, list.policies ?? []]);
}

/** `removes` of a plan: what leaves the live list, as Terraform shows it. */
function removesValue(plan: Plan | null): Value[] {
  const rule = plan?.rules[0];
  if (rule === undefined || rule.action !== "update") return [];
  return plannedRemovals(rule.changes).map((r) => ({ user_id: r.userId, aliases: [...r.aliases] }));
}

/** The removals in a sentence: "3 entries: user "9102" (a@x), …". */
function describeRemovals(removes: readonly Value[]): string {
  const shown = removes.slice(0, 20).map((r) => {
    const o = r as ObjectValue;
    const aliases = (o["aliases"] as string[]).join(", ");
    return o["user_id"] === null ? `an entry without a user ID (${aliases})` : `user ${JSON.stringify(o["user_id"])} (${aliases})`;
  });
  return `${shown.join("; ")}${removes.length > 20 ? `; and ${removes.length - 20} more (see removes)` : ""}`;
}

/** What a create's plan read, kept for the apply of the same Terraform command (src/io/terraform-run.ts). */
function createKey(run: ProviderRun, list: DesiredList): string {
  return JSON.stringify([run.session.connection, list.ruleId, list.ruleName]);
}

export class RuleUserListResource implements ResourceType {
  readonly schema = ruleUserListSchema;

  constructor(private readonly current: () => ProviderRun | null) {}

  private need(): ProviderRun {
    const run = this.current();
    if (run === null) throw new Error("the alertrules provider is not configured (Terraform configures it before it reads or plans): run terraform again.");
    return run;
  }

  validate(config: ObjectValue): Diagnostic[] {
    const declared = declarationOf(config);
    return declared.kind === "invalid" ? declared.diagnostics : [];
  }

  upgrade(_version: number, state: ObjectValue): ObjectValue {
    return state;
  }

  importState(id: string): Promise<{ state: ObjectValue; diagnostics?: Diagnostic[] }> {
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

  async read({ state, private: kept }: { state: ObjectValue; private: Buffer }): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }> {
    const run = this.need();
    const stored = decodePrivate(kept);
    const reference = referenceOf(state);
    const id = reference.ruleId ?? (reference.ruleName === null ? str(state["id"]) : null);
    let rule: RuleFacts;
    if (stored !== null && (id === null || stored.rule.observerRuleId === id)) rule = stored.rule;
    else {
      const found = await run.lookup.lookup(id !== null ? { ruleId: id, ruleName: null } : reference);
      if (found.kind === "not-found") return { state: null, diagnostics: [warning("Rule not found", `The rule ${id ?? reference.ruleName ?? "?"} no longer exists in this tenant: it is removed from state, and a plan that still declares it fails.`)] };
      if (found.kind !== "found") return { state, private: kept, diagnostics: [error("Cannot read the rule", found.kind === "ambiguous" ? `${found.ruleIds.length} rules are named ${JSON.stringify(reference.ruleName)} (${found.ruleIds.join(", ")}): declare the list by rule_id.` : found.message)] };
      rule = found.rule;
    }
    const observed = await readRuleList(run.session, rule);
    const base: ObjectValue = {
      ...state,
      id: rule.observerRuleId,
      // a list imported by name keeps naming its rule by name only (the configuration does)
      rule_id: str(state["rule_id"]) ?? (str(state["rule_name"]) !== null && stored === null ? null : rule.observerRuleId),
      mode: state["mode"] ?? DEFAULT_MODE,
      allow_mass_removal: state["allow_mass_removal"] ?? false,
      on_destroy: state["on_destroy"] ?? "keep",
    };
    if (observed.kind === "failed") return { state, private: kept, diagnostics: [error("Cannot read the rule's list", observed.message)] };
    if (observed.kind !== "found" || observed.list === null || observed.list.usersToAlertOn === "ALL_USERS" || rule.isSystem) {
      // Skipped rules (system rules, all-users rules) are never written: the state stays as declared.
      const listType = observed.kind === "found" && observed.list !== null ? observed.list.usersToAlertOn : str(state["list_type"]);
      return {
        state: { ...base, users: state["users"] ?? usersValue([]), list_type: listType, expired_user_ids: [], entries_without_user_id: [], removes: [] },
        private: encodePrivate({ rule, list: observed.kind === "found" ? observed.list : null }),
      };
    }
    const mode = str(base["mode"]) === "additive" ? "additive" : "authoritative";
    const view = viewOfLiveList(observed.list, { mode, users: state["users"] === null || state["users"] === undefined ? null : usersOf(state["users"]) });
    return {
      // what the service returned may echo a secret: state never holds one
      state: stateOf({ base, rule, listType: observed.list.usersToAlertOn, view }),
      private: encodePrivate({ rule, list: observed.list }),
    };
  }

  /**
   * The observation a plan starts from: the refresh's read (no request); for a create, what the
   * plan of this Terraform command read (its apply plans the same), else a lookup and a read now.
   * `fromKept` says the rule's facts came from private data (a system rule is checked again).
   */
  private async observe(run: ProviderRun, prior: ObjectValue | null, config: ObjectValue, priorPrivate: Buffer, list: DesiredList): Promise<{ observation: RuleObservation; fromKept: boolean }> {
    const kept = decodePrivate(priorPrivate);
    const reference = referenceOf(config);
    const sameRule =
      prior !== null &&
      kept !== null &&
      (reference.ruleId !== null ? reference.ruleId === kept.rule.observerRuleId : reference.ruleName === str(prior["rule_name"]) || reference.ruleName === kept.rule.name);
    if (sameRule && kept.list !== null) return { observation: { kind: "found", rule: kept.rule, list: kept.list }, fromKept: true };
    if (sameRule) return { observation: await readRuleList(run.session, kept.rule), fromKept: true };
    if (prior === null) {
      const earlier = decodePrivate(Buffer.from(run.terraform.keptCreate(createKey(run, list)) ?? "", "utf8"));
      if (earlier !== null && earlier.list !== null) return { observation: { kind: "found", rule: earlier.rule, list: earlier.list }, fromKept: false };
    }
    return { observation: await run.lookup.observe(reference), fromKept: false };
  }

  async plan({ prior, proposed, config, priorPrivate }: { prior: ObjectValue | null; proposed: ObjectValue | null; config: ObjectValue | null; priorPrivate: Buffer }): Promise<PlanAnswer> {
    if (proposed === null || config === null) return this.planDestroy(prior, priorPrivate);
    const run = this.need();
    const declared = declarationOf(config);
    const planned: ObjectValue = {
      ...proposed,
      users: config["users"] ?? null,
      policies: config["policies"] ?? null,
      mode: config["mode"] ?? DEFAULT_MODE,
      allow_mass_removal: config["allow_mass_removal"] ?? false,
      on_destroy: config["on_destroy"] ?? "keep",
    };
    if (declared.kind === "invalid") return { planned: null, diagnostics: declared.diagnostics };
    if (declared.kind === "unknown") {
      return { planned: { ...planned, id: prior?.["id"] ?? UNKNOWN, rule_id: config["rule_id"] ?? UNKNOWN, rule_name: config["rule_name"] ?? UNKNOWN, list_type: UNKNOWN, expired_user_ids: UNKNOWN, entries_without_user_id: UNKNOWN, removes: UNKNOWN } };
    }
    const observed = await this.observe(run, prior, config, priorPrivate, declared.list);
    const fromKept = observed.fromKept;
    let observation = observed.observation;
    let plan = planOneRule(declared.list, observation, run.session);
    let rule = plan.rules[0]!;
    // A rule's facts from private data are not trusted to write or to skip: the lookup says (one search shared by the plans that arrive together).
    if (fromKept && observation.kind === "found" && (rule.action === "update" || rule.action === "skip")) {
      const fresh = await run.lookup.lookup({ ruleId: observation.rule.observerRuleId, ruleName: null });
      if (fresh.kind === "found" && JSON.stringify(fresh.rule) !== JSON.stringify(observation.rule)) {
        observation = { ...observation, rule: fresh.rule };
        plan = planOneRule(declared.list, observation, run.session);
        rule = plan.rules[0]!;
      }
    }
    // A list change never replaces; naming another rule does (the rule the configuration resolves to is not the state's).
    const resolvedId = observation.kind === "found" || (observation.kind === "failed" && observation.rule !== null) ? observation.rule!.observerRuleId : null;
    const replace: PathStep[][] = prior !== null && resolvedId !== null && resolvedId !== str(prior["id"]) ? [[config["rule_id"] !== null ? "rule_id" : "rule_name"]] : [];
    if (observation.kind === "found" && replace.length === 0) {
      const duplicate = this.claim(run, observation.rule, declared.list);
      if (duplicate !== null) return { planned: null, diagnostics: [error("Two resources for one rule", duplicate, attributeOfError("duplicate-rule", config))] };
    }
    if (rule.action === "error") {
      return { planned: null, diagnostics: [error(rule.errorKind === "policy" ? "Policy violation" : "Cannot plan this rule user list", inResourceWords(rule.reason ?? rule.errorKind ?? "error"), attributeOfError(rule.errorKind ?? undefined, config))] };
    }
    const refused = refusalOf(plan, { honourRuleMassRemovalFlag: true });
    if (refused !== null) return { planned: null, diagnostics: [error("Mass removal refused", `${refused}\nSet allow_mass_removal = true on this resource if that is intended.`, ["users"])] };
    const diagnostics: Diagnostic[] = [];
    if (rule.action === "skip") diagnostics.push(warning("Rule skipped", `rule ${rule.ruleId ?? "?"} (${rule.ruleName ?? ""}): ${rule.reason ?? "skipped"}; this resource never writes to it.`));
    for (const w of rule.warnings) diagnostics.push(warning("Rule user list", typeof w === "string" ? w : JSON.stringify(w)));
    // the rule's facts come from the service, which may echo a secret: what reaches state never holds one
    const facts = observation.kind === "found" || observation.kind === "failed" ? (observation.rule === null ? null : redactValues(observation.rule)) : null;
    const list: ObservedList | null = observation.kind === "found" ? observation.list : null;
    const updating = rule.action === "update";
    const priorRemoves = prior?.["removes"];
    const removes: Value[] = updating ? removesValue(plan) : Array.isArray(priorRemoves) ? priorRemoves : [];
    if (updating && removes.length > 0 && (prior === null || str(prior["mode"]) === "additive")) {
      const why = prior === null ? "Creating this resource" : 'Switching mode from "additive" to "authoritative"';
      diagnostics.push(warning(`${removes.length} ${removes.length === 1 ? "entry leaves" : "entries leave"} the live list`, `${why} removes from rule ${rule.ruleId ?? "?"} (${rule.ruleName ?? ""}) what the configuration does not declare: ${describeRemovals(removes)}.`));
    }
    const afterView = list !== null && list.usersToAlertOn !== "ALL_USERS" ? viewOfLiveList(list, { mode: declared.list.mode, users: declared.list.users }) : null;
    const filled: ObjectValue = {
      ...planned,
      id: facts?.observerRuleId ?? UNKNOWN,
      // the counterpart of what the configuration sets: kept from the state, resolved at create
      rule_id: config["rule_id"] ?? (prior !== null && replace.length === 0 ? (prior["rule_id"] ?? null) : (facts?.observerRuleId ?? UNKNOWN)),
      rule_name: config["rule_name"] ?? (prior !== null && replace.length === 0 ? (prior["rule_name"] ?? null) : (facts?.name ?? UNKNOWN)),
      list_type: rule.listType ?? (prior?.["list_type"] ?? null),
      // after the apply: expired users gone, an authoritative list rebuilt without entries lacking an ID
      expired_user_ids: updating ? [] : (prior?.["expired_user_ids"] ?? (afterView === null ? [] : [...afterView.expiredOnList])),
      entries_without_user_id: updating
        ? declared.list.mode === "authoritative" ? [] : [...(afterView?.aliasesWithoutUserId ?? [])]
        : (prior?.["entries_without_user_id"] ?? (afterView === null ? [] : [...afterView.aliasesWithoutUserId])),
      removes,
    };
    if (prior === null && facts !== null && list !== null) run.terraform.keepCreate(createKey(run, declared.list), encodePrivate({ rule: facts, list }).toString("utf8"));
    const keep: PrivateData | null = facts === null ? null : { rule: facts, list, ...(updating ? { plan } : {}) };
    return { planned: filled, ...(replace.length > 0 ? { requiresReplace: replace } : {}), ...(keep === null ? {} : { plannedPrivate: encodePrivate(keep) }), diagnostics };
  }

  /**
   * One resource per rule, across every provider configuration of this Terraform command (an alias
   * is a process of its own: src/io/terraform-run.ts). Null, or why the plan is refused.
   */
  private claim(run: ProviderRun, rule: RuleFacts, list: DesiredList): string | null {
    const identity = identityOf(list);
    const seen = run.planned.get(rule.observerRuleId) ?? new Set<string>();
    seen.add(identity);
    run.planned.set(rule.observerRuleId, seen);
    const elsewhere = run.terraform.claim(JSON.stringify([run.session.connection, rule.observerRuleId]), identity);
    if (seen.size === 1 && elsewhere === null) return null;
    return `rule ${rule.observerRuleId} (${rule.name}) is declared by more than one alertrules_rule_user_list in this configuration (by rule_id and by rule_name, twice, or through two provider configurations of the same tenant): keep exactly one resource per rule.`;
  }

  async apply({ prior, planned, config, plannedPrivate }: { prior: ObjectValue | null; planned: ObjectValue | null; config: ObjectValue | null; plannedPrivate: Buffer }) {
    const run = this.need();
    const options: RunOptions = { honourRuleMassRemovalFlag: true, signal: run.signal };
    if (planned === null) return this.applyDestroy(run, prior, plannedPrivate, options);
    const declared = config === null ? null : declarationOf(config);
    if (declared === null || declared.kind !== "declared") return { state: prior, diagnostics: [error("Cannot apply", "the configuration is not known in full at apply time; run terraform apply again.")] };
    const kept = decodePrivate(plannedPrivate);
    const label = `rule ${kept?.rule.observerRuleId ?? str(planned["id"]) ?? "?"}${kept === null ? "" : ` (${kept.rule.name})`}`;
    const settled = (plan: Plan | null): ObjectValue => {
      const rule = plan?.rules[0];
      return {
        ...planned,
        id: known(planned["id"], rule?.ruleId ?? kept?.rule.observerRuleId ?? null),
        rule_id: known(planned["rule_id"], rule?.ruleId ?? kept?.rule.observerRuleId ?? null),
        rule_name: known(planned["rule_name"], rule?.ruleName ?? kept?.rule.name ?? null),
        list_type: known(planned["list_type"], rule?.listType ?? null),
        // what the plan knew stays as planned (Terraform checks); what it did not is empty once verified
        expired_user_ids: known(planned["expired_user_ids"], []),
        entries_without_user_id: known(planned["entries_without_user_id"], []),
        removes: known(planned["removes"], removesValue(plan)),
      };
    };
    const nextPrivate = kept === null ? undefined : encodePrivate({ rule: kept.rule, list: null });
    const answer = (state: ObjectValue | null, diagnostics: Diagnostic[]) => ({ state, ...(nextPrivate === undefined ? {} : { private: nextPrivate }), diagnostics });
    try {
      let plan: Plan | null = kept?.plan ?? null;
      if (plan === null && planned["removes"] === UNKNOWN) {
        // The plan could not know the calls (a value known only after apply): plan now, and send it only if it removes nothing (no plan showed a removal).
        const { observation } = await this.observe(run, prior, config!, Buffer.alloc(0), declared.list);
        plan = planOneRule(declared.list, observation, run.session);
        const removes = removesValue(plan);
        if (removes.length > 0) return answer(prior, [error("Apply refused: removals no plan showed", `${label}: the plan could not show what it would remove (users was known only at apply), and applying it now would remove ${describeRemovals(removes)}. Nothing was sent: run terraform plan again now that the values are known.`)]);
      }
      if (plan === null) return answer(settled(null), []);
      const outcome = await applyPlannedRule(plan, kept?.list ?? null, run.session, options);
      if (outcome.kind === "no-changes") return answer(settled(plan), []);
      if (outcome.kind === "interrupted") return answer(prior, [error("Apply interrupted", "Terraform stopped the run before this rule's first write: nothing was sent for it.")]);
      if (outcome.kind === "stale") {
        return answer(prior, [error("The live list changed since the plan", `${label}: ${outcome.changes.join("; ")}. Nothing was sent for this rule: run terraform plan (or apply) again to see and approve the new plan.`)]);
      }
      if (outcome.result.ok) return answer(settled(plan), []);
      const failed = outcome.result.rules.map((r) => r.message ?? r.outcome).join("; ");
      const reached = await stateReached(run, declared.list, planned, kept);
      return answer(reached ?? prior, [error("The rule's list did not converge", `${failed}. The state holds the list as it was read after the failure; run terraform apply again to finish.`)]);
    } catch (err) {
      return answer(prior, [error("Apply refused", messageOf(err))]);
    }
  }

  /**
   * A destroy's plan: `keep` leaves the live list (a warning says so); `clear` plans the removal of
   * what the resource manages now, from the rule that the state and its private data agree on, and
   * shows every entry it removes. The plan is kept for the apply, which sends it or nothing.
   */
  private async planDestroy(prior: ObjectValue | null, priorPrivate: Buffer): Promise<PlanAnswer> {
    if (prior === null) return { planned: null };
    if (str(prior["on_destroy"]) !== "clear") {
      return { planned: null, diagnostics: [warning("The live list is kept", `Destroying this resource leaves the live list of rule ${str(prior["id"]) ?? "?"} as it is (on_destroy = "keep"). Set on_destroy = "clear" to remove what it manages.`)] };
    }
    const run = this.need();
    const rule = await this.ruleOfState(run, prior, priorPrivate);
    if (typeof rule === "string") return { planned: null, diagnostics: [error("Cannot clear the list", rule)] };
    const kept = decodePrivate(priorPrivate);
    const observed = kept?.list ?? null;
    const read: RuleObservation = observed !== null ? { kind: "found", rule, list: observed } : await readRuleList(run.session, rule);
    if (read.kind !== "found" || read.list === null) return { planned: null, diagnostics: [error("Cannot clear the list", read.kind === "failed" ? read.message : `rule ${rule.observerRuleId}: the list could not be read`)] };
    if (read.list.usersToAlertOn === "ALL_USERS" || rule.isSystem) {
      return { planned: null, diagnostics: [warning("Rule skipped", `rule ${rule.observerRuleId} (${rule.name}) is never written by this provider; destroying the resource leaves its list as it is.`)] };
    }
    const clear = planClear(rule, read.list, { mode: str(prior["mode"]) === "additive" ? "additive" : "authoritative", users: usersOf(prior["users"]) ?? [] }, run.session);
    if (!clear.ok) return { planned: null, diagnostics: [error("Cannot clear an additive list safely", clear.reason)] };
    const removes = removesValue(clear.plan);
    const diagnostics = removes.length === 0 ? [] : [warning(`${removes.length} ${removes.length === 1 ? "entry leaves" : "entries leave"} the live list`, `Destroying this resource (on_destroy = "clear") removes from rule ${rule.observerRuleId} (${rule.name}): ${describeRemovals(removes)}.`)];
    return { planned: null, plannedPrivate: encodePrivate({ rule, list: read.list, plan: clear.plan }), diagnostics };
  }

  /** The rule a state names, where its `id`, `rule_id`, `rule_name` and private data agree; else why not. */
  private async ruleOfState(run: ProviderRun, prior: ObjectValue, priorPrivate: Buffer): Promise<RuleFacts | string> {
    const id = str(prior["id"]);
    const kept = decodePrivate(priorPrivate);
    const reference = referenceOf(prior);
    const disagree = `the state's id (${id ?? "none"}) does not name the rule its ${kept !== null ? "private data" : "rule_id / rule_name"} names; nothing will be sent. Run terraform apply -refresh-only, or set on_destroy = "keep".`;
    if (kept !== null) {
      const agrees = kept.rule.observerRuleId === id && (reference.ruleId === null || reference.ruleId === id) && (reference.ruleName === null || reference.ruleName === kept.rule.name);
      return agrees ? kept.rule : disagree;
    }
    if (reference.ruleId === null && reference.ruleName === null) return disagree;
    const found = await run.lookup.lookup(reference);
    if (found.kind !== "found") return `rule ${id ?? "?"} was not found; nothing will be sent.`;
    return found.rule.observerRuleId === id ? found.rule : disagree;
  }

  /** A destroy's apply: `keep` forgets the resource; `clear` sends the destroy plan's calls, or nothing when the list moved. */
  private async applyDestroy(run: ProviderRun, prior: ObjectValue | null, plannedPrivate: Buffer, options: RunOptions) {
    if (prior === null || str(prior["on_destroy"]) !== "clear") {
      return { state: null, diagnostics: [warning("The live list is kept", `rule ${str(prior?.["id"] ?? null) ?? "?"}: removed from Terraform's state; its live list is left as it is (on_destroy = "keep").`)] };
    }
    const kept = decodePrivate(plannedPrivate);
    if (kept === null) return { state: null, diagnostics: [] };
    if (kept.plan === undefined) return { state: null, diagnostics: [] };
    try {
      const outcome = await applyPlannedRule(kept.plan, kept.list, run.session, options);
      if (outcome.kind === "interrupted") return { state: prior, diagnostics: [error("Destroy interrupted", "Terraform stopped the run before the first write: nothing was sent.")] };
      if (outcome.kind === "stale") {
        return { state: prior, diagnostics: [error("The live list changed since the plan", `rule ${kept.rule.observerRuleId} (${kept.rule.name}): ${outcome.changes.join("; ")}. Nothing was removed: run terraform destroy (or plan -destroy) again to see and approve what it removes now.`)] };
      }
      if (outcome.kind === "applied" && !outcome.result.ok) {
        return { state: prior, diagnostics: [error("The list was not cleared", outcome.result.rules.map((r) => r.message ?? r.outcome).join("; "))] };
      }
      return { state: null, diagnostics: [] };
    } catch (err) {
      return { state: prior, diagnostics: [error("Destroy refused", messageOf(err))] };
    }
  }
}

/** A message of the engine in the resource's words (its attribute names, not the construct's props). */
function inResourceWords(message: string): string {
  return message.replace(/\bruleId\b/g, "rule_id").replace(/\bruleName\b/g, "rule_name").replace(/\ballowMassRemoval\b/g, "allow_mass_removal");
}

export function ruleUserListResource(current: () => ProviderRun | null): ResourceType {
  return new RuleUserListResource(current);
}

/** The list as it is now, seen through the declaration: the state a failed apply returns. */
async function stateReached(run: ProviderRun, list: DesiredList, planned: ObjectValue, kept: PrivateData | null): Promise<ObjectValue | null> {
  const rule: RuleFacts | null = kept?.rule ?? (await run.lookup.lookup({ ruleId: list.ruleId, ruleName: list.ruleName }).then((o) => (o.kind === "found" ? o.rule : null)));
  if (rule === null) return null;
  const read = await readRuleList(run.session, rule);
  if (read.kind !== "found" || read.list === null) return null;
  const view = viewOfLiveList(read.list, { mode: list.mode, users: list.users });
  return stateOf({ base: { ...planned, id: rule.observerRuleId, rule_id: known(planned["rule_id"], rule.observerRuleId), rule_name: known(planned["rule_name"], rule.name) }, rule, listType: read.list.usersToAlertOn, view });
}
