/**
 * Contract: rule-metadata search. Paging reads every page and respects totalCount; every term
 * and operator reaches the server as its wire token and filters what it should.
 */
import { RULE_METADATA_TERMS, filter, group, type RuleMetadata } from "../../src/api";
import { useSimulator } from "../support/simulator";
import { clientFor } from "./helpers";

const sim = useSimulator();
let rules: RuleMetadata[];
beforeAll(() => {
  rules = sim.rules().map((r) => r.metadata);
});

const ids = (list: readonly RuleMetadata[]) => list.map((r) => r.id).sort();

describe("paging", () => {
  it.each([2, 3, 4, 100])("reads every rule exactly once with page size %i, in ceil(total / size) searches", async (pageSize) => {
    // given
    const { client } = clientFor(sim);
    // when
    const found = await client.searchRuleMetadata([], { pageSize });
    // then
    expect(ids(found)).toEqual(ids(rules));
    expect(new Set(found.map((r) => r.id)).size).toBe(found.length);
    expect(client.counter.snapshot().byOperation["query-rule-metadata"]).toEqual({
      calls: Math.ceil(rules.length / pageSize),
      attempts: Math.ceil(rules.length / pageSize),
    });
  });

  it("stops at totalCount even when a filter leaves fewer rules than a page", async () => {
    const { client } = clientFor(sim);
    const found = await client.searchRuleMetadata([group([filter("IsSystem", "Is", "True")])], { pageSize: 3 });
    expect(found.length).toBe(rules.filter((r) => r.isSystem).length);
    expect(client.counter.snapshot().calls).toBe(1);
  });

  it("returns one page with totalCount, newest first by default", async () => {
    const { client } = clientFor(sim);
    const page = await client.queryRuleMetadataPage([], { pageSize: 2, pageNumber: 1 });
    const newestFirst = [...rules].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    expect(page.totalCount).toBe(rules.length);
    expect(page.ruleMetadata.map((r) => r.createdAt)).toEqual(newestFirst.slice(2, 4).map((r) => r.createdAt));
    const oldest = await client.queryRuleMetadataPage([], { pageSize: 1, sortDirection: "ASC" });
    expect(oldest.ruleMetadata[0]?.createdAt).toBe(newestFirst[newestFirst.length - 1]?.createdAt);
  });

  it("ORs groups by default and ANDs filters inside a group", async () => {
    const { client } = clientFor(sim);
    const [first, second] = rules;
    const either = await client.searchRuleMetadata(
      [group([filter("ObserverRuleId", "Is", first!.observerRuleId)]), group([filter("ObserverRuleId", "Is", second!.observerRuleId)])],
      { pageSize: 1 },
    );
    expect(ids(either)).toEqual(ids([first!, second!]));
    const both = await client.searchRuleMetadata([
      group([filter("ObserverRuleId", "Is", first!.observerRuleId), filter("ObserverRuleId", "Is", second!.observerRuleId)]),
    ]);
    expect(both).toEqual([]);
    const anded = await client.searchRuleMetadata(
      [group([filter("IsSystem", "Is", "True")]), group([filter("Severity", "Is", "High")])],
      { groupClause: "AND" },
    );
    expect(ids(anded)).toEqual(ids(rules.filter((r) => r.isSystem && r.severity.toLowerCase() === "high")));
  });
});

// What each term reads from a rule, and how its operators compare (the interface's semantics).
const termValue: Record<keyof typeof RULE_METADATA_TERMS, (r: RuleMetadata) => string> = {
  TenantId: (r) => r.tenantId,
  ObserverRuleId: (r) => r.observerRuleId,
  Type: (r) => r.type,
  Name: (r) => r.name,
  Description: (r) => r.description,
  Severity: (r) => r.severity,
  IsSystem: (r) => String(r.isSystem),
  IsEnabled: (r) => String(r.isEnabled),
  RuleSource: (r) => r.ruleSource,
  ModifiedAt: (r) => r.modifiedAt.slice(0, 10),
  ModifiedBy: (r) => r.modifiedBy,
  CreatedAt: (r) => r.createdAt.slice(0, 10),
  CreatedBy: (r) => r.createdBy,
};

function matches(term: keyof typeof RULE_METADATA_TERMS, token: string, value: string, rule: RuleMetadata): boolean {
  const actual = termValue[term](rule).toLowerCase();
  const wanted = value.toLowerCase();
  switch (token) {
    case "IS":
    case "ON":
      return actual === wanted;
    case "IS_NOT":
      return actual !== wanted;
    case "CONTAINS":
      return actual.includes(wanted);
    case "DOES_NOT_CONTAIN":
      return !actual.includes(wanted);
    case "ON_OR_AFTER":
      return actual >= wanted;
    case "ON_OR_BEFORE":
      return actual <= wanted;
    default:
      throw new Error(`unknown token ${token}`);
  }
}

/** A value for a term that some rules match and, where possible, some do not. */
function sampleValue(term: keyof typeof RULE_METADATA_TERMS, token: string): string {
  const sample = rules[1]!;
  switch (term) {
    case "IsSystem":
      return "True";
    case "IsEnabled":
      return "False";
    case "Severity":
      return "High";
    default: {
      const value = termValue[term](sample);
      if (token === "CONTAINS" || token === "DOES_NOT_CONTAIN") {
        const word = value.split(/[\s@.-]+/).find((w) => w.length >= 4) ?? value;
        return word.slice(0, 4);
      }
      return value;
    }
  }
}

const cases = Object.entries(RULE_METADATA_TERMS).flatMap(([term, tokens]) =>
  tokens.map((token) => [term as keyof typeof RULE_METADATA_TERMS, token] as const),
);

describe("filters reach the server as wire tokens and filter", () => {
  it.each(cases)("%s %s", async (term, token) => {
    // given a term, an operator given in words, and a value taken from the sample tenant
    const { client } = clientFor(sim);
    const words = token.charAt(0) + token.slice(1).toLowerCase().replace(/_/g, " ");
    const value = sampleValue(term, token);
    const built = filter(term, words, value);
    expect(built.operator).toBe(token);
    // when
    const found = await client.searchRuleMetadata([group([built])], { pageSize: 3 });
    // then exactly the rules the interface's semantics select come back
    const expected = rules.filter((r) => matches(term, token, value, r));
    expect(ids(found)).toEqual(ids(expected));
  });

  it("selects something for every positive case and leaves something out for every negative one", () => {
    for (const [term, token] of cases) {
      const value = sampleValue(term, token);
      const selected = rules.filter((r) => matches(term, token, value, r)).length;
      if (token === "IS_NOT" || token === "DOES_NOT_CONTAIN") expect(selected).toBeLessThan(rules.length);
      else expect(selected).toBeGreaterThan(0);
    }
  });
});
