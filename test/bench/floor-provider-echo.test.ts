/**
 * The floor provider's answers (bench/lib/floor-provider.ts, bench/lib/proto-echo.ts): each
 * resource call is answered with its request's own fields, moved at the protobuf framing, so that
 * Terraform gets back exactly the state and private data it sent, through the provider's real
 * messages. Requests are written and answers read with the provider's own .proto definitions.
 */
import type { MethodDefinition } from "@grpc/proto-loader";
import { echoHandlers } from "../../bench/lib/floor-provider";
import { echoFields, topLevelFields } from "../../bench/lib/proto-echo";
import { protocolDefinition } from "../../src/provider/protocol/proto";

const provider = protocolDefinition()["tfplugin6.Provider"] as Record<string, MethodDefinition<object, object>>;
const handlers = echoHandlers("http://127.0.0.1:9/unused");
const request = (method: string, message: object): Buffer => provider[method]!.requestSerialize(message);
const answered = async (method: string, message: object): Promise<Record<string, unknown>> =>
  provider[method]!.responseDeserialize(await handlers[method]!(request(method, message))) as Record<string, unknown>;

const state = { msgpack: Buffer.from([0x81, 0xa2, 0x69, 0x64, 0xa1, 0x78]), json: Buffer.alloc(0) };
const proposed = { msgpack: Buffer.from([0x81, 0xa2, 0x69, 0x64, 0xa1, 0x79]), json: Buffer.alloc(0) };
const privateData = Buffer.from('{"f":"fingerprint"}');

describe("the floor provider's echo", () => {
  it("plans an existing resource as its prior state and private data, byte for byte", async () => {
    const answer = await answered("PlanResourceChange", { type_name: "alertrules_rule_user_list", prior_state: state, proposed_new_state: proposed, config: proposed, prior_private: privateData });
    expect(answer["planned_state"]).toEqual(state);
    expect(answer["planned_private"]).toEqual(privateData);
    expect(answer["diagnostics"]).toEqual([]);
  });

  it("plans a resource with no prior state (msgpack nil) as the proposed state", async () => {
    const answer = await answered("PlanResourceChange", { type_name: "alertrules_rule_user_list", prior_state: { msgpack: Buffer.from([0xc0]) }, proposed_new_state: proposed, config: proposed });
    expect(answer["planned_state"]).toEqual(proposed);
  });

  it("answers an upgrade with the stored JSON as the upgraded state", async () => {
    const json = Buffer.from('{"id":"r-1","users":{"value":{},"type":["map","string"]}}');
    const answer = await answered("UpgradeResourceState", { type_name: "alertrules_rule_user_list", version: 0, raw_state: { json } });
    expect(answer["upgraded_state"]).toEqual({ msgpack: Buffer.alloc(0), json });
  });

  it("answers a validation with no diagnostics", async () => {
    expect(await answered("ValidateResourceConfig", { type_name: "alertrules_rule_user_list", config: proposed })).toEqual({ diagnostics: [] });
  });
});

describe("protobuf fields moved at the framing", () => {
  it("skips varint and fixed-width fields and keeps the last of a repeated length-delimited one", () => {
    // field 1 varint 300, field 2 bytes "a", field 3 fixed64, field 4 fixed32, field 2 bytes "bc"
    const message = Buffer.from([0x08, 0xac, 0x02, 0x12, 0x01, 0x61, 0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x25, 1, 2, 3, 4, 0x12, 0x02, 0x62, 0x63]);
    expect([...topLevelFields(message)]).toEqual([[2, Buffer.from("bc")]]);
    expect(echoFields(message, [[9, 1], [2, 1], [2, 5]])).toEqual(Buffer.from([0x0a, 0x02, 0x62, 0x63, 0x2a, 0x02, 0x62, 0x63]));
  });

  it("refuses a message cut inside a field", () => {
    expect(() => topLevelFields(Buffer.from([0x12, 0x05, 0x61]))).toThrow(/runs past the message's end/);
    expect(() => topLevelFields(Buffer.from([0x08, 0x80]))).toThrow(/varint runs past/);
  });
});
