/**
 * Filter operators: the interface document names them in words ("Is not", "On or after");
 * the service takes upper-case wire tokens. This is the one table that maps between them.
 */
export const OPERATOR_TOKENS = {
  Is: "IS",
  "Is not": "IS_NOT",
  Contains: "CONTAINS",
  "Does not contain": "DOES_NOT_CONTAIN",
  On: "ON",
  "On or after": "ON_OR_AFTER",
  "On or before": "ON_OR_BEFORE",
} as const;

export type OperatorWord = keyof typeof OPERATOR_TOKENS;
export type OperatorToken = (typeof OPERATOR_TOKENS)[OperatorWord];

export const OPERATOR_WORDS = Object.keys(OPERATOR_TOKENS) as OperatorWord[];
export const ALL_OPERATOR_TOKENS = Object.values(OPERATOR_TOKENS) as OperatorToken[];

const TEXT = ["IS", "IS_NOT", "CONTAINS", "DOES_NOT_CONTAIN"] as const satisfies readonly OperatorToken[];
const EQUALITY = ["IS", "IS_NOT"] as const satisfies readonly OperatorToken[];
const ONLY_IS = ["IS"] as const satisfies readonly OperatorToken[];
const DATE = ["ON", "ON_OR_AFTER", "ON_OR_BEFORE"] as const satisfies readonly OperatorToken[];

/** Filter terms of query-rule-metadata and the operators each accepts (docs/interface.md). */
export const RULE_METADATA_TERMS = {
  TenantId: ONLY_IS,
  ObserverRuleId: ONLY_IS,
  Type: EQUALITY,
  Name: TEXT,
  Description: TEXT,
  Severity: EQUALITY,
  IsSystem: ONLY_IS,
  IsEnabled: ONLY_IS,
  RuleSource: EQUALITY,
  ModifiedAt: DATE,
  ModifiedBy: TEXT,
  CreatedAt: DATE,
  CreatedBy: TEXT,
} as const satisfies Record<string, readonly OperatorToken[]>;

/** Filter terms of query-alerts and the operators each accepts (docs/interface.md). */
export const ALERT_TERMS = {
  DateObserved: DATE,
  Actor: TEXT,
  Severity: EQUALITY,
  RuleName: TEXT,
  Description: TEXT,
  AlertState: EQUALITY,
  AlertID: ONLY_IS,
} as const satisfies Record<string, readonly OperatorToken[]>;

export type RuleMetadataTerm = keyof typeof RULE_METADATA_TERMS;
export type AlertTerm = keyof typeof ALERT_TERMS;

/** Maps an operator given in words (any case, any spacing) to its wire token, or undefined. */
export function operatorToken(words: string): OperatorToken | undefined {
  const wanted = words.trim().replace(/\s+/g, " ").toLowerCase();
  for (const word of OPERATOR_WORDS) {
    if (word.toLowerCase() === wanted) return OPERATOR_TOKENS[word];
  }
  const asToken = wanted.toUpperCase().replace(/ /g, "_");
  return (ALL_OPERATOR_TOKENS as string[]).includes(asToken) ? (asToken as OperatorToken) : undefined;
}
