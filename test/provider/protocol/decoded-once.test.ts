/**
 * Values decoded once (src/provider/protocol/server.ts): Terraform sends a resource's state to
 * PlanResourceChange in the bytes ReadResource answered, and its configuration in the bytes
 * ValidateResourceConfig was sent, so the type is handed the value it was handed before (its own
 * work on that value, kept by identity, is not done again), and a value is taken once.
 */
import type { ObjectValue, ProviderDefinition, ResourceType, Schema } from "../../../src/provider/protocol";
import { encodeMsgpack, shapeOfSchema } from "../../../src/provider/protocol";
import { providerService } from "../../../src/provider/protocol/server";

const schema: Schema = {
  version: 0,
  description: "A list.",
  attributes: [
    { name: "id", description: "", type: "string", computed: true },
    { name: "users", description: "", type: ["map", ["list", "string"]], optional: true },
  ],
};

/** A provider whose one resource notes every value it is handed, and answers unchanged. */
function recording(): { service: Record<string, (request: unknown) => Promise<unknown>>; seen: { call: string; value: ObjectValue | null }[] } {
  const seen: { call: string; value: ObjectValue | null }[] = [];
  const resource: ResourceType = {
    schema,
    validateResourceConfig: (config) => {
      seen.push({ call: "validate", value: config });
      return [];
    },
    readResource: ({ state }) => {
      seen.push({ call: "read", value: state });
      return Promise.resolve({ state });
    },
    planResourceChange: ({ prior, config }) => {
      seen.push({ call: "plan.prior", value: prior }, { call: "plan.config", value: config });
      return Promise.resolve({ planned: prior });
    },
    applyResourceChange: () => Promise.resolve({ state: null }),
    importResourceState: () => Promise.resolve({ state: {} }),
  };
  const provider = { schema: { version: 0, description: "", attributes: [] }, resources: { things_list: resource }, dataSources: {}, configureProvider: () => Promise.resolve([]), stopProvider: () => Promise.resolve() } as unknown as ProviderDefinition;
  return { service: providerService(provider, "things"), seen };
}

const shape = shapeOfSchema(schema);
const wire = (value: ObjectValue) => ({ msgpack: encodeMsgpack(shape, value), json: Buffer.alloc(0) });

describe("a resource's values, decoded once", () => {
  it("hands the plan the state the read was handed, and the configuration validation was handed, when Terraform sends their bytes again", async () => {
    // given
    const { service, seen } = recording();
    const state = wire({ id: "r-1", users: { "9102": ["a@example.com"] } });
    const config = wire({ id: null, users: { "9102": ["a@example.com"] } });
    // when: the walk's calls for one resource
    const read = (await service["ReadResource"]!({ type_name: "things_list", current_state: state, private: Buffer.alloc(0) })) as { new_state: unknown };
    await service["ValidateResourceConfig"]!({ type_name: "things_list", config });
    await service["PlanResourceChange"]!({ type_name: "things_list", prior_state: read.new_state, proposed_new_state: config, config, prior_private: Buffer.alloc(0) });
    // then
    const of = (call: string) => seen.find((s) => s.call === call)!.value;
    expect(read.new_state).toBe(state);
    expect(of("plan.prior")).toBe(of("read"));
    expect(of("plan.config")).toBe(of("validate"));
    expect(of("plan.prior")).toEqual({ id: "r-1", users: { "9102": ["a@example.com"] } });
  });

  it("decodes again what a plan took already: each value is taken once", async () => {
    const { service, seen } = recording();
    const state = wire({ id: "r-1", users: {} });
    await service["ReadResource"]!({ type_name: "things_list", current_state: state, private: Buffer.alloc(0) });
    for (let i = 0; i < 2; i++) await service["PlanResourceChange"]!({ type_name: "things_list", prior_state: state, proposed_new_state: state, config: state, prior_private: Buffer.alloc(0) });
    const priors = seen.filter((s) => s.call === "plan.prior").map((s) => s.value);
    expect(priors[0]).toBe(seen.find((s) => s.call === "read")!.value);
    expect(priors[1]).not.toBe(priors[0]);
    expect(priors[1]).toEqual(priors[0]);
  });
});
