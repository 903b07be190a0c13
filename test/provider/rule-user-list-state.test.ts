/**
 * What a refreshed alertrules_rule_user_list keeps in Terraform's state (issue 51): the live list
 * once (the refreshed `users`; private data holds its fingerprint, not a second copy), the type of
 * `users` written once, and a size a backend can carry. The plan after the refresh makes the same
 * plan from the list rebuilt out of the state, reads nothing, and the apply still refuses when the
 * list moved since the plan (design §12.1). test/terraform/provider-state-size.test.ts measures
 * the same with real Terraform.
 */
import { RULE_USER_LIST } from "../../src/provider/schema";
import { fingerprintList } from "../../src/core/engine/fingerprint";
import { Typed, type ObjectValue, type ResourceType, type Value } from "../../src/provider/protocol";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { isWrite } from "../support/write-operations";
import { EMPTY, configuredProvider, errorsOf, resourceConfig, usersLiteral } from "./support";

const sim = useSimulator({}, { perTest: true });

/** The instance's size limit of issue 51: a 20-user list with two aliases each, compact JSON. */
const INSTANCE_LIMIT_BYTES = 3_500;

/** 20 users with two aliases each, as the bench's people are named. */
const TWENTY = Array.from({ length: 20 }, (_, i) => ({
  userId: String(908_712_000_000_000_000n + BigInt(i) * 7919n),
  aliases: [`person.number${i}@example.com`, `person_number${i}@corp.example.com`],
}));

async function resource(): Promise<ResourceType> {
  const { provider, diagnostics } = await configuredProvider(sim);
  expect(errorsOf(diagnostics)).toEqual([]);
  return provider.resources[RULE_USER_LIST]!;
}

/** A value as Terraform's state writes it: a dynamic value as `{ value, type }`. */
function stateJson(value: Value): unknown {
  if (value instanceof Typed) return { value: stateJson(value.value), type: value.type };
  if (Array.isArray(value)) return value.map(stateJson);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stateJson(v)]));
  return value;
}

/** The instance as terraform.tfstate holds it (Terraform 1.11: schema_version, attributes, sensitive_attributes, private in base64), compact. */
function instanceBytes(state: ObjectValue, privateData: Buffer): number {
  return JSON.stringify({ schema_version: 1, attributes: stateJson(state), sensitive_attributes: [], private: privateData.toString("base64") }).length;
}

/** `terraform apply` of `cfg` (plan, then apply), then `terraform plan`'s refresh and plan, each in a provider process of its own. */
async function appliedThenRefreshed(cfg: ObjectValue) {
  const creating = await resource();
  const plan = await creating.planResourceChange({ prior: null, proposed: cfg, config: cfg, priorPrivate: EMPTY });
  const applied = await creating.applyResourceChange({ prior: null, planned: plan.planned, config: cfg, plannedPrivate: plan.plannedPrivate ?? EMPTY });
  expect(errorsOf(applied.diagnostics)).toEqual([]);
  const planning = await resource();
  sim.resetCounts();
  const refreshed = await planning.readResource({ state: applied.state!, private: applied.private ?? EMPTY });
  expect(errorsOf(refreshed.diagnostics)).toEqual([]);
  return { planning, state: refreshed.state!, private: refreshed.private ?? EMPTY };
}

