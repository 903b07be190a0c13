/**
 * The alertrules_rule_user_list resource as Terraform drives it (refresh → plan → apply), called
 * directly against the simulator: the semantics of docs/contract.md §11.1 without the wire
 * (test/provider/protocol covers the wire, test/terraform/provider-*.test.ts real Terraform).
 */
import { randomUUID } from "node:crypto";
import { alertRulesProvider } from "../../src/provider/provider";
import { RULE_USER_LIST, ruleUserListSchema } from "../../src/provider/schema";
import { UNKNOWN, type Diagnostic, type ObjectValue, type ResourceType, type Value } from "../../src/provider/protocol";
import { plain, typedLiteral } from "../../src/provider/framework/dynamic";
import { RUN_SCOPE_VARIABLE } from "../../src/io/terraform-run";
import { useSimulator } from "../support/simulator";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { isWrite } from "../support/write-operations";

const sim = useSimulator({}, { perTest: true });

const EMPTY = Buffer.alloc(0);
const ATTRIBUTES = ruleUserListSchema.attributes.map((a) => a.name);
const COMPUTED = new Set(ruleUserListSchema.attributes.filter((a) => a.computed === true).map((a) => a.name));

/** A configuration: every attribute of the schema, null unless given (as Terraform decodes one). */
function config(values: Record<string, Value>): ObjectValue {
  const out: ObjectValue = {};
  for (const name of ATTRIBUTES) out[name] = values[name] ?? null;
  return out;
}

/** Terraform's proposed new state: the configuration, with computed attributes it leaves null taken from the prior state. */
function proposed(prior: ObjectValue | null, cfg: ObjectValue): ObjectValue {
  const out: ObjectValue = {};
  for (const name of ATTRIBUTES) out[name] = cfg[name] !== null ? cfg[name]! : COMPUTED.has(name) && prior !== null ? (prior[name] ?? null) : null;
  return out;
}

/** A `users` value as HCL writes it: `{ "9102" = { aliases = [...] } }`, typed as its literal. */
function users(list: ReadonlyArray<{ userId: string; aliases: readonly string[]; expiresAt?: string }>): Value {
  return typedLiteral(Object.fromEntries(list.map((u) => [u.userId, u.expiresAt === undefined ? { aliases: [...u.aliases] } : { aliases: [...u.aliases], expires_at: u.expiresAt }])));
}

let commands = 0;
/** This test file's own scope of Terraform commands (a worker runs several files: the same process ID, the same counts). */
const RUN = randomUUID();
async function configured(extra: Record<string, string> = {}): Promise<{ resource: ResourceType; stop: () => void | Promise<void> }> {
  const provider = alertRulesProvider({
    // each configured provider stands for a Terraform command of its own
    env: { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, [RUN_SCOPE_VARIABLE]: `test-${RUN}-${++commands}`, ...extra },
    cwd: process.cwd(),
    log: () => undefined,
  });
  const diagnostics = await provider.configureProvider({ url: null, tenant_id: null, token: null, token_command: null, max_rps: null }, { terraformVersion: "1.11.4" });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { resource: provider.resources[RULE_USER_LIST]!, stop: () => provider.stopProvider() };
}

interface Stored {
  state: ObjectValue;
  private: Buffer;
}

/**
 * `terraform apply` of a new resource: plan, then apply. Each Terraform command starts a provider
 * process of its own, so each helper below configures a fresh provider (a resource planned twice
 * with two declarations in one process would read as two resources for one rule).
 */
async function create(_: ResourceType, cfg: ObjectValue): Promise<Stored> {
  const { resource } = await configured();
  const plan = await resource.planResourceChange({ prior: null, proposed: proposed(null, cfg), config: cfg, priorPrivate: EMPTY });
  expect(errors(plan.diagnostics)).toEqual([]);
  const applied = await resource.applyResourceChange({ prior: null, planned: plan.planned, config: cfg, plannedPrivate: plan.plannedPrivate ?? EMPTY });
  expect(errors(applied.diagnostics)).toEqual([]);
  return { state: applied.state!, private: applied.private ?? EMPTY };
}

