/**
 * Evaluation of the search filter structure (docs/interface.md, "Search filter structure"): filters
 * combined inside a group by its filterClause, groups combined by groupClause, then sorting and
 * paging. Generic over the searched records, with one term table per searchable resource; the
 * rule-metadata table is here, an alert table can be added beside it.
 */
import type { OperatorToken } from "../api/search/operators";
import { RULE_METADATA_TERMS } from "../api/search/operators";
import type { Filter, RuleMetadata, SearchRequest } from "../api/rules/schemas";
import { compareStrings } from "../shared/text";
import { datePart } from "./timestamp";

/** How a term's value is compared: text (case-insensitive), date (yyyy-MM-dd part), boolean (True/False). */
export type TermKind = "text" | "date" | "boolean";

export interface TermDefinition<T> {
  readonly operators: readonly OperatorToken[];
  readonly kind: TermKind;
  /** The record's value for this term: a string (text, date: a timestamp) or a boolean. */
  readonly value: (item: T) => string | boolean;
}

export type TermTable<T> = Readonly<Record<string, TermDefinition<T>>>;

/** Sort keys, as accepted in srtKey (case-insensitive), to the value sorted on. */
export type SortKeys<T> = Readonly<Record<string, (item: T) => string>>;

export interface SearchSpec<T> {
  readonly terms: TermTable<T>;
  readonly sortKeys: SortKeys<T>;
  /** Orders records that sort equal, so paging is stable. */
  readonly tieBreak: (item: T) => string;
}

export type SearchOutcome<T> = { ok: true; page: T[]; totalCount: number } | { ok: false; message: string };

/** The largest page the simulator returns; larger pgSize values are capped. */
export const MAX_PAGE_SIZE = 500;

type Predicate<T> = (item: T) => boolean;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function compileFilter<T>(filter: Filter, where: string, terms: TermTable<T>): Predicate<T> | string {
  const term = Object.hasOwn(terms, filter.term) ? terms[filter.term] : undefined;
  if (term === undefined) {
    return `${where}.term: unknown term "${filter.term}"; known terms: ${Object.keys(terms).join(", ")}`;
  }
  const operator = filter.operator as OperatorToken;
  if (!term.operators.includes(operator)) {
    return `${where}.operator: operator "${filter.operator}" is not allowed for term ${filter.term}; allowed: ${term.operators.join(", ")}`;
  }
  const wanted = filter.value.trim().toLowerCase();
  switch (term.kind) {
    case "boolean": {
      if (wanted !== "true" && wanted !== "false") return `${where}.value: ${filter.term} takes True or False, not "${filter.value}"`;
      const flag = wanted === "true";
      return (item) => term.value(item) === flag;
    }
    case "date": {
      if (!DATE.test(wanted)) return `${where}.value: ${filter.term} takes a date yyyy-MM-dd, not "${filter.value}"`;
      return (item) => {
        const day = datePart(String(term.value(item)));
        if (operator === "ON") return day === wanted;
        if (operator === "ON_OR_AFTER") return day >= wanted;
        return day <= wanted;
      };
    }
    case "text":
      return (item) => {
        const actual = String(term.value(item)).toLowerCase();
        switch (operator) {
          case "IS":
            return actual === wanted;
          case "IS_NOT":
            return actual !== wanted;
          case "CONTAINS":
            return actual.includes(wanted);
          case "DOES_NOT_CONTAIN":
            return !actual.includes(wanted);
          default:
            return false;
        }
      };
  }
}

function combine<T>(predicates: Array<Predicate<T>>, clause: "AND" | "OR"): Predicate<T> {
  // A group without filters (or a request without groups) matches everything.
  if (predicates.length === 0) return () => true;
  return clause === "AND" ? (item) => predicates.every((p) => p(item)) : (item) => predicates.some((p) => p(item));
}

