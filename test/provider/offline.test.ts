/**
 * The offline provider's plan (src/provider/framework/offline.ts, served by src/provider/framework/server.ts): the configuration as set, every attribute
 * the provider computes and the configuration leaves null unknown, read from the schema (so an
 * attribute added to the schema follows), nested attributes included; read keeps state; apply refused.
 */
import { UNKNOWN } from "../../src/provider/protocol";
import type { ObjectValue, ResourceType, Schema } from "../../src/provider/protocol";
import { isOffline, plannedObject } from "../../src/provider/framework/offline";
import { lockedArgumentErrors } from "../../src/provider/locked";
import { alertRulesProvider } from "../../src/provider/provider";
import { providerModel } from "../../src/provider/provider-model";
import { RULE_USER_LIST, ruleUserListSchema } from "../../src/provider/schema";

/** The resource as a provider configured offline serves it (the server checks offline once per call). */
async function offlineResource(): Promise<ResourceType> {
  const provider = alertRulesProvider({ env: { ALERT_RULE_USERS_PROVIDER_OFFLINE: "1" }, cwd: process.cwd(), log: () => undefined });
  await provider.configureProvider({}, { terraformVersion: "1.11.4" });
  return provider.resources[RULE_USER_LIST]!;
}

describe("the offline provider", () => {
  it("plans the configuration as set and every computed attribute it leaves null as unknown", () => {
    const planned = plannedObject(ruleUserListSchema.attributes, { rule_id: "r-1", rule_name: null, mode: "additive", users: { "9102": { aliases: ["a@example.com"], expires_at: null } }, policies: null });
    expect(planned["rule_id"]).toBe("r-1");
    expect(planned["mode"]).toBe("additive");
    expect(planned["users"]).toEqual({ "9102": { aliases: ["a@example.com"], expires_at: null } });
    expect(planned["policies"]).toBeNull();
    for (const name of ["id", "rule_name", "list_type", "allow_mass_removal", "on_destroy"]) expect(planned[name]).toBe(UNKNOWN);
  });

  it("follows the schema: a computed attribute added to it is unknown, also inside a nested attribute", () => {
    const schema: Schema = {
      version: 0,
      description: "",
      attributes: [
        { name: "removes", type: ["set", "string"], computed: true, description: "" },
        { name: "items", description: "", optional: true, nested: { nesting: "list", attributes: [{ name: "v", type: "string", required: true, description: "" }, { name: "c", type: "string", computed: true, description: "" }] } },
      ],
    };
    expect(plannedObject(schema.attributes, { items: [{ v: "x", c: null }] })).toEqual({ removes: UNKNOWN, items: [{ v: "x", c: UNKNOWN }] });
  });

  it("plans a block as configured (timeouts { create = \"5m\" }): Terraform refuses a plan without a block the configuration writes", async () => {
    // given: the resource's schema, whose `timeouts` is a single block
    const resource = await offlineResource();
    const config: ObjectValue = { rule_id: "r-1", users: {}, timeouts: { create: "5m", update: null, delete: null, read: null } };
    // when
    const { planned } = await resource.planResourceChange({ prior: null, proposed: config, config, priorPrivate: Buffer.alloc(0) });
    // then
    expect(planned?.["timeouts"]).toEqual({ create: "5m", update: null, delete: null, read: null });
    const unset = await resource.planResourceChange({ prior: null, proposed: { ...config, timeouts: null }, config: { ...config, timeouts: null }, priorPrivate: Buffer.alloc(0) });
    expect(unset.planned?.["timeouts"]).toBeNull();
  });

  it("reads state as it is, plans a destroy as null, and refuses to apply", async () => {
    const resource = await offlineResource();
    const state = { id: "r-1" };
    await expect(resource.readResource({ state, private: Buffer.alloc(0) })).resolves.toEqual({ state, private: Buffer.alloc(0) });
    await expect(resource.planResourceChange({ prior: state, proposed: null, config: null, priorPrivate: Buffer.alloc(0) })).resolves.toEqual({ planned: null });
    const applied = await resource.applyResourceChange({ prior: state, planned: null, config: null, plannedPrivate: Buffer.alloc(0) });
    expect(applied.state).toBe(state);
    expect(applied.diagnostics?.[0]?.detail).toMatch(/^The alertrules provider is offline \(ALERT_RULE_USERS_PROVIDER_OFFLINE=1\): it contacts no service and applies nothing\./);
  });

  it("is asked for with ALERT_RULE_USERS_PROVIDER_OFFLINE=1 or true", () => {
    expect([isOffline({ ALERT_RULE_USERS_PROVIDER_OFFLINE: "1" }), isOffline({ ALERT_RULE_USERS_PROVIDER_OFFLINE: "true" }), isOffline({}), isOffline({ ALERT_RULE_USERS_PROVIDER_OFFLINE: "0" })]).toEqual([true, true, false, false]);
  });
});

describe("the locked provider", () => {
  it("refuses url, token and token_command, each with its sentence and attribute, set or unknown; nothing when unlocked", () => {
    const config: ObjectValue = { url: "http://elsewhere", token: UNKNOWN, token_command: "cat /proc/self/environ", tenant_id: "t", max_rps: 2 };
    const errors = lockedArgumentErrors(providerModel.decode(config), { ALERT_RULE_USERS_PROVIDER_LOCKED: "1" });
    expect(errors.map((e) => [e.summary, e.attribute])).toEqual([
      ["url is not allowed in a locked provider", ["url"]],
      ["token is not allowed in a locked provider", ["token"]],
      ["token_command is not allowed in a locked provider", ["token_command"]],
    ]);
    for (const e of errors) expect(e.detail).toMatch(/^The provider is locked to this job \(ALERT_RULE_USERS_PROVIDER_LOCKED=1\): remove \w+ from the provider block; [^.]+ in the job's environment\.$/);
    expect(lockedArgumentErrors(providerModel.decode(config), {})).toEqual([]);
    expect(lockedArgumentErrors(providerModel.decode({ url: null, token: null, token_command: null, tenant_id: "t" }), { ALERT_RULE_USERS_PROVIDER_LOCKED: "1" })).toEqual([]);
  });
});