/** `terraform plan`: refresh, then plan. `changed` is what Terraform would show: planned differs from the refreshed state. */
async function planAgain(_: ResourceType, stored: Stored, cfg: ObjectValue) {
  const { resource } = await configured();
  const refreshed = await resource.readResource({ state: stored.state, private: stored.private });
  expect(errors(refreshed.diagnostics)).toEqual([]);
  const prior = refreshed.state!;
  const plan = await resource.planResourceChange({ prior, proposed: proposed(prior, cfg), config: cfg, priorPrivate: refreshed.private ?? EMPTY });
  expect(errors(plan.diagnostics)).toEqual([]);
  return { prior, refreshedPrivate: refreshed.private ?? EMPTY, plan, changed: plan.planned !== null && setwise(plan.planned) !== setwise(prior) };
}

/** A value as Terraform compares it: every array of this schema but `policies` is a set, so order does not count. */
function setwise(value: Value): string {
  const walk = (v: Value): Value => {
    if (Array.isArray(v)) return v.map(walk).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, walk(x)]));
    return v === UNKNOWN ? "<unknown>" : v;
  };
  return JSON.stringify(walk(value));
}

const errors = (diagnostics: readonly Diagnostic[] | undefined): string[] => (diagnostics ?? []).filter((d) => d.severity === "error").map((d) => `${d.summary}: ${d.detail ?? ""}`);
const warnings = (diagnostics: readonly Diagnostic[] | undefined): string[] => (diagnostics ?? []).filter((d) => d.severity === "warning").map((d) => `${d.summary}: ${d.detail ?? ""}`);
const writes = (): number => sim.requestLog().filter((e) => isWrite(e.operation)).length;
const liveIds = (ruleId: string): string[] => sim.rule(ruleId)!.users.map((u) => u.userIdFromAuthority ?? "-").sort();

