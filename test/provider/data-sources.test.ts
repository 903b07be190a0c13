/**
 * The data sources against the simulator: `alertrules_rule` (one rule by rule_id or rule_name, its
 * facts and live users, refusals in the data source's words) and the filters of `alertrules_rules`
 * (name_regex, list_type, include_system).
 */
import { RULE_DATA_SOURCE, RULES_DATA_SOURCE, ruleDataSourceSchema, rulesDataSourceSchema } from "../../src/provider/schema";
import type { DataSourceType, ObjectValue, Value } from "../../src/provider/protocol";
import { rulesFilter, rulesModel } from "../../src/provider/resources/rules-data-source";
import type { RuleRow } from "../../src/core/live/who";
import { useSimulator } from "../support/simulator";
import { FINANCE_NAME, RULES } from "../support/sample";
import { configuredProvider, decoded, errorsOf } from "./support";

const sim = useSimulator();

async function dataSource(type: string): Promise<DataSourceType> {
  const { provider, diagnostics } = await configuredProvider(sim);
  expect(errorsOf(diagnostics)).toEqual([]);
  return provider.dataSources[type]!;
}
const ruleConfig = (values: Record<string, Value>) => decoded(ruleDataSourceSchema, values);
const rulesConfig = (values: Record<string, Value>) => decoded(rulesDataSourceSchema, values);
const names = (state: ObjectValue) => (state["rules"] as ObjectValue[]).map((r) => r["name"]);

describe("data source alertrules_rule", () => {
  it("reads a rule by name: its facts and its live users, by user ID", async () => {
    const read = await (await dataSource(RULE_DATA_SOURCE)).readDataSource(ruleConfig({ rule_name: FINANCE_NAME }));
    expect(read.diagnostics ?? []).toEqual([]);
    expect(read.state).toEqual({
      rule_id: RULES.finance,
      rule_name: FINANCE_NAME,
      id: RULES.finance,
      list_type: "SPECIFIED_USERS",
      is_system: false,
      rule_source: "Alerting",
      is_enabled: true,
      users: [
        { user_id: "908712345678903001", aliases: ["frank.moreau@example.com", "f.moreau@finance.example.com"] },
        { user_id: "908712345678903002", aliases: ["grace.kim@example.com"] },
      ],
    });
  });

  it("says whether the rule is enabled, as its metadata does (isEnabled)", async () => {
    const source = await dataSource(RULE_DATA_SOURCE);
    const legal = await source.readDataSource(ruleConfig({ rule_id: RULES.legal }));
    expect(legal.diagnostics ?? []).toEqual([]);
    expect(legal.state).toMatchObject({ rule_id: RULES.legal, is_enabled: false });
    const departing = await source.readDataSource(ruleConfig({ rule_id: RULES.departing }));
    expect(departing.state).toMatchObject({ is_system: true, is_enabled: true });
  });

  it("reads a rule by ID; entries without a user ID have a null user_id; a system rule has no list", async () => {
    const source = await dataSource(RULE_DATA_SOURCE);
    const research = await source.readDataSource(ruleConfig({ rule_id: RULES.research }));
    expect((research.state["users"] as ObjectValue[]).filter((u) => u["user_id"] === null).length).toBeGreaterThan(0);
    const departing = await source.readDataSource(ruleConfig({ rule_id: RULES.departing }));
    expect(departing.state).toMatchObject({ is_system: true, rule_source: "Departing Employee", list_type: null, users: [] });
  });

  it.each([
    [{ rule_name: "Finance file type mismatch wach" }, "rule_name", /No rule is named "Finance file type mismatch wach".*set rule_id instead/],
    [{ rule_id: "0000" }, "rule_id", /No rule has the ID "0000".*check rule_id/],
  ])("says in its own words that %o names no rule", async (values, attribute, detail) => {
    const read = await (await dataSource(RULE_DATA_SOURCE)).readDataSource(ruleConfig(values));
    expect(errorsOf(read.diagnostics)).toEqual([expect.objectContaining({ summary: "Rule not found", attribute: [attribute], detail: expect.stringMatching(detail) as unknown })]);
    expect(read.diagnostics![0]!.detail).not.toMatch(/ruleId|ruleName/);
  });

  it("refuses at validate neither or both of rule_id and rule_name", async () => {
    const source = await dataSource(RULE_DATA_SOURCE);
    expect(await source.validateDataResourceConfig!(ruleConfig({}))).toEqual([expect.objectContaining({ detail: expect.stringContaining("neither is set") as unknown })]);
    expect(await source.validateDataResourceConfig!(ruleConfig({ rule_id: "a", rule_name: "b" }))).toEqual([expect.objectContaining({ detail: expect.stringContaining("both are set") as unknown })]);
  });
});