describe("alertrules_rule_user_list in state", () => {
  it("keeps a refreshed list of 20 users with two aliases each within 3.5 KB: the list once, the type of users once", async () => {
    // given a rule whose live list is the 20 declared users
    sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const cfg = resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY) });
    // when it is applied, then refreshed
    const { state, private: privateData } = await appliedThenRefreshed(cfg);
    // then the private data names the rule and the list's fingerprint, and holds no alias
    const kept = JSON.parse(privateData.toString("utf8")) as Record<string, unknown>;
    expect(Object.keys(kept).sort()).toEqual(["f", "r"]);
    expect(privateData.toString("utf8")).not.toContain("@example.com");
    // and users is a map of one element type, not an object typed user by user
    expect((state["users"] as Typed).type).toEqual(["map", ["object", { aliases: ["list", "string"] }]]);
    expect(instanceBytes(state, privateData)).toBeLessThanOrEqual(INSTANCE_LIMIT_BYTES);
  });

  it("plans the refreshed list with no request and no change: the list rebuilt from the state, the prior users kept", async () => {
    sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    // the configuration writes one user's aliases in another order: the same declaration
    const reordered = TWENTY.map((u, i) => (i === 3 ? { ...u, aliases: [...u.aliases].reverse() } : u));
    const { planning, state, private: privateData } = await appliedThenRefreshed(resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY) }));
    const cfg = resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(reordered) });
    const plan = await planning.planResourceChange({ prior: state, proposed: cfg, config: cfg, priorPrivate: privateData });
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    // then the refresh's one read is all, and users is planned as it is in state
    expect(sim.requestCounts()).toEqual({ "query-users": 1 });
    expect(plan.planned!["users"]).toBe(state["users"]);
  });

  it("keeps the list itself where the state does not show it whole (an additive list with an undeclared user), and plans from it", async () => {
    // given an additive declaration of two of the live users, and a third user only live
    sim.setUsers(RULES.engineering, TWENTY.slice(0, 3).map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const cfg = resourceConfig({ rule_id: RULES.engineering, mode: "additive", users: usersLiteral(TWENTY.slice(0, 2)) });
    const { planning, state, private: privateData } = await appliedThenRefreshed(cfg);
    // then private data keeps the list (the state shows only what the list declares)
    const kept = JSON.parse(privateData.toString("utf8")) as { list?: { entries: unknown[] } };
    expect(kept.list?.entries).toHaveLength(3);
    // and the plan adds the declared user without touching the undeclared one, reading no list
    // again (an update checks the rule's facts by a search: rule-state.ts planRuleChange)
    const adding = resourceConfig({ rule_id: RULES.engineering, mode: "additive", users: usersLiteral([...TWENTY.slice(0, 2), TWENTY[5]!]) });
    const plan = await planning.planResourceChange({ prior: state, proposed: adding, config: adding, priorPrivate: privateData });
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    expect(plan.planned!["removes"]).toEqual([]);
    expect(sim.requestCounts()).toEqual({ "query-users": 1, "query-rule-metadata": 1 });
  });

  it("refuses the apply of a plan made from the rebuilt list when the live list moved since: nothing is sent", async () => {
    sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const { planning, state, private: privateData } = await appliedThenRefreshed(resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY) }));
    // when the plan removes one user, and someone adds another in the console before the apply
    const cfg = resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY.slice(1)) });
    const plan = await planning.planResourceChange({ prior: state, proposed: cfg, config: cfg, priorPrivate: privateData });
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    sim.setUsers(RULES.engineering, [...TWENTY, { userId: "777", aliases: ["mallory@example.com"] }].map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    sim.resetCounts();
    const applied = await planning.applyResourceChange({ prior: state, planned: plan.planned, config: cfg, plannedPrivate: plan.plannedPrivate ?? EMPTY });
    // then the apply says the list changed since the plan, and wrote nothing
    expect(errorsOf(applied.diagnostics).map((d) => d.summary)).toEqual(["The live list changed since the plan"]);
    expect(sim.requestLog().filter((e) => isWrite(e.operation))).toEqual([]);
  });

  it("reads private data the earlier way too: the rule's facts and the list, or a full fingerprint", async () => {
    sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const cfg = resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY) });
    const { planning, state, private: privateData } = await appliedThenRefreshed(cfg);
    const { r } = JSON.parse(privateData.toString("utf8")) as { r: [string, string, boolean, string] };
    const rule = { observerRuleId: r[0], name: r[1], isSystem: r[2], ruleSource: r[3] };
    const entries = TWENTY.map((u) => ({ userId: u.userId, aliases: [...u.aliases] }));
    const full = fingerprintList({ usersToAlertOn: "SPECIFIED_USERS", entries });
    for (const earlier of [{ v: 2, rule, list: { usersToAlertOn: "SPECIFIED_USERS", entries } }, { v: 3, rule, fingerprint: full }]) {
      const plan = await planning.planResourceChange({ prior: state, proposed: cfg, config: cfg, priorPrivate: Buffer.from(JSON.stringify(earlier)) });
      expect(errorsOf(plan.diagnostics)).toEqual([]);
      expect(plan.planned!["users"]).toBe(state["users"]);
    }
    // the refresh's read, and no other
    expect(sim.requestCounts()).toEqual({ "query-users": 1 });
  });

  it("reads the list again where the state beside a fingerprint is not the list it names", async () => {
    sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const cfg = resourceConfig({ rule_id: RULES.engineering, users: usersLiteral(TWENTY) });
    const { planning, state, private: privateData } = await appliedThenRefreshed(cfg);
    // given a state edited by hand: one user dropped from users
    const edited: ObjectValue = { ...state, users: usersLiteral(TWENTY.slice(1)) };
    const plan = await planning.planResourceChange({ prior: edited, proposed: cfg, config: cfg, priorPrivate: privateData });
    expect(errorsOf(plan.diagnostics)).toEqual([]);
    // then the plan read the list again (the refresh's read and this one) and sees no change to make
    expect(sim.requestCounts()).toEqual({ "query-users": 2 });
    expect(plan.planned!["removes"]).toEqual([]);
  });
});
