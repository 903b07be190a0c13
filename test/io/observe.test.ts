/**
 * observe (src/io/observe.ts) against the simulator: one OR-ed metadata search for every
 * declaration, one query-users per editable rule found, nothing read of a system rule, and a
 * failed read recorded for that rule alone.
 */
import { RuleListClient } from "../../src/api";
import { observe } from "../../src/io/observe";
import { declared, user } from "../support/builders";
import { useSimulator } from "../support/simulator";
import { FINANCE_NAME, RULES } from "../support/sample";

const sim = useSimulator({}, { perTest: true });
const client = () => new RuleListClient({ baseUrl: sim.url, token: sim.token, tenantId: sim.tenantId, sleep: () => Promise.resolve(), retry: { maxAttempts: 1 } });
const anyone = [user("908712345678901234", "alice.nguyen@example.com")];

describe("observe", () => {
  it("resolves every declaration with one search and reads each editable rule's list once", async () => {
    // given declarations by ID and by name
    const declarations = [declared(anyone, { ruleId: RULES.engineering }), declared(anyone, { ruleName: FINANCE_NAME })];
    // when they are observed
    const observations = await observe(client(), declarations);
    // then both are found with their lists, read with one search and two list reads
    expect(observations.map((o) => o.kind)).toEqual(["found", "found"]);
    expect(observations.map((o) => (o.kind === "found" ? o.rule.observerRuleId : null))).toEqual([RULES.engineering, RULES.finance]);
    expect(observations.every((o) => o.kind === "found" && o.list !== null)).toBe(true);
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 2 });
  });

  it("reads nothing of a system rule and says which declarations name no rule", async () => {
    const declarations = [declared(anyone, { ruleId: RULES.departing }), declared(anyone, { ruleId: "no-such-rule" })];
    const observations = await observe(client(), declarations);
    expect(observations.map((o) => [o.kind, o.kind === "found" ? o.list : undefined])).toEqual([
      ["found", null],
      ["not-found", undefined],
    ]);
    expect(sim.requestCounts()["query-users"]).toBeUndefined();
  });

  it("records a failed read for that rule alone", async () => {
    // given a service whose answer for one rule's list is broken
    sim.setFaults({ misbehave: [{ operation: "query-users", ruleId: RULES.finance, kind: "html-error" }] });
    const declarations = [declared(anyone, { ruleId: RULES.engineering }), declared(anyone, { ruleId: RULES.finance })];
    // when they are observed
    const observations = await observe(client(), declarations);
    // then the other rule is read, and the broken one failed with a message
    expect(observations.map((o) => o.kind)).toEqual(["found", "failed"]);
    expect(observations[1]).toMatchObject({ kind: "failed", rule: { observerRuleId: RULES.finance }, message: expect.stringContaining("query-users") });
  });
});
