/**
 * The `alertrules_rule` data source: one rule, by `rule_id` or `rule_name`, with its facts and its
 * live list (one metadata search, shared with the lookups that arrive together, and one
 * query-users; a system rule's list is not read).
 */
import type { RuleObservation } from "../../core/engine/observation";
import { redactStrings } from "../../io/door-words";
import { printable, printableValues } from "../../core/render";
import type { ProviderRun } from "../configure";
import type { Diagnostic, Value } from "../protocol";
import { UNKNOWN } from "../protocol";
import type { DataSource } from "../framework/resource";
import { modelCodec } from "../framework/model";
import { ruleDataSourceSchema } from "../schema";
import { untilStopped } from "./rules-data-source";

/** The model of an `alertrules_rule` value: the rule asked for, its facts and its live users. */
export const ruleModel = modelCodec(ruleDataSourceSchema, {
  ruleId: ["rule_id", "string"],
  ruleName: ["rule_name", "string"],
  id: ["id", "string"],
  listType: ["list_type", "string"],
  isSystem: ["is_system", "bool"],
  ruleSource: ["rule_source", "string"],
  isEnabled: ["is_enabled", "bool"],
  users: ["users", "value"],
} as const);

export type RuleModel = ReturnType<typeof ruleModel.decode>;

/** A string attribute that is set: null when it is null, unknown, not a string or empty. */
const nonEmptyString = (v: Value | undefined): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Exactly one of rule_id and rule_name, in the data source's words. */
export function ruleDataSourceProblems(config: RuleModel): Diagnostic[] {
  if (config.ruleId === UNKNOWN || config.ruleName === UNKNOWN) return [];
  const id = nonEmptyString(config.ruleId);
  const name = nonEmptyString(config.ruleName);
  if ((id === null) === (name === null)) {
    return [{ severity: "error", summary: "Invalid alertrules_rule", detail: `Set exactly one of rule_id (the rule's observerRuleId) and rule_name (its exact name); ${id === null ? "neither is set" : "both are set"}.`, attribute: [id === null ? "rule_id" : "rule_name"] }];
  }
  return [];
}

/** The data source's state of an observation, or the error that says why there is none. */
export function ruleState(config: RuleModel, observation: RuleObservation, isEnabled: boolean | null = null): { state: RuleModel } | { error: Diagnostic } {
  const byName = nonEmptyString(config.ruleId) === null;
  const field = byName ? "rule_name" : "rule_id";
  const asked = nonEmptyString(byName ? config.ruleName : config.ruleId) ?? "";
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
      ruleId: rule.observerRuleId,
      ruleName: rule.name,
      id: rule.observerRuleId,
      listType: list?.usersToAlertOn ?? null,
      isSystem: rule.isSystem,
      ruleSource: rule.ruleSource,
      isEnabled,
      users,
    })),
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class RuleDataSource implements DataSource<RuleModel, ProviderRun> {
  readonly schema = ruleDataSourceSchema;
  readonly model = ruleModel;

  validate(config: RuleModel): Diagnostic[] {
    return ruleDataSourceProblems(config);
  }

  async read(config: RuleModel, run: ProviderRun): Promise<{ state: RuleModel; diagnostics?: Diagnostic[] }> {
    const problems = ruleDataSourceProblems(config);
    if (problems.length > 0) return { state: config, diagnostics: problems };
    const id = nonEmptyString(config.ruleId);
    const observation = await untilStopped(run.lookup.observe(id !== null ? { ruleId: id, ruleName: null } : { ruleId: null, ruleName: nonEmptyString(config.ruleName) }), run.signal);
    const answer = ruleState(config, observation, observation.kind === "found" ? run.lookup.isEnabled(observation.rule.observerRuleId) : null);
    return "state" in answer ? { state: answer.state } : { state: config, diagnostics: [answer.error] };
  }
}
