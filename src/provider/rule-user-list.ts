/**
 * The `alertrules_rule_user_list` resource (docs/provider.md): Terraform's refresh, plan, apply and
 * import of one rule's list, each turned into calls of src/io/workflow (the same observe, diff,
 * guards, execute and verify as the CLI). Nothing here decides what to send.
 *
 *   read    one query-users (the rule's facts kept from the last read: no search), seen through the
 *           declaration in state (src/core/list-view.ts)
 *   plan    the engine's plan of the configuration against that read (no request when the refresh
 *           just read the list); errors and the mass-removal guard refuse at plan time
 *   apply   reads again right before writing, sends the fewest calls from that read, verifies
 */
import type { DesiredList, RuleFacts, RuleObservation, RunOptions } from "../io/workflow";
import { applyOneRule, parseNativeImportId, planOneRule, readRuleList, redactText, redactValues, refusalOf, viewOfLiveList } from "../io/workflow";
import { UNKNOWN, type Diagnostic, type ObjectValue, type PathStep, type ResourceType, type Value } from "./protocol";
import type { ProviderRun } from "./configure";
import { ruleUserListSchema } from "./schema";
import { DEFAULT_MODE, declarationOf, decodePrivate, encodePrivate, usersOf, type PrivateData } from "./values";
import { stateOf } from "./values";

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

/** The observation a plan starts from: the refresh's read (no request), else a read now. */
async function observationFor(run: ProviderRun, prior: ObjectValue | null, config: ObjectValue, priorPrivate: Buffer): Promise<RuleObservation> {
  const kept = decodePrivate(priorPrivate);
  const reference = referenceOf(config);
  const sameRule =
    prior !== null &&
    kept !== null &&
    (reference.ruleId !== null ? reference.ruleId === kept.rule.observerRuleId : reference.ruleName === str(prior["rule_name"]) || reference.ruleName === kept.rule.name);
  if (sameRule && kept.list !== null) return { kind: "found", rule: kept.rule, list: kept.list };
  if (sameRule) return readRuleList(run.session, kept.rule);
  return run.lookup.observe(reference);
}

/** Which attribute a plan error is about. */
function attributeOfError(errorKind: string | undefined, config: ObjectValue): readonly PathStep[] | undefined {
  if (errorKind === "unknown-rule" || errorKind === "ambiguous-rule" || errorKind === "duplicate-rule") return [config["rule_id"] !== null ? "rule_id" : "rule_name"];
  if (errorKind === "policy") return ["users"];
  return undefined;
}

/** A declaration's identity, to tell two resources for one rule from one resource planned twice. */
function identityOf(list: DesiredList): string {
  return JSON.stringify([list.ruleId === null ? "name" : "id", list.mode, list.users]);
}