/** Filters, sorts and pages `items` as the service would; a bad filter or paging value is an outcome, not a throw. */
export function search<T>(items: readonly T[], request: SearchRequest, spec: SearchSpec<T>): SearchOutcome<T> {
  const problems: string[] = [];
  const groups: Array<Predicate<T>> = [];
  request.groups.forEach((group, g) => {
    const filters: Array<Predicate<T>> = [];
    group.filters.forEach((filter, f) => {
      const compiled = compileFilter(filter, `groups[${g}].filters[${f}]`, spec.terms);
      if (typeof compiled === "string") problems.push(compiled);
      else filters.push(compiled);
    });
    groups.push(combine(filters, group.filterClause));
  });

  const sortEntry = Object.entries(spec.sortKeys).find(([key]) => key.toLowerCase() === request.srtKey.toLowerCase());
  if (sortEntry === undefined) problems.push(`srtKey: unknown sort key "${request.srtKey}"; known keys: ${Object.keys(spec.sortKeys).join(", ")}`);
  const pgSize = Number(request.pgSize);
  const pgNum = Number(request.pgNum);
  if (!Number.isSafeInteger(pgSize) || pgSize < 1) problems.push(`pgSize: must be at least 1, not "${request.pgSize}"`);
  if (!Number.isSafeInteger(pgNum)) problems.push(`pgNum: not a page number: "${request.pgNum}"`);
  if (problems.length > 0 || sortEntry === undefined) return { ok: false, message: problems.join("; ") };

  const matches = items.filter(combine(groups, request.groupClause));
  const sortValue = sortEntry[1];
  const direction = request.srtDirection === "ASC" ? 1 : -1;
  const sorted = [...matches].sort((a, b) => {
    const primary = compareIgnoringCase(sortValue(a), sortValue(b));
    return (primary !== 0 ? primary : compareIgnoringCase(spec.tieBreak(a), spec.tieBreak(b))) * direction;
  });
  const size = Math.min(pgSize, MAX_PAGE_SIZE);
  return { ok: true, page: sorted.slice(pgNum * size, pgNum * size + size), totalCount: matches.length };
}

/** Sort keys compare case-insensitively (lower case, then UTF-16 code units). */
function compareIgnoringCase(a: string, b: string): number {
  return compareStrings(a.toLowerCase(), b.toLowerCase());
}

const text = (value: (rule: RuleMetadata) => string): TermDefinition<RuleMetadata>["value"] => value;

/** The rule-metadata terms of docs/interface.md with the operators of src/api/search/operators.ts. */
export const RULE_METADATA_SEARCH: SearchSpec<RuleMetadata> = {
  terms: {
    TenantId: { operators: RULE_METADATA_TERMS.TenantId, kind: "text", value: text((r) => r.tenantId) },
    ObserverRuleId: { operators: RULE_METADATA_TERMS.ObserverRuleId, kind: "text", value: text((r) => r.observerRuleId) },
    Type: { operators: RULE_METADATA_TERMS.Type, kind: "text", value: text((r) => r.type) },
    Name: { operators: RULE_METADATA_TERMS.Name, kind: "text", value: text((r) => r.name) },
    Description: { operators: RULE_METADATA_TERMS.Description, kind: "text", value: text((r) => r.description) },
    Severity: { operators: RULE_METADATA_TERMS.Severity, kind: "text", value: text((r) => r.severity) },
    IsSystem: { operators: RULE_METADATA_TERMS.IsSystem, kind: "boolean", value: (r) => r.isSystem },
    IsEnabled: { operators: RULE_METADATA_TERMS.IsEnabled, kind: "boolean", value: (r) => r.isEnabled },
    RuleSource: { operators: RULE_METADATA_TERMS.RuleSource, kind: "text", value: text((r) => r.ruleSource) },
    ModifiedAt: { operators: RULE_METADATA_TERMS.ModifiedAt, kind: "date", value: text((r) => r.modifiedAt) },
    ModifiedBy: { operators: RULE_METADATA_TERMS.ModifiedBy, kind: "text", value: text((r) => r.modifiedBy) },
    CreatedAt: { operators: RULE_METADATA_TERMS.CreatedAt, kind: "date", value: text((r) => r.createdAt) },
    CreatedBy: { operators: RULE_METADATA_TERMS.CreatedBy, kind: "text", value: text((r) => r.createdBy) },
  },
  sortKeys: { CreatedAt: (r) => r.createdAt, Name: (r) => r.name },
  tieBreak: (r) => r.observerRuleId,
};
