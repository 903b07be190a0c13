/**
 * Nested blocks in the protocol room's schema (`timeouts { create = "5m" }`): written as
 * `block_types` of the protocol's schema, and decoded and encoded as an object (null when left out).
 */
import type { Schema } from "../../../src/provider/protocol";
import { decodeMsgpack, encodeMsgpack, shapeOfSchema, toProtoSchema } from "../../../src/provider/protocol";

const schema: Schema = {
  version: 1,
  description: "A resource.",
  attributes: [{ name: "id", description: "The ID.", type: "string", computed: true }],
  blocks: [
    { name: "timeouts", description: "Deadlines.", nesting: "single", attributes: [{ name: "create", description: "Create.", type: "string", optional: true }] },
    { name: "rule", description: "Rules.", nesting: "list", maxItems: 3, attributes: [{ name: "name", description: "Name.", type: "string", required: true }] },
  ],
};

describe("nested blocks", () => {
  it("are the schema's block_types, with their nesting, attributes and limits", () => {
    const built = toProtoSchema(schema);
    expect(built.block.block_types).toEqual([
      expect.objectContaining({ type_name: "timeouts", nesting: "SINGLE", min_items: 0, max_items: 0, block: expect.objectContaining({ description: "Deadlines.", attributes: [expect.objectContaining({ name: "create", optional: true })] }) as unknown }),
      expect.objectContaining({ type_name: "rule", nesting: "LIST", max_items: 3 }),
    ]);
  });

  it("decode and encode as objects of their attributes; a single block left out is null", () => {
    const shape = shapeOfSchema(schema);
    const value = { id: "x", timeouts: { create: "5m" }, rule: [{ name: "a" }] };
    expect(decodeMsgpack(shape, encodeMsgpack(shape, value))).toEqual(value);
    expect(decodeMsgpack(shape, encodeMsgpack(shape, { id: "x", timeouts: null, rule: [] }))).toEqual({ id: "x", timeouts: null, rule: [] });
  });

  it("share one namespace with the attributes: a name used twice is refused", () => {
    expect(() => toProtoSchema({ ...schema, attributes: [...schema.attributes, { name: "timeouts", description: "", type: "string", optional: true }] })).toThrow('Schema names "timeouts" twice (attributes and blocks share one namespace).');
  });
});
