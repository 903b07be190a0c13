/**
 * Facts about a rule that every part of the engine reads the same way: which rules are system
 * rules. The diff skips them, the observation does not read their lists, the import leaves them
 * out. Pure.
 */
import type { RuleFacts } from "./observation";

const SYSTEM_SOURCES = new Set(["departing employee", "high risk employee"]);

/** System rules (Departing Employee, High Risk Employee) cannot be edited: they are skipped. */
export function isSystemRule(rule: RuleFacts): boolean {
  return rule.isSystem || SYSTEM_SOURCES.has(rule.ruleSource.trim().toLowerCase());
}
