/**
 * Behaviour of query-rule-metadata (src/simulator/README.md, "Rule metadata search").
 */
import { RULE_METADATA_TERMS } from "../../src/api/search/operators";
import type { SearchRequest } from "../../src/api/rules/schemas";
import { useSimulator } from "../support/simulator";
import { SAMPLE, call, filter, ruleIdOf, searchBody, searchNames } from "./helpers";

const sim = useSimulator();

const ALL = 9;

const namesIn = (body: { ruleMetadata: Array<{ name: string }> }): string[] => body.ruleMetadata.map((r) => r.name);

describe("response shape", () => {
  it("answers RULE_METADATA_SEARCH_RESPONSE with full metadata, totalCount and empty problems", async () => {
    // when everything is searched (no groups)
    const answer = await call(sim, "query-rule-metadata", searchBody(sim, []));

    // then all rules come back with the tenant's ID
    expect(answer.status).toBe(200);
    expect(answer.json.type$).toBe("RULE_METADATA_SEARCH_RESPONSE");
    expect(answer.json.totalCount).toBe(ALL);
    expect(answer.json.problems).toEqual([]);
    expect(answer.json.ruleMetadata[0]).toEqual({
      type$: "RULE_METADATA",
      id: expect.any(String),
      observerRuleId: expect.any(String),
      tenantId: sim.tenantId,
      name: expect.any(String),
      description: expect.any(String),
      severity: expect.any(String),
      type: expect.any(String),
      isSystem: expect.any(Boolean),
      isEnabled: expect.any(Boolean),
      ruleSource: expect.any(String),
      createdAt: expect.stringMatching(/\.\d{7}Z$/),
      modifiedAt: expect.stringMatching(/\.\d{7}Z$/),
      createdBy: expect.any(String),
      modifiedBy: expect.any(String),
    });
  });
});

