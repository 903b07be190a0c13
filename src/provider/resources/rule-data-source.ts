/**
 * The `alertrules_rule` data source: one rule, by `rule_id` or `rule_name`, with its facts and its
 * live list (one metadata search, shared with the lookups that arrive together, and one
 * query-users; a system rule's list is not read).
 */
import type { RuleObservation } from "../../io/workflow/provider/rule-lookup";
import { redactStrings } from "../../io/door-words";
import { printable, printableValues } from "../../core/render";
import type { ProviderRun } from "../configure";
import type { DataSourceType, Diagnostic, ObjectValue, Value } from "../protocol";
import { UNKNOWN } from "../protocol";
import { valuesOf } from "../framework/resource";
import { ruleDataSourceSchema } from "../schema";
import { untilStopped } from "./rules-data-source";

/** A string attribute that is set: null when it is null, unknown, not a string or empty. */
const nonEmptyString = (v: Value | undefined): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Exactly one of rule_id and rule_name, in the data source's words. */
export function ruleDataSourceProblems(config: ObjectValue): Diagnostic[] {
  const values = valuesOf(ruleDataSourceSchema, config);
  if (values.rule_id === UNKNOWN || values.rule_name === UNKNOWN) return [];
  const id = nonEmptyString(values.rule_id);
  const name = nonEmptyString(values.rule_name);
  if ((id === null) === (name === null)) {
    return [{ severity: "error", summary: "Invalid alertrules_rule", detail: `Set exactly one of rule_id (the rule's observerRuleId) and rule_name (its exact name); ${id === null ? "neither is set" : "both are set"}.`, attribute: [id === null ? "rule_id" : "rule_name"] }];
  }
  return [];
}

/** The data source's state of an observation, or the error that says why there is none. */
export function ruleState(config: ObjectValue, observation: RuleObservation, isEnabled: boolean | null = null): { state: ObjectValue } | { error: Diagnostic } {
  const values = valuesOf(ruleDataSourceSchema, config);
  const byName = nonEmptyString(values.rule_id) === null;
  const field = byName ? "rule_name" : "rule_id";
  const asked = nonEmptyString(values[field]) ?? "";
  switch (observation.kind) {
    case "not-found":
      return { error: { severity: "error", summary: "Rule not found", detail: byName ? `No rule is named ${JSON.stringify(asked)} in this tenant (names match exactly, case included): check the name, or set rule_id instead.` : `No rule has the ID ${JSON.stringify(asked)} in this tenant: check rule_id (the rule's observerRuleId), or set rule_name instead.`, attribute: [field] } };
    case "ambiguous":
      return { error: { severity: "error", summary: "Rule name is ambiguous", detail: `${observation.ruleIds.length} rules are named ${JSON.stringify(asked)} (${observation.ruleIds.map(printable).join(", ")}): set rule_id instead.`, attribute: [field] } };
    case "failed":
      return { error: { severity: "error", summary: "Cannot read the rule", detail: printable(observation.message) } };
    case "found":
      break;
  }
  const { rule, list } = observation;
  const users = (list?.entries ?? [])
    .map((e) => ({ user_id: e.userId, aliases: [...e.aliases] }))
    .sort((a, b) => compare(a.user_id ?? "", b.user_id ?? "") || compare(a.aliases[0] ?? "", b.aliases[0] ?? ""));
  // names and aliases come from the service, which may echo a secret: state never holds one; and
  // Terraform prints them as they are: nothing in them may draw (escaped, design §13.2)
  return {
    state: printableValues(redactStrings({
      rule_id: rule.observerRuleId,
      rule_name: rule.name,
      id: rule.observerRuleId,
      list_type: list?.usersToAlertOn ?? null,
      is_system: rule.isSystem,
      rule_source: rule.ruleSource,
      is_enabled: isEnabled,
      users,
    })),
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function ruleDataSource(current: () => ProviderRun | null): DataSourceType {
  return {
    schema: ruleDataSourceSchema,
    validate: ruleDataSourceProblems,
    async read(config) {
      const problems = ruleDataSourceProblems(config);
      if (problems.length > 0) return { state: config, diagnostics: problems };
      const run = current();
      if (run === null) throw new Error("the alertrules provider is not configured: run terraform again.");
      const values = valuesOf(ruleDataSourceSchema, config);
      const id = nonEmptyString(values.rule_id);
      const observation = await untilStopped(run.lookup.observe(id !== null ? { ruleId: id, ruleName: null } : { ruleId: null, ruleName: nonEmptyString(values.rule_name) }), run.signal);
      const answer = ruleState(config, observation, observation.kind === "found" ? run.lookup.isEnabled(observation.rule.observerRuleId) : null);
      return "state" in answer ? { state: answer.state } : { state: config, diagnostics: [answer.error] };
    },
  };
}