describe("alertrules_rule_user_list", () => {
  it("applies a declaration, and the next plan is empty: aliases differing only in case, additive extras and a system rule show no change", async () => {
    // given the engineering rule declared with one alias in other letter case
    const { resource } = await configured();
    const declared = ENGINEERING_USERS.map((u, i) => (i === 0 ? { ...u, aliases: u.aliases.map((a) => a.toUpperCase()) } : u));
    const cfg = config({ rule_id: RULES.engineering, users: users(declared) });
    // when it is applied and planned again
    const stored = await create(resource, cfg);
    const again = await planAgain(resource, stored, cfg);
    // then nothing was written (the live list already matches case-insensitively) and the plan is empty
    expect(writes()).toBe(0);
    expect(again.changed).toBe(false);
    expect(stored.state["list_type"]).toBe("SPECIFIED_USERS");
    expect(stored.state["id"]).toBe(RULES.engineering);
  });

  it("shows a user added in the console as an in-place change of users, and the apply removes exactly that user", async () => {
    const { resource } = await configured();
    const cfg = config({ rule_id: RULES.engineering, users: users(ENGINEERING_USERS) });
    const stored = await create(resource, cfg);
    // given someone adds a user in the console
    const live = sim.rule(RULES.engineering)!.users;
    sim.setUsers(RULES.engineering, [...live, { userIdFromAuthority: "777", userAliasList: ["mallory@example.com"] }]);
    // when terraform plans
    const again = await planAgain(resource, stored, cfg);
    // then the refreshed state names the user and the plan changes users in place (no replace)
    expect(Object.keys(plain(again.prior["users"]) as ObjectValue)).toContain("777");
    expect(again.changed).toBe(true);
    expect(again.plan.requiresReplace ?? []).toEqual([]);
    sim.resetCounts();
    const applied = await resource.applyResourceChange({ prior: again.prior, planned: again.plan.planned, config: cfg, plannedPrivate: again.plan.plannedPrivate ?? EMPTY });
    expect(errors(applied.diagnostics)).toEqual([]);
    expect(liveIds(RULES.engineering)).toEqual(ENGINEERING_USERS.map((u) => u.userId).sort());
    // one re-read before writing (the plan's rule, no search), one remove-users, one read-back (§4's bound)
    expect(sim.requestCounts()).toEqual({ "query-users": 2, "remove-users": 1 });
  });

  it("applies of new resources send no metadata search: each uses the rule its plan found, reads its list again and reads it back", async () => {
    // given four new resources planned in one provider process, each adding one user
    const { resource } = await configured();
    const rules = [RULES.engineering, RULES.finance, RULES.sales, RULES.legal];
    const live = (ruleId: string) => sim.rule(ruleId)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList }));
    const cfgs = rules.map((ruleId, i) => config({ rule_id: ruleId, users: users([...live(ruleId), { userId: `90${i}`, aliases: [`new${i}@example.com`] }]) }));
    sim.resetCounts();
    const plans = await Promise.all(cfgs.map((cfg) => resource.planResourceChange({ prior: null, proposed: proposed(null, cfg), config: cfg, priorPrivate: EMPTY })));
    // the plans that arrive together share one search, and read each list once
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 4 });
    // Terraform's apply plans each create again first: from what the plan read (no request)
    const again = await Promise.all(cfgs.map((cfg) => resource.planResourceChange({ prior: null, proposed: proposed(null, cfg), config: cfg, priorPrivate: EMPTY })));
    expect(again.map((p) => p.planned)).toEqual(plans.map((p) => p.planned));
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 4 });
    sim.resetCounts();
    // when Terraform applies them concurrently (-parallelism)
    const applied = await Promise.all(cfgs.map((cfg, i) => resource.applyResourceChange({ prior: null, planned: plans[i]!.planned, config: cfg, plannedPrivate: plans[i]!.plannedPrivate ?? EMPTY })));
    // then each converged with no search (each apply re-reads its list before writing and reads it back)
    for (const a of applied) expect(errors(a.diagnostics)).toEqual([]);
    rules.forEach((ruleId, i) => expect(liveIds(ruleId)).toContain(`90${i}`));
    expect(sim.requestCounts()).toEqual({ "query-users": 8, "add-users": 4 });
  });

  it("refreshes a resource in state with one query-users and no metadata search", async () => {
    const { resource } = await configured();
    const cfg = config({ rule_id: RULES.finance, users: users(sim.rule(RULES.finance)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList }))) });
    const stored = await create(resource, cfg);
    sim.resetCounts();
    await planAgain(resource, stored, cfg);
    expect(sim.requestCounts()).toEqual({ "query-users": 1 });
  });

  it("additive lists never show or touch undeclared entries", async () => {
    const { resource } = await configured();
    const cfg = config({ rule_id: RULES.engineering, mode: "additive", users: users([{ userId: "555", aliases: ["new.person@example.com"] }]) });
    const stored = await create(resource, cfg);
    expect(liveIds(RULES.engineering)).toEqual([...ENGINEERING_USERS.map((u) => u.userId), "555"].sort());
    const again = await planAgain(resource, stored, cfg);
    expect(Object.keys(plain(again.prior["users"]) as ObjectValue)).toEqual(["555"]);
    expect(again.changed).toBe(false);
  });

  it("plans an expired user away once, then shows no change", async () => {
    const { resource } = await configured();
    const first = ENGINEERING_USERS[0]!;
    const cfg = config({ rule_id: RULES.engineering, users: users(ENGINEERING_USERS) });
    const stored = await create(resource, cfg);
    // when the first user's exception is declared to have ended yesterday
    const expired = config({ rule_id: RULES.engineering, users: users(ENGINEERING_USERS.map((u) => (u === first ? { ...u, expiresAt: "2020-01-01" } : u))) });
    const once = await planAgain(resource, { state: stored.state, private: stored.private }, expired);
    expect(once.changed).toBe(true);
    const applied = await resource.applyResourceChange({ prior: once.prior, planned: once.plan.planned, config: expired, plannedPrivate: once.plan.plannedPrivate ?? EMPTY });
    expect(errors(applied.diagnostics)).toEqual([]);
    expect(liveIds(RULES.engineering)).not.toContain(first.userId);
    // then the next plan keeps the satisfied declaration: no perpetual diff
    const after = await planAgain(resource, { state: applied.state!, private: applied.private ?? EMPTY }, expired);
    expect(after.changed).toBe(false);
  });

  it("warns on a system rule and never writes to it", async () => {
    const { resource } = await configured();
    const cfg = config({ rule_id: RULES.departing, users: users([{ userId: "1", aliases: ["x@example.com"] }]) });
    const plan = await resource.planResourceChange({ prior: null, proposed: proposed(null, cfg), config: cfg, priorPrivate: EMPTY });
    expect(warnings(plan.diagnostics).join("\n")).toMatch(/system rule/);
    const applied = await resource.applyResourceChange({ prior: null, planned: plan.planned, config: cfg, plannedPrivate: plan.plannedPrivate ?? EMPTY });
    expect(errors(applied.diagnostics)).toEqual([]);
    expect(writes()).toBe(0);
  });

  it("judges a system rule by a fresh lookup, not by private data that says it is editable", async () => {
    const { resource } = await configured();
    const cfg = config({ rule_id: RULES.departing, users: users([{ userId: "1", aliases: ["x@example.com"] }]) });
    const created = await resource.planResourceChange({ prior: null, proposed: proposed(null, cfg), config: cfg, priorPrivate: EMPTY });
    const applied = await resource.applyResourceChange({ prior: null, planned: created.planned, config: cfg, plannedPrivate: created.plannedPrivate ?? EMPTY });
    // private data tampered with: the rule marked editable, with an empty inclusion list
    const tampered = JSON.parse((applied.private ?? EMPTY).toString("utf8") || "{}") as { rule: { isSystem: boolean; ruleSource: string }; list: unknown };
    tampered.rule = { ...tampered.rule, isSystem: false, ruleSource: "Alerting" };
    tampered.list = { usersToAlertOn: "SPECIFIED_USERS", entries: [] };
    const plan = await resource.planResourceChange({ prior: applied.state, proposed: proposed(applied.state, cfg), config: cfg, priorPrivate: Buffer.from(JSON.stringify(tampered)) });
    expect(warnings(plan.diagnostics).join("\n")).toMatch(/Rule skipped/);
    expect(plan.planned?.["removes"]).toEqual([]);
    expect(writes()).toBe(0);
  });

  it("refuses at validate: a misspelled key in a user entry or a policy, a number beyond 2^53, an alias with a control character or fullwidth letters", async () => {
    const { resource } = await configured();
    const text = async (values: Record<string, Value>) => errors(await resource.validateResourceConfig!(config({ rule_id: RULES.finance, ...values }))).join("\n");
    expect(await text({ users: typedLiteral({ "1": { aliases: ["a@example.com"], expire_at: "2030-01-01" } }) })).toMatch(/users\["1"\]: "expire_at" is not an argument of users \(did you mean "expires_at"\?\)/);
    expect(await text({ users: typedLiteral({ "1": { alias: ["a@example.com"] } }) })).toMatch(/"alias" is not an argument of users/);
    expect(await text({ users: users([]), policies: typedLiteral([{ max_user: 3 }]) })).toMatch(/policies\[0\]: "max_user" is not an argument of policies \(did you mean "max_users"\?\)/);
    expect(await text({ users: users([]), policies: typedLiteral([{ max_users: 9007199254740993 }]) })).toMatch(/max_users must be below 2\^53/);
    expect(await text({ users: users([{ userId: "1", aliases: ["a@example.com\nb@example.com"] }]) })).toMatch(/contains U\+000A \(control character\)/);
    expect(await text({ users: users([{ userId: "1", aliases: ["\u0000a@example.com"] }]) })).toMatch(/contains U\+0000 \(control character\)/);
    expect(await text({ users: users([{ userId: "1", aliases: ["ａlice@example.com"] }]) })).toMatch(/fullwidth or compatibility characters/);
  });

  it("refuses at plan time: an unknown rule, a mass removal without allow_mass_removal, two resources for one rule", async () => {
    const { resource } = await configured();
    const unknown = config({ rule_name: "No such rule", users: users([]) });
    const missing = await resource.planResourceChange({ prior: null, proposed: proposed(null, unknown), config: unknown, priorPrivate: EMPTY });
    expect(errors(missing.diagnostics).join("\n")).toMatch(/No such rule/);
    expect(missing.diagnostics?.[0]?.attribute).toEqual(["rule_name"]);

    const empty = config({ rule_id: RULES.engineering, users: users([]) });
    const mass = await resource.planResourceChange({ prior: null, proposed: proposed(null, empty), config: empty, priorPrivate: EMPTY });
    expect(errors(mass.diagnostics).join("\n")).toMatch(/mass-removal guard/);

    const byId = config({ rule_id: RULES.finance, users: users([]), allow_mass_removal: true });
    const byName = config({ rule_name: FINANCE_NAME, users: users([]), allow_mass_removal: true });
    const plans = [await resource.planResourceChange({ prior: null, proposed: proposed(null, byId), config: byId, priorPrivate: EMPTY }), await resource.planResourceChange({ prior: null, proposed: proposed(null, byName), config: byName, priorPrivate: EMPTY })];
    expect(plans.flatMap((p) => errors(p.diagnostics)).join("\n")).toMatch(/more than one alertrules_rule_user_list/);
    expect(writes()).toBe(0);
  });

  it("imports a list by rule ID: the refreshed state is the live list", async () => {
    const { resource } = await configured();
    const imported = await resource.importResourceState(RULES.finance);
    const refreshed = await resource.readResource({ state: { ...config({}), ...imported.state }, private: EMPTY });
    const live = sim.rule(RULES.finance)!.users;
    expect(Object.keys(plain(refreshed.state!["users"]) as ObjectValue).sort()).toEqual(live.map((u) => u.userIdFromAuthority!).sort());
    expect(refreshed.state!["mode"]).toBe("authoritative");
    // the configuration Terraform generates from it plans no change
    const generated = config({ rule_id: RULES.finance, users: refreshed.state!["users"]!, mode: "authoritative", allow_mass_removal: false, on_destroy: "keep" });
    const plan = await resource.planResourceChange({ prior: refreshed.state!, proposed: proposed(refreshed.state, generated), config: generated, priorPrivate: refreshed.private ?? EMPTY });
    expect(errors(plan.diagnostics)).toEqual([]);
    expect(setwise(plan.planned)).toBe(setwise(refreshed.state));
  });

  it("imports an additive list declared by name (name: and additive: in the import ID): the generated configuration names the rule once and plans no change", async () => {
    const { resource } = await configured();
    const imported = await resource.importResourceState(`additive:name:${FINANCE_NAME}`);
    expect(errors(imported.diagnostics)).toEqual([]);
    const refreshed = await resource.readResource({ state: { ...config({}), ...imported.state }, private: EMPTY });
    expect(refreshed.state!["rule_id"]).toBeNull();
    expect(refreshed.state!["id"]).toBe(RULES.finance);
    const generated = config({ rule_name: FINANCE_NAME, users: refreshed.state!["users"]!, mode: "additive", allow_mass_removal: false, on_destroy: "keep" });
    const plan = await resource.planResourceChange({ prior: refreshed.state!, proposed: proposed(refreshed.state, generated), config: generated, priorPrivate: refreshed.private ?? EMPTY });
    expect(errors(plan.diagnostics)).toEqual([]);
    expect(plan.requiresReplace ?? []).toEqual([]);
    expect(setwise(plan.planned)).toBe(setwise(refreshed.state));
  });

  it("an import ID that names no rule: an error naming what it looked for, with the rule a typo meant (never 'non-existent remote object')", async () => {
    const { resource } = await configured();
    // a name one letter off
    const byName = await resource.importResourceState(`name:${FINANCE_NAME.replace("type", "tpye")}`);
    const missing = await resource.readResource({ state: { ...config({}), ...byName.state }, private: EMPTY });
    expect(missing.state).toBeNull();
    expect(errors(missing.diagnostics)).toEqual([
      `Cannot import: the import ID names no rule: no rule is named '${FINANCE_NAME.replace("type", "tpye")}' in this tenant (names match exactly, case included): check the name or import the rule by RULE_ID. Did you mean '${FINANCE_NAME}'?`,
    ]);
    // a rule's name given as the ID (no name: in front)
    const asId = await resource.importResourceState(FINANCE_NAME.replace(/ /g, "_"));
    const wrongId = await resource.readResource({ state: { ...config({}), ...asId.state }, private: EMPTY });
    expect(errors(wrongId.diagnostics).join("\n")).toContain(`no rule has the ID '${FINANCE_NAME.replace(/ /g, "_")}' in this tenant: check the RULE_ID (the rule's observerRuleId) or import the rule by name:. This looks like a rule name ('${FINANCE_NAME}'): import it with name:${FINANCE_NAME} instead of RULE_ID.`);
    // a well-formed ID of no rule
    const unknown = await resource.importResourceState("00000000-0000-4000-8000-000000000000");
    const none = await resource.readResource({ state: { ...config({}), ...unknown.state }, private: EMPTY });
    expect(errors(none.diagnostics)).toEqual([
      "Cannot import: the import ID names no rule: no rule has the ID '00000000-0000-4000-8000-000000000000' in this tenant: check the RULE_ID (the rule's observerRuleId) or import the rule by name:.",
    ]);
    expect(writes()).toBe(0);
  });

  it("never puts a secret the service echoes (in an alias) into state or private data", async () => {
    const { resource } = await configured();
    sim.setUsers(RULES.finance, [{ userIdFromAuthority: "1", userAliasList: [`${sim.token}@example.com`] }]);
    const imported = await resource.importResourceState(RULES.finance);
    const refreshed = await resource.readResource({ state: { ...config({}), ...imported.state }, private: EMPTY });
    expect(JSON.stringify(refreshed.state)).not.toContain(sim.token);
    expect(refreshed.private?.toString("utf8") ?? "").not.toContain(sim.token);
    expect(JSON.stringify(refreshed.state)).toContain("[REDACTED]");
  });

  it("keeps the live list on destroy by default, and clears it with on_destroy = clear", async () => {
    const { resource } = await configured();
    const keep = await create(resource, config({ rule_id: RULES.finance, users: users(sim.rule(RULES.finance)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList }))) }));
    const kept = await resource.applyResourceChange({ prior: keep.state, planned: null, config: null, plannedPrivate: EMPTY });
    expect(kept.state).toBeNull();
    expect(warnings(kept.diagnostics).join("\n")).toMatch(/left as it is/);
    expect(liveIds(RULES.finance).length).toBeGreaterThan(0);

    const clear = await create(resource, config({ rule_id: RULES.legal, on_destroy: "clear", users: users(sim.rule(RULES.legal)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList }))) }));
    const destroyPlan = await resource.planResourceChange({ prior: clear.state, proposed: null, config: null, priorPrivate: clear.private });
    expect(warnings(destroyPlan.diagnostics).join("\n")).toMatch(/entr(y|ies) leaves? the live list/);
    const cleared = await resource.applyResourceChange({ prior: clear.state, planned: null, config: null, plannedPrivate: destroyPlan.plannedPrivate ?? EMPTY });
    expect(errors(cleared.diagnostics)).toEqual([]);
    expect(liveIds(RULES.legal)).toEqual([]);
  });

  it("marks what it cannot know yet as unknown but removes (a promise: nothing leaves), and validates the configuration with attribute paths", async () => {
    const { resource } = await configured();
    const later = config({ rule_id: RULES.finance, users: UNKNOWN });
    const plan = await resource.planResourceChange({ prior: null, proposed: proposed(null, later), config: later, priorPrivate: EMPTY });
    expect(plan.planned?.["id"]).toBe(UNKNOWN);
    // what leaves the list is not "known after apply": the plan promises nothing does, and says so
    expect(plan.planned?.["removes"]).toEqual([]);
    expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: "warning", summary: "Nothing leaves the list in this apply", detail: expect.stringMatching(/^users is known only at apply.*terraform apply -target=ADDRESS/) })]);
    // an additive list never removes: no warning
    const additive = config({ rule_id: RULES.finance, mode: "additive", users: UNKNOWN });
    const quiet = await resource.planResourceChange({ prior: null, proposed: proposed(null, additive), config: additive, priorPrivate: EMPTY });
    expect(quiet.planned?.["removes"]).toEqual([]);
    expect(quiet.diagnostics ?? []).toEqual([]);
    const bad = config({ rule_id: RULES.finance, rule_name: FINANCE_NAME, mode: "sometimes", users: users([{ userId: "1", aliases: ["a@example.com", "A@example.com"] }]) });
    const diagnostics = await resource.validateResourceConfig!(bad);
    const text = errors(diagnostics).join("\n");
    expect(text).toMatch(/rule_id\/rule_name: both are set/);
    expect(text).toMatch(/mode: "sometimes" is not a list mode/);
    expect(text).toMatch(/users\["1"\]\.aliases/);
    expect(diagnostics.find((d) => /aliases/.test(d.detail ?? ""))?.attribute).toEqual(["users", { key: "1" }, "aliases"]);
  });
});