describe("terms and operators", () => {
  const cases: Array<[string, string, string, string, string[] | number]> = [
    // term, operator, value, what it shows, expected names or count
    ["TenantId", "IS", "", "the tenant's own ID matches every rule", ALL],
    ["ObserverRuleId", "IS", "", "one rule by ID", [SAMPLE.byName]],
    ["Type", "IS", "fed_file_type_mismatch", "type, case-insensitively", [SAMPLE.disabled, SAMPLE.byName]],
    ["Type", "IS_NOT", "FED_ENDPOINT_EXFILTRATION", "type excluded", 5],
    ["Name", "IS", "finance FILE type mismatch watch", "exact name, case-insensitively", [SAMPLE.byName]],
    ["Name", "IS_NOT", SAMPLE.byName, "name excluded", ALL - 1],
    ["Name", "CONTAINS", "EXFILTRATION", "part of the name", [SAMPLE.additive, SAMPLE.inclusion, SAMPLE.departing]],
    ["Name", "DOES_NOT_CONTAIN", "e", "no name without an e", 0],
    ["Description", "CONTAINS", "legal hold", "part of the description", [SAMPLE.disabled]],
    ["Description", "DOES_NOT_CONTAIN", "alerts", "description without 'alerts'", 4],
    ["Description", "IS", "Disabled while the legal hold review is paused.", "exact description", [SAMPLE.disabled]],
    ["Description", "IS_NOT", "Disabled while the legal hold review is paused.", "description excluded", ALL - 1],
    ["Severity", "IS", "High", "severity in filter spelling matches upper-case data", 4],
    ["Severity", "IS_NOT", "High", "severity excluded", 5],
    ["IsSystem", "IS", "TRUE", "system rules, True in any case", [SAMPLE.departing, SAMPLE.highRisk]],
    ["IsSystem", "IS", "false", "non-system rules", 7],
    ["IsEnabled", "IS", "False", "disabled rules", [SAMPLE.disabled]],
    ["RuleSource", "IS", "departing employee", "rule source", [SAMPLE.departing]],
    ["RuleSource", "IS_NOT", "Alerting", "rule source excluded", 2],
    ["CreatedAt", "ON", "2025-09-21", "created on a day (date part of the timestamp)", [SAMPLE.byName]],
    ["CreatedAt", "ON_OR_AFTER", "2025-09-21", "created on or after a day", [SAMPLE.additive, SAMPLE.byName]],
    ["CreatedAt", "ON_OR_BEFORE", "2024-11-20", "created on or before a day", [SAMPLE.allUsers, SAMPLE.departing, SAMPLE.highRisk]],
    ["ModifiedAt", "ON", "2025-05-19", "modified on a day", [SAMPLE.disabled]],
    ["ModifiedAt", "ON_OR_AFTER", "2025-12-02", "modified on or after", [SAMPLE.additive, SAMPLE.departing, SAMPLE.inclusion]],
    ["ModifiedAt", "ON_OR_BEFORE", "2025-04-01", "modified on or before", [SAMPLE.allUsers]],
    ["CreatedBy", "IS", "alertvendor", "the vendor's system name", [SAMPLE.departing, SAMPLE.highRisk]],
    ["CreatedBy", "IS_NOT", "AlertVendor", "not the vendor", 7],
    ["CreatedBy", "CONTAINS", "marcus", "creator contains", 3],
    ["CreatedBy", "DOES_NOT_CONTAIN", "@", "creator without @", 2],
    ["ModifiedBy", "IS", "AlertVendor", "modifier", 2],
    ["ModifiedBy", "IS_NOT", "AlertVendor", "modifier excluded", 7],
    ["ModifiedBy", "CONTAINS", "helen", "modifier contains", 2],
    ["ModifiedBy", "DOES_NOT_CONTAIN", "example.com", "modifier without domain", 2],
  ];

  it("covers every term and operator of the interface", () => {
    const covered = new Set(cases.map(([term, operator]) => `${term} ${operator}`));
    for (const [term, operators] of Object.entries(RULE_METADATA_TERMS)) {
      for (const operator of operators) expect(covered).toContain(`${term} ${operator}`);
    }
  });

  it.each(cases)("%s %s %j: %s", async (term, operator, value, _what, expected) => {
    // given the sample tenant; the ID values are filled in from it
    const actual = term === "TenantId" ? sim.tenantId : term === "ObserverRuleId" ? ruleIdOf(sim, SAMPLE.byName) : value;

    // when searched with one filter
    const names = await searchNames(sim, [[filter(term, operator, actual)]]);

    // then exactly the expected rules match (order is covered by the sorting tests)
    if (typeof expected === "number") expect(names).toHaveLength(expected);
    else expect([...names].sort()).toEqual([...expected].sort());
  });

  it("matches a different tenant ID to nothing", async () => {
    expect(await searchNames(sim, [[filter("TenantId", "IS", "someone-else")]])).toEqual([]);
  });
});

describe("combining filters", () => {
  it("ANDs the filters of a group and ORs the groups", async () => {
    // given two groups: (high AND endpoint exfiltration AND not system) OR (name is the finance rule)
    const groups = [
      [filter("Severity", "IS", "High"), filter("Type", "IS", "FED_ENDPOINT_EXFILTRATION"), filter("IsSystem", "IS", "False")],
      [filter("Name", "IS", SAMPLE.byName)],
    ];

    // when searched, then rules of either group match
    expect(await searchNames(sim, groups)).toEqual([SAMPLE.byName, SAMPLE.inclusion]);
  });

  it("ORs filters inside a group with filterClause OR and ANDs groups with groupClause AND", async () => {
    const body = {
      ...searchBody(sim, []),
      groups: [
        { filterClause: "OR", filters: [filter("Name", "CONTAINS", "sales"), filter("Name", "CONTAINS", "finance")] },
        { filterClause: "OR", filters: [filter("Severity", "IS", "High")] },
      ],
      groupClause: "AND",
    };
    const answer = await call(sim, "query-rule-metadata", body);
    expect(namesIn(answer.json)).toEqual([SAMPLE.byName]);
  });

  it("one OR-ed group per rule ID finds exactly those rules (how the planner resolves declared rules)", async () => {
    const ids = [SAMPLE.inclusion, SAMPLE.allUsers, SAMPLE.noIds].map((name) => ruleIdOf(sim, name));
    const names = await searchNames(sim, ids.map((id) => [filter("ObserverRuleId", "IS", id)]));
    expect(names.sort()).toEqual([SAMPLE.inclusion, SAMPLE.allUsers, SAMPLE.noIds].sort());
  });
});