describe("data source alertrules_rules: filters", () => {
  it("reads every rule without filters, system rules included", async () => {
    const read = await (await dataSource(RULES_DATA_SOURCE)).readDataSource(rulesConfig({}));
    expect(names(read.state)).toHaveLength(9);
  });

  it("keeps the rules whose name matches name_regex, of list_type, without system rules when include_system = false", async () => {
    const source = await dataSource(RULES_DATA_SOURCE);
    expect(names((await source.readDataSource(rulesConfig({ name_regex: "[Ff]ile type" }))).state)).toEqual(["Finance file type mismatch watch", "Legal hold file type mismatch"]);
    expect(names((await source.readDataSource(rulesConfig({ list_type: "ALL_USERS_NOT_SPECIFIED" }))).state)).toEqual(["Cloud sharing outside the company"]);
    const withoutSystem = names((await source.readDataSource(rulesConfig({ include_system: false }))).state);
    expect(withoutSystem).toHaveLength(7);
    expect(withoutSystem.filter((name) => typeof name === "string" && /Departing|High Risk/.test(name))).toEqual([]);
    // and together: every filter holds
    expect(names((await source.readDataSource(rulesConfig({ name_regex: "^(Departing|Sales)", list_type: "SPECIFIED_USERS", include_system: false }))).state)).toEqual(["Sales endpoint exfiltration"]);
  });

  it("refuses at validate a name_regex that is not a regular expression and an unknown list_type, both at once", async () => {
    const diagnostics = await (await dataSource(RULES_DATA_SOURCE)).validateDataResourceConfig!(rulesConfig({ name_regex: "([", list_type: "INCLUSION" }));
    expect(diagnostics.map((d) => d.attribute)).toEqual([["name_regex"], ["list_type"]]);
    expect(diagnostics[1]!.detail).toContain("SPECIFIED_USERS, ALL_USERS_NOT_SPECIFIED, ALL_USERS");
  });

  it("matches name_regex in linear time: ^(a+)+$ against a 32-letter name ends at once (a backtracking engine tries 2^32 ways)", () => {
    // given a rule whose name is 31 a's and a b: no match, found only by trying every split of the a's
    const filter = rulesFilter(rulesModel.decode(rulesConfig({ name_regex: "^(a+)+$" })));
    const row = (name: string): RuleRow => ({ ruleId: "r", name, listType: "SPECIFIED_USERS", users: 1, isSystem: false, ruleSource: "Alerting", isEnabled: true });
    // when / then (JavaScript's RegExp would not return within the test's timeout)
    if (!("keep" in filter)) throw new Error("refused");
    expect(filter.keep(row(`${"a".repeat(31)}b`))).toBe(false);
    expect(filter.keep(row("a".repeat(32)))).toBe(true);
    expect("keep" in rulesFilter(rulesModel.decode(rulesConfig({ name_regex: "^(.+)+#$" })))).toBe(true);
  });

  it("ends a read when Terraform stops the provider, without waiting for the service", async () => {
    // given a service that answers after 2 s
    const { provider } = await configuredProvider(sim);
    sim.setFaults({ latencyMs: 2_000 });
    try {
      const read = provider.dataSources[RULES_DATA_SOURCE]!.readDataSource(rulesConfig({ name_regex: "Sales" }));
      // when Terraform stops the provider (StopProvider)
      await provider.stopProvider();
      // then
      await expect(read).rejects.toThrow(/Terraform stopped the provider: the data source was not read/);
    } finally {
      sim.setFaults({});
      // the request in flight is answered, and dropped, before the simulator closes
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    }
  });

  it("refuses a name_regex that needs backtracking (lookaround, backreferences), naming RE2", async () => {
    const diagnostics = await (await dataSource(RULES_DATA_SOURCE)).validateDataResourceConfig!(rulesConfig({ name_regex: "^(?=Sales)" }));
    expect(diagnostics).toEqual([expect.objectContaining({ attribute: ["name_regex"], detail: expect.stringMatching(/RE2 syntax \(matched in linear time.*unsupported Perl syntax: `\(\?=`/) })]);
    expect(errorsOf(await (await dataSource(RULES_DATA_SOURCE)).validateDataResourceConfig!(rulesConfig({ name_regex: "(a)\\1" })))).toHaveLength(1);
  });
});
