/**
 * The metadata of an editable rule as a tenant seed (or a hand-built service) carries it: the
 * fields the tests vary are given, the rest are fixed. One builder for the reliability suite's
 * generated tenants instead of a copy per file.
 */
const STAMP = "2026-01-05T10:00:00.0000000Z";

export interface EditableRule {
  readonly observerRuleId: string;
  readonly name: string;
  readonly description: string;
  /** @default `meta-${observerRuleId}` */
  readonly id?: string;
}

export function editableRuleMetadata(rule: EditableRule) {
  return {
    id: rule.id ?? `meta-${rule.observerRuleId}`,
    observerRuleId: rule.observerRuleId,
    name: rule.name,
    description: rule.description,
    severity: "MEDIUM",
    type: "FED_ENDPOINT_EXFILTRATION",
    isSystem: false,
    isEnabled: true,
    ruleSource: "Alerting",
    createdAt: STAMP,
    modifiedAt: STAMP,
    createdBy: "seed@example.com",
    modifiedBy: "seed@example.com",
  };
}
