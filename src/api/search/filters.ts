/**
 * Builders for the search filter structure of query-alerts and query-rule-metadata
 * (docs/interface.md "Search filter structure"). Operators may be given in words, as the interface
 * names them ("On or after"), or as wire tokens ("ON_OR_AFTER"); only the wire token is sent.
 */
import { InvalidArgumentError } from "../../errors";
import { ALERT_TERMS, RULE_METADATA_TERMS, operatorToken, type OperatorToken } from "./operators";
import type { Filter, FilterGroup, SearchRequest } from "./schemas";

/** A table of filter terms and the operators each accepts. */
export type TermTable = Readonly<Record<string, readonly OperatorToken[]>>;

/** Every term of both searches; a term in both tables accepts the operators of either. */
export const ALL_TERMS: TermTable = mergeTables(RULE_METADATA_TERMS, ALERT_TERMS);

export type Clause = "AND" | "OR";

export interface FilterOptions {
  /** The terms allowed, e.g. RULE_METADATA_TERMS or ALERT_TERMS. @default - ALL_TERMS */
  readonly terms?: TermTable;
}

/**
 * One filter. The term is matched case-insensitively and sent with the interface's spelling;
 * throws InvalidArgumentError naming the term and operator when the term is unknown or does not
 * accept the operator.
 */
export function filter(term: string, operator: string, value: string, options: FilterOptions = {}): Filter {
  const terms = options.terms ?? ALL_TERMS;
  const canonical = Object.keys(terms).find((t) => t.toLowerCase() === term.trim().toLowerCase());
  if (canonical === undefined) {
    throw new InvalidArgumentError(`Unknown filter term '${term}'. Known terms: ${Object.keys(terms).join(", ")}.`);
  }
  const allowed = terms[canonical] ?? [];
  const token = operatorToken(operator);
  if (token === undefined || !allowed.includes(token)) {
    throw new InvalidArgumentError(
      `Filter term '${canonical}' does not accept the operator '${operator}'. Use one of: ${allowed.map(operatorWords).join(", ")}.`,
    );
  }
  return { term: canonical, operator: token, value };
}

/** A group of filters combined by `clause`. */
export function group(filters: readonly Filter[], clause: Clause = "AND"): FilterGroup {
  return { filters: [...filters], filterClause: clause };
}

export interface SearchRequestOptions {
  /** How groups combine. @default "OR" */
  readonly groupClause?: Clause | undefined;
  /** @default 100 */
  readonly pgSize?: number | undefined;
  /** Zero-based page number. @default 0 */
  readonly pgNum?: number | undefined;
  /** @default "CreatedAt" */
  readonly srtKey?: string | undefined;
  /** @default "DESC" */
  readonly srtDirection?: "ASC" | "DESC" | undefined;
}

/** One page of a search (query-alerts, query-rule-metadata), in the words of the clients. */
export interface SearchPageOptions {
  /** How groups combine. @default "OR" */
  readonly groupClause?: Clause | undefined;
  /** @default - the operation's page size (100 for rule metadata, 20 for alerts) */
  readonly pageSize?: number | undefined;
  /** Zero-based. @default 0 */
  readonly pageNumber?: number | undefined;
  /** @default "CreatedAt" */
  readonly sortKey?: string | undefined;
  /** @default "DESC" */
  readonly sortDirection?: "ASC" | "DESC" | undefined;
}

/** The request options of one page, `pageSize` when the options give none. */
export function pageRequestOptions(options: SearchPageOptions, pageSize: number): SearchRequestOptions {
  return {
    groupClause: options.groupClause,
    pgSize: options.pageSize ?? pageSize,
    pgNum: options.pageNumber,
    srtKey: options.sortKey,
    srtDirection: options.sortDirection,
  };
}

/** The whole search body; page size and number are sent as strings, as the interface shows. */
export function searchRequest(
  tenantId: string,
  groups: readonly FilterGroup[],
  options: SearchRequestOptions = {},
): SearchRequest {
  const pgSize = options.pgSize ?? 100;
  const pgNum = options.pgNum ?? 0;
  const problems: string[] = [];
  if (!Number.isInteger(pgSize) || pgSize < 1) problems.push(`page size must be a whole number of at least 1 (got ${pgSize})`);
  if (!Number.isInteger(pgNum) || pgNum < 0) problems.push(`page number must be a whole number of 0 or more (got ${pgNum})`);
  if (problems.length > 0) throw new InvalidArgumentError(`Invalid search request: ${problems.join("; ")}.`);
  return {
    tenantId,
    groups: groups.map((g) => group(g.filters, g.filterClause)),
    groupClause: options.groupClause ?? "OR",
    pgSize: String(pgSize),
    pgNum: String(pgNum),
    srtKey: options.srtKey ?? "CreatedAt",
    srtDirection: options.srtDirection ?? "DESC",
  };
}

/**
 * Parses `"TERM OPERATOR VALUE"` as the interface names them (`"Actor Contains alice"`,
 * `"DateObserved On or after 2026-01-01"`); the longest operator that matches wins.
 */
export function parseFilter(text: string, options: FilterOptions = {}): Filter {
  const words = text.trim().split(/\s+/);
  const [term, ...rest] = words;
  if (term === undefined || term === "" || rest.length < 2) {
    throw new InvalidArgumentError(`Cannot read the filter '${text}': expected "TERM OPERATOR VALUE", e.g. "Actor Contains alice".`);
  }
  for (let operatorLength = Math.min(3, rest.length - 1); operatorLength >= 1; operatorLength -= 1) {
    const operator = rest.slice(0, operatorLength).join(" ");
    if (operatorToken(operator) !== undefined) {
      return filter(term, operator, rest.slice(operatorLength).join(" "), options);
    }
  }
  throw new InvalidArgumentError(
    `Cannot read the filter '${text}': no operator after '${term}'. Operators: Is, Is not, Contains, Does not contain, On, On or after, On or before.`,
  );
}

function operatorWords(token: OperatorToken): string {
  const word = token.charAt(0) + token.slice(1).toLowerCase().replace(/_/g, " ");
  return `${word} (${token})`;
}

function mergeTables(...tables: TermTable[]): TermTable {
  const merged: Record<string, OperatorToken[]> = {};
  for (const table of tables) {
    for (const [term, operators] of Object.entries(table)) {
      const existing = merged[term] ?? [];
      merged[term] = [...existing, ...operators.filter((o) => !existing.includes(o))];
    }
  }
  return merged;
}