export function ruleUserListResource(current: () => ProviderRun | null): ResourceType {
  const need = (): ProviderRun => {
    const run = current();
    if (run === null) throw new Error("the alertrules provider is not configured (Terraform configures it before it reads or plans): run terraform again.");
    return run;
  };

  return {
    schema: ruleUserListSchema,

    validate(config) {
      const declared = declarationOf(config);
      return declared.kind === "invalid" ? declared.diagnostics : [];
    },

    upgrade: (_version, state) => state,

    importState(id) {
      const imported = parseNativeImportId(id);
      if (imported === null) {
        return Promise.resolve({ state: {}, diagnostics: [error("Invalid import ID", 'Import a rule user list by its rule ID (observerRuleId), or by "name:" and the rule\'s exact name, with "additive:" in front for an additive list: terraform import alertrules_rule_user_list.NAME RULE_ID, or an import block with id = "RULE_ID".')] });
      }
      // The state names the rule as the configuration will (by ID or by name), so the generated
      // configuration names it once and the first plan after the import shows no change.
      return Promise.resolve({ state: { id: imported.ruleId ?? id.trim(), rule_id: imported.ruleId, rule_name: imported.ruleName, mode: imported.mode } });
    },

    async read({ state, private: kept }) {
      const run = need();
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
      if (observed.kind !== "found" || observed.list === null || observed.list.usersToAlertOn === "ALL_USERS") {
        // Skipped rules (system rules, all-users rules) are never written: the state stays as declared.
        const listType = observed.kind === "found" && observed.list !== null ? observed.list.usersToAlertOn : str(state["list_type"]);
        return { state: { ...base, users: state["users"] ?? {}, list_type: listType, expired_user_ids: [], entries_without_user_id: [] }, private: encodePrivate({ v: 1, rule, list: observed.kind === "found" ? observed.list : null }) };
      }
      const mode = str(base["mode"]) === "additive" ? "additive" : "authoritative";
      const view = viewOfLiveList(observed.list, { mode, users: state["users"] === null || state["users"] === undefined ? null : usersOf(state["users"]) });
      return {
        // what the service returned may echo a secret: state never holds one
        state: stateOf({ base, rule, listType: observed.list.usersToAlertOn, view }),
        private: encodePrivate({ v: 1, rule, list: observed.list }),
      };
    },

    async plan({ prior, proposed, config, priorPrivate }) {
      if (proposed === null || config === null) {
        const keep = prior !== null && str(prior["on_destroy"]) !== "clear";
        return { planned: null, diagnostics: keep && prior !== null ? [warning("The live list is kept", `Destroying this resource leaves the live list of rule ${str(prior["id"]) ?? "?"} as it is (on_destroy = "keep"). Set on_destroy = "clear" to remove what it manages.`)] : [] };
      }
      const run = need();
      const declared = declarationOf(config);
      const planned: ObjectValue = {
        ...proposed,
        mode: config["mode"] ?? DEFAULT_MODE,
        allow_mass_removal: config["allow_mass_removal"] ?? false,
        on_destroy: config["on_destroy"] ?? "keep",
      };
      if (declared.kind === "invalid") return { planned: null, diagnostics: declared.diagnostics };
      if (declared.kind === "unknown") {
        return { planned: { ...planned, id: prior?.["id"] ?? UNKNOWN, rule_id: config["rule_id"] ?? UNKNOWN, rule_name: config["rule_name"] ?? UNKNOWN, list_type: UNKNOWN, expired_user_ids: UNKNOWN, entries_without_user_id: UNKNOWN } };
      }
      const observation = await observationFor(run, prior, config, priorPrivate);
      // A list change never replaces; naming another rule does (the rule the configuration resolves to is not the state's).
      const resolvedId = observation.kind === "found" || (observation.kind === "failed" && observation.rule !== null) ? observation.rule!.observerRuleId : null;
      const replace: PathStep[][] = prior !== null && resolvedId !== null && resolvedId !== str(prior["id"]) ? [[config["rule_id"] !== null ? "rule_id" : "rule_name"]] : [];
      const plan = planOneRule(declared.list, observation, run.session);
      const rule = plan.rules[0]!;
      const diagnostics: Diagnostic[] = [];
      if (rule.action === "error") {
        return { planned: null, diagnostics: [error(rule.errorKind === "policy" ? "Policy violation" : "Cannot plan this rule user list", rule.reason ?? rule.errorKind ?? "error", attributeOfError(rule.errorKind ?? undefined, config))] };
      }
      const refused = refusalOf(plan, { honourRuleMassRemovalFlag: true });
      if (refused !== null) return { planned: null, diagnostics: [error("Mass removal refused", `${refused}\nSet allow_mass_removal = true on this resource if that is intended.`, ["users"])] };
      if (rule.action === "skip") diagnostics.push(warning("Rule skipped", `rule ${rule.ruleId ?? "?"} (${rule.ruleName ?? ""}): ${rule.reason ?? "skipped"}; this resource never writes to it.`));
      for (const w of rule.warnings) diagnostics.push(warning("Rule user list", typeof w === "string" ? w : JSON.stringify(w)));
      if (observation.kind === "found" && replace.length === 0) {
        const key = observation.rule.observerRuleId;
        const seen = run.planned.get(key) ?? new Set<string>();
        seen.add(identityOf(declared.list));
        run.planned.set(key, seen);
        if (seen.size > 1) {
          return { planned: null, diagnostics: [error("Two resources for one rule", `rule ${key} (${observation.rule.name}) is declared by more than one alertrules_rule_user_list in this configuration (by rule_id and by rule_name, or twice): keep exactly one resource per rule.`, attributeOfError("duplicate-rule", config))] };
        }
      }
      // the rule's facts come from the service, which may echo a secret: what reaches state never holds one
      const facts = observation.kind === "found" || observation.kind === "failed" ? (observation.rule === null ? null : redactValues(observation.rule)) : null;
      const changes = prior === null || rule.action === "update";
      const filled: ObjectValue = {
        ...planned,
        id: facts?.observerRuleId ?? UNKNOWN,
        // the counterpart of what the configuration sets: kept from the state, resolved at create
        rule_id: config["rule_id"] ?? (prior !== null && replace.length === 0 ? (prior["rule_id"] ?? null) : (facts?.observerRuleId ?? UNKNOWN)),
        rule_name: config["rule_name"] ?? (prior !== null && replace.length === 0 ? (prior["rule_name"] ?? null) : (facts?.name ?? UNKNOWN)),
        list_type: rule.listType ?? (prior?.["list_type"] ?? null),
        expired_user_ids: changes ? UNKNOWN : (prior?.["expired_user_ids"] ?? []),
        entries_without_user_id: changes ? UNKNOWN : (prior?.["entries_without_user_id"] ?? []),
      };
      const keep: PrivateData | null = facts === null ? null : { v: 1, rule: facts, list: observation.kind === "found" ? observation.list : null };
      return { planned: filled, ...(replace.length > 0 ? { requiresReplace: replace } : {}), ...(keep === null ? {} : { plannedPrivate: encodePrivate(keep) }), diagnostics };
    },

    async apply({ prior, planned, config, plannedPrivate }) {
      const run = need();
      const options: RunOptions = { honourRuleMassRemovalFlag: true, signal: run.signal };
      if (planned === null) return destroy(run, prior, options);
      const declared = config === null ? null : declarationOf(config);
      if (declared === null || declared.kind !== "declared") return { state: prior, diagnostics: [error("Cannot apply", "the configuration is not known in full at apply time; run terraform apply again.")] };
      const kept = decodePrivate(plannedPrivate);
      try {
        const outcome = await applyOneRule(declared.list, run.session, options);
        const rule = outcome.plan.rules[0];
        const done: ObjectValue = {
          ...planned,
          id: rule?.ruleId ?? planned["id"] ?? null,
          rule_id: known(planned["rule_id"], rule?.ruleId ?? null),
          rule_name: known(planned["rule_name"], rule?.ruleName ?? null),
          list_type: known(planned["list_type"], rule?.listType ?? null),
          // what the plan knew stays as planned (Terraform checks); what it did not is empty once verified
          expired_user_ids: known(planned["expired_user_ids"], []),
          entries_without_user_id: known(planned["entries_without_user_id"], []),
        };
        const nextPrivate = kept === null ? undefined : encodePrivate({ ...kept, list: null });
        const withPrivate = (state: ObjectValue | null, diagnostics: Diagnostic[]) => ({ state, ...(nextPrivate === undefined ? {} : { private: nextPrivate }), diagnostics });
        if (outcome.kind === "interrupted") return withPrivate(prior, [error("Apply interrupted", "Terraform stopped the run before this rule's first write: nothing was sent for it.")]);
        const skipped = rule?.action === "skip" ? [warning("Rule skipped", `rule ${rule.ruleId ?? "?"}: ${rule.reason ?? "skipped"}; nothing was written.`)] : [];
        if (outcome.kind !== "applied" || outcome.result.ok) return withPrivate(done, skipped);
        const failed = outcome.result.rules.map((r) => r.message ?? r.outcome).join("; ");
        const reached = await stateReached(run, declared.list, planned, kept);
        return withPrivate(reached ?? prior, [error("The rule's list did not converge", `${failed}. The state holds the list as it was read after the failure; run terraform apply again to finish.`)]);
      } catch (err) {
        return { state: prior, diagnostics: [error("Apply refused", messageOf(err))] };
      }
    },
  };
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

/** Destroy: `keep` leaves the live list; `clear` removes what the resource manages (its declared users, or, authoritative, every entry). */
async function destroy(run: ProviderRun, prior: ObjectValue | null, options: RunOptions) {
  if (prior === null || str(prior["on_destroy"]) !== "clear") {
    return { state: null, diagnostics: [warning("The live list is kept", `rule ${str(prior?.["id"] ?? null) ?? "?"}: removed from Terraform's state; its live list is left as it is (on_destroy = "keep").`)] };
  }
  const ruleId = str(prior["id"]);
  const declaredUsers = usersOf(prior["users"]) ?? [];
  try {
    let users: DesiredList["users"] = [];
    if (str(prior["mode"]) === "additive") {
      const found = await run.lookup.lookup({ ruleId, ruleName: null });
      if (found.kind !== "found") return { state: prior, diagnostics: [error("Cannot clear the list", `rule ${ruleId ?? "?"} was not found; nothing was sent.`)] };
      const read = await readRuleList(run.session, found.rule);
      if (read.kind !== "found" || read.list === null) return { state: prior, diagnostics: [error("Cannot clear the list", read.kind === "failed" ? read.message : "the list could not be read")] };
      if (read.list.entries.some((e) => e.userId === null)) {
        return { state: prior, diagnostics: [error("Cannot clear an additive list safely", `rule ${ruleId ?? "?"} has entries without a user ID; removing only this resource's users would need a rebuild that loses them. Remove those entries in the console first, or set on_destroy = "keep".`)] };
      }
      const declaredIds = new Set(declaredUsers.map((u) => u.userId));
      users = read.list.entries.filter((e) => e.userId !== null && !declaredIds.has(e.userId)).map((e) => ({ userId: e.userId!, aliases: e.aliases }));
    }
    const clear: DesiredList = { constructPath: `alertrules_rule_user_list for rule ${ruleId ?? "?"}`, stack: "terraform", ruleId, ruleName: null, mode: "authoritative", allowMassRemoval: true, users };
    const outcome = await applyOneRule(clear, run.session, options);
    if (outcome.kind === "interrupted") return { state: prior, diagnostics: [error("Destroy interrupted", "Terraform stopped the run before the first write: nothing was sent.")] };
    if (outcome.kind === "applied" && !outcome.result.ok) {
      return { state: prior, diagnostics: [error("The list was not cleared", outcome.result.rules.map((r) => r.message ?? r.outcome).join("; "))] };
    }
    return { state: null, diagnostics: [] };
  } catch (err) {
    return { state: prior, diagnostics: [error("Destroy refused", messageOf(err))] };
  }
}