describe("paging and sorting", () => {
  it("pages with pgSize and 0-based pgNum; totalCount counts all matches", async () => {
    // given all rules, newest first
    const all = await searchNames(sim, []);

    // when read in pages of 4
    const pages: string[][] = [];
    for (let pgNum = 0; pgNum < 4; pgNum++) {
      const answer = await call(sim, "query-rule-metadata", searchBody(sim, [], { pgSize: "4", pgNum: String(pgNum) }));
      expect(answer.json.totalCount).toBe(ALL);
      pages.push(namesIn(answer.json));
    }

    // then the pages split the full list in order, and a page past the end is empty
    expect(pages.map((page) => page.length)).toEqual([4, 4, 1, 0]);
    expect(pages.flat()).toEqual(all);
  });

  it("sorts by CreatedAt DESC or ASC, and by Name", async () => {
    const desc = await searchNames(sim, [], { srtDirection: "DESC" });
    const asc = await searchNames(sim, [], { srtDirection: "ASC" });
    const byName = await searchNames(sim, [], { srtKey: "Name", srtDirection: "ASC" });
    expect(asc).toEqual([...desc].reverse());
    expect(desc[0]).toBe(SAMPLE.additive); // created 2025-11-05, the newest
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it("caps pgSize at 500", async () => {
    const answer = await call(sim, "query-rule-metadata", searchBody(sim, [], { pgSize: "100000" }));
    expect(answer.status).toBe(200);
    expect(answer.json.ruleMetadata).toHaveLength(ALL);
  });
});

describe("refusals", () => {
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown term", { groups: [{ filterClause: "AND", filters: [filter("Colour", "IS", "red")] }] }, 'unknown term "Colour"'],
    ["an operator not allowed for the term", { groups: [{ filterClause: "AND", filters: [filter("Severity", "CONTAINS", "Hi")] }] }, 'operator "CONTAINS" is not allowed for term Severity'],
    ["an operator in words instead of its wire token", { groups: [{ filterClause: "AND", filters: [filter("Name", "Is not", "x")] }] }, 'operator "Is not"'],
    ["a date that is not yyyy-MM-dd", { groups: [{ filterClause: "AND", filters: [filter("CreatedAt", "ON", "21/09/2025")] }] }, "groups[0].filters[0].value"],
    ["a boolean that is not True/False", { groups: [{ filterClause: "AND", filters: [filter("IsSystem", "IS", "yes")] }] }, "True or False"],
    ["an unknown sort key", { srtKey: "Severity" }, 'unknown sort key "Severity"'],
    ["pgSize 0", { pgSize: "0" }, "pgSize"],
  ];

  it.each(refusals)("answers 400 INVALID_FILTER for %s, naming it", async (_what, overrides, named) => {
    const answer = await call(sim, "query-rule-metadata", { ...searchBody(sim, []), ...overrides });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("INVALID_FILTER");
    expect(answer.json.message).toContain(named);
  });

  it("answers 400 INVALID_REQUEST naming a missing or malformed body field", async () => {
    const noPage: Partial<SearchRequest> = searchBody(sim, []);
    delete noPage.pgNum;
    const missing = await call(sim, "query-rule-metadata", noPage);
    const badClause = await call(sim, "query-rule-metadata", { ...searchBody(sim, []), groupClause: "XOR" });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe("INVALID_REQUEST");
    expect(missing.json.message).toContain("pgNum");
    expect(badClause.json.message).toContain("groupClause");
  });
});
