/**
 * The alert filters of query-alerts: one filter checked against ALERT_TERMS and the values the
 * interface fixes, a filter read from text, and the common criteria of `alerts search` as groups.
 */
import { titleCase } from "../../shared/text";
import { InvalidArgumentError } from "../../errors";
import { ALERT_STATE_FILTER_VALUES, SEVERITY_FILTER_VALUES } from "./schemas";
import { filter as buildFilter, group } from "../search/filters";
import { ALERT_TERMS, operatorToken } from "../search/operators";
import type { Filter, FilterGroup } from "../rules/schemas";
import { checkDate } from "./validate";

/** The common criteria of `alerts search`, combined with AND into one group. */
export interface AlertCriteria {
  /** Actor Is (exact username or cloud alias, case-insensitive on the simulator). */
  readonly actor?: string | undefined;
  /** Severity Is: High, Medium or Low (any case; sent in title case). */
  readonly severity?: string | undefined;
  /** AlertState Is: Open or Dismissed (any case; sent in title case). */
  readonly state?: string | undefined;
  /** RuleName Is. */
  readonly ruleName?: string | undefined;
  /** DateObserved On or after, yyyy-MM-dd. */
  readonly since?: string | undefined;
  /** DateObserved On or before, yyyy-MM-dd. */
  readonly until?: string | undefined;
  /** More filters (already built, e.g. with parseAlertFilter). */
  readonly filters?: readonly Filter[] | undefined;
}

/**
 * An alert filter: the term and operator checked against ALERT_TERMS (operators in words or as
 * wire tokens), and the value checked where the interface fixes it (Severity High/Medium/Low,
 * AlertState Open/Dismissed, both normalized to title case; DateObserved yyyy-MM-dd; AlertID
 * non-empty). Throws InvalidArgumentError.
 */
export function alertFilter(term: string, operator: string, value: string): Filter {
  const built = buildFilter(term, operator, value, { terms: ALERT_TERMS });
  return { ...built, value: checkAlertValue(built.term, value) };
}

/** Parses `"TERM OPERATOR VALUE"` (`"DateObserved On or after 2026-01-01"`) into a checked alert filter. */
export function parseAlertFilter(text: string): Filter {
  const words = text.trim().split(/\s+/);
  const [term, ...rest] = words;
  if (term === undefined || term === "" || rest.length < 2) {
    throw new InvalidArgumentError(`Cannot read the filter '${text}': expected "TERM OPERATOR VALUE", e.g. "Actor Contains alice".`);
  }
  // The longest operator first: "Is not" before "Is", "On or after" before "On".
  for (let length = Math.min(3, rest.length - 1); length >= 1; length -= 1) {
    const operator = rest.slice(0, length).join(" ");
    if (operatorToken(operator) !== undefined) {
      // Keep the value as typed (inner spacing included): cut after term and operator words.
      const value = text.trim().replace(new RegExp(`^\\S+(\\s+\\S+){${length}}\\s+`), "");
      return alertFilter(term, operator, value);
    }
  }
  throw new InvalidArgumentError(
    `Cannot read the filter '${text}': no operator after '${term}'. Operators: Is, Is not, Contains, Does not contain, On, On or after, On or before.`,
  );
}

/** The entry of `allowed` that `value` names (any case), else InvalidArgumentError naming the filter. */
function oneOf<T extends string>(term: string, value: string, allowed: readonly T[]): T {
  const found = titleCase(value, allowed);
  if (found === undefined) throw new InvalidArgumentError(`The ${term} filter takes ${allowed.join(", ")}; got '${value}'.`);
  return found;
}

function checkAlertValue(term: string, value: string): string {
  switch (term) {
    case "Severity":
      return oneOf(term, value, SEVERITY_FILTER_VALUES);
    case "AlertState":
      return oneOf(term, value, ALERT_STATE_FILTER_VALUES);
    case "DateObserved":
      return checkDate(term, value);
    default:
      if (value.trim() === "") throw new InvalidArgumentError(`The ${term} filter needs a value.`);
      return value;
  }
}

/** The filters of `criteria`, in one AND group (no group at all when there is no criterion). */
export function alertCriteriaGroups(criteria: AlertCriteria): FilterGroup[] {
  const filters: Filter[] = [];
  if (criteria.actor !== undefined) filters.push(alertFilter("Actor", "Is", criteria.actor));
  if (criteria.severity !== undefined) filters.push(alertFilter("Severity", "Is", criteria.severity));
  if (criteria.state !== undefined) filters.push(alertFilter("AlertState", "Is", criteria.state));
  if (criteria.ruleName !== undefined) filters.push(alertFilter("RuleName", "Is", criteria.ruleName));
  if (criteria.since !== undefined) filters.push(alertFilter("DateObserved", "On or after", criteria.since));
  if (criteria.until !== undefined) filters.push(alertFilter("DateObserved", "On or before", criteria.until));
  filters.push(...(criteria.filters ?? []));
  return filters.length === 0 ? [] : [group(filters, "AND")];
}

/** Re-checks filter groups built by hand (every filter through alertFilter). */
export function checkAlertGroups(groups: readonly FilterGroup[]): FilterGroup[] {
  // So a bad term never reaches the service.
  return groups.map((g) => group(g.filters.map((f) => alertFilter(f.term, f.operator, f.value)), g.filterClause));
}
