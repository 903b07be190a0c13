import type { Attribute } from "../../../src/provider/protocol";
import { toProtoSchema } from "../../../src/provider/protocol";

const schema = (attributes: Attribute[]) => ({ version: 2, description: "A resource.", attributes });

describe("the schema builder", () => {
  it("writes a block of attributes: cty types as JSON bytes, nested attributes with their nesting, plain descriptions", () => {
    // when
    const built = toProtoSchema(
      schema([
        { name: "id", description: "The ID.", type: "string", computed: true },
        { name: "aliases", description: "Aliases.", type: ["set", "string"], optional: true, sensitive: true },
        { name: "meta", description: "Meta.", type: ["object", { a: "number", b: ["list", "bool"] }], optional: true },
        { name: "users", description: "Users.", required: true, nested: { nesting: "map", attributes: [{ name: "note", description: "A note.", type: "string", optional: true, computed: true }] } },
      ]),
    );
    // then
    expect(built.version).toBe(2);
    expect(built.block).toMatchObject({ version: 2, description: "A resource.", description_kind: "PLAIN", block_types: [] });
    const [id, aliases, meta, users] = built.block.attributes;
    expect(id).toMatchObject({ name: "id", computed: true, optional: false, required: false, nested_type: null });
    expect(id!.type.toString()).toBe('"string"');
    expect(aliases!.type.toString()).toBe('["set","string"]');
    expect(aliases!.sensitive).toBe(true);
    expect(meta!.type.toString()).toBe('["object",{"a":"number","b":["list","bool"]}]');
    expect(users!.type.length).toBe(0);
    expect(users!.nested_type).toMatchObject({ nesting: "MAP", attributes: [{ name: "note", optional: true, computed: true }] });
  });

  it.each([
    [{ name: "x", description: "", optional: true }, 'Schema attribute x must have exactly one of "type" and "nested".'],
    [{ name: "x", description: "", type: "string", required: true, computed: true }, "Schema attribute x is required, so it cannot also be optional or computed."],
    [{ name: "x", description: "", type: "string" }, "Schema attribute x must be required, optional or computed (or optional and computed)."],
    [
      { name: "x", description: "", optional: true, nested: { nesting: "list", attributes: [{ name: "y", description: "", type: "string" }] } },
      "Schema attribute x.y must be required, optional or computed (or optional and computed).",
    ],
  ] as [Attribute, string][])("refuses a schema Terraform would refuse: %o", (attribute, message) => {
    expect(() => toProtoSchema(schema([attribute]))).toThrow(message);
  });
});
