/**
 * The `alertrules_rules` data source: the rules of the tenant, as `rules list` reads them (one
 * metadata search, one query-users per editable rule for its list type), every one or those its
 * filters keep (`name_regex`, `list_type`, `include_system`). `name_regex` is matched by RE2's
 * engine (re2js, pure JavaScript, bundled into the provider): time linear in the name whatever
 * the pattern, so no pattern can keep a plan busy, and a read ends when Terraform stops the provider.
 */
import { RE2JS } from "re2js";
import type { RuleRow } from "../../core/live/who";
import { listRules } from "../../io/workflow";
import { printable, printableValues } from "../../core/render";
import type { ProviderRun } from "../configure";
import type { Diagnostic } from "../protocol";
import { UNKNOWN } from "../protocol";
import type { DataSource } from "../framework/resource";
import { modelCodec } from "../framework/model";
import { rulesDataSourceSchema } from "../schema";
import { messageOf } from "../../io/door-words";

/** The model of an `alertrules_rules` value: its filters and the rules it read. */
export const rulesModel = modelCodec(rulesDataSourceSchema, {
  nameRegex: ["name_regex", "string"],
  listType: ["list_type", "string"],
  includeSystem: ["include_system", "bool"],
  rules: ["rules", "value"],
} as const);

export type RulesModel = ReturnType<typeof rulesModel.decode>;

const LIST_TYPES = ["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"] as const;

/** The filters of a configuration, or what is wrong with them (each with its attribute). */
export type RulesFilter = { readonly keep: (row: RuleRow) => boolean } | { readonly problems: Diagnostic[] };

export function rulesFilter(config: RulesModel): RulesFilter {
  const problems: Diagnostic[] = [];
  const { nameRegex: pattern, listType, includeSystem: includeSystemValue } = config;
  let regex: RE2JS | null = null;
  if (typeof pattern === "string") {
    try {
      regex = RE2JS.compile(pattern);
    } catch (err) {
      problems.push({ severity: "error", summary: "Invalid name_regex", detail: `name_regex is not a regular expression of RE2 syntax (matched in linear time: no lookaround, no backreferences): ${printable(messageOf(err))}.`, attribute: ["name_regex"] });
    }
  }
  if (typeof listType === "string" && !(LIST_TYPES as readonly string[]).includes(listType)) {
    problems.push({ severity: "error", summary: "Invalid list_type", detail: `list_type ${JSON.stringify(listType)} is not one of ${LIST_TYPES.join(", ")} (the rule's usersToAlertOn).`, attribute: ["list_type"] });
  }
  if (problems.length > 0) return { problems };
  const includeSystem = includeSystemValue !== false;
  return {
    keep: (row) => (regex === null || regex.matcher(row.name).find()) && (typeof listType !== "string" || row.listType === listType) && (includeSystem || !row.isSystem),
  };
}

/** `work`, or a rejection as soon as Terraform stops the provider (a read in flight is not waited for). */
export function untilStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const stopped = () => new Error("Terraform stopped the provider: the data source was not read.");
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stopped());
    signal.addEventListener("abort", onStop, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onStop);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onStop);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export class RulesDataSource implements DataSource<RulesModel, ProviderRun> {
  readonly schema = rulesDataSourceSchema;
  readonly model = rulesModel;

  validate(config: RulesModel): Diagnostic[] {
    if (config.nameRegex === UNKNOWN || config.listType === UNKNOWN) return [];
    const filter = rulesFilter(config);
    return "problems" in filter ? filter.problems : [];
  }

  async read(config: RulesModel, run: ProviderRun): Promise<{ state: RulesModel; diagnostics?: Diagnostic[] }> {
    const filter = rulesFilter(config);
    if ("problems" in filter) return { state: { ...config, rules: [] }, diagnostics: filter.problems };
    const rows = (await untilStopped(listRules(run.session), run.signal)).filter(filter.keep);
    return {
      state: {
        ...config,
        // names come from the service: Terraform prints them as they are, so nothing in them may draw
        rules: printableValues(rows.map((r) => ({ rule_id: r.ruleId, name: r.name, list_type: r.listType, is_system: r.isSystem, rule_source: r.ruleSource, is_enabled: r.isEnabled }))),
      },
    };
  }
}
