/**
 * Dynamic values and keys that are plain data: what Terraform sends for an attribute of type
 * `dynamic` (msgpack `[type JSON, value]`, JSON `{"value", "type"}`) is read with its type and
 * written back byte for byte, and a map key named `__proto__` is a key like any other.
 */
import { Encoder } from "@msgpack/msgpack";
import { decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, schemaShape, type Schema } from "../../../src/provider/protocol";
import { Typed, UNKNOWN } from "../../../src/provider/protocol/types";

const schema: Schema = {
  version: 0,
  description: "",
  attributes: [
    { name: "users", type: "dynamic", required: true, description: "" },
    { name: "plain", type: ["map", "string"], optional: true, description: "" },
  ],
};
const shape = schemaShape(schema);

/** An object whose keys are all its own (a `__proto__` key included), as the encoder writes them. */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** What cty writes for `users = { "__proto__" = { aliases = ["a@x"] }, "9" = { aliases = ["b@x", "c@x"], expires_at = "2030-01-01" } }`. */
function ctyBytes(): Buffer {
  // `__proto__` in an object literal sets the prototype: build the type's JSON text by hand, as cty does
  const typeJson = '["object",{"9":["object",{"aliases":["tuple",["string","string"]],"expires_at":"string"}],"__proto__":["object",{"aliases":["tuple",["string"]]}]}]';
  const users = own([
    ["9", own([["aliases", ["b@x", "c@x"]], ["expires_at", "2030-01-01"]])],
    ["__proto__", own([["aliases", ["a@x"]]])],
  ]);
  const top = own([
    ["plain", own([["__proto__", "p"]])],
    ["users", [Buffer.from(typeJson, "utf8"), users]],
  ]);
  const bytes = new Encoder({ sortKeys: true }).encode(top);
  return Buffer.from(bytes);
}

describe("dynamic values", () => {
  it("reads a dynamic attribute with its type, and a __proto__ key as an own key", () => {
    const value = decodeMsgpack(shape, ctyBytes()) as Record<string, unknown>;
    const users = value["users"];
    expect(users).toBeInstanceOf(Typed);
    const typed = users as Typed;
    const inner = typed.value as Record<string, unknown>;
    expect(Object.keys(inner).sort()).toEqual(["9", "__proto__"]);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(inner, "__proto__")).toBe(true);
    expect((inner["__proto__"] as Record<string, unknown>)["aliases"]).toEqual(["a@x"]);
    expect(inner["9"]).toEqual({ aliases: ["b@x", "c@x"], expires_at: "2030-01-01" });
    expect(Object.keys(value["plain"] as object)).toEqual(["__proto__"]);
  });

  it("writes back exactly the bytes Terraform sent", () => {
    const bytes = ctyBytes();
    expect(encodeMsgpack(shape, decodeMsgpack(shape, bytes)).equals(bytes)).toBe(true);
  });

  it("keeps the type through Terraform's JSON state form", () => {
    const value = decodeMsgpack(shape, ctyBytes());
    const json = encodeJson(shape, value);
    expect(JSON.parse(json.toString("utf8")).users.type[0]).toBe("object");
    expect(encodeMsgpack(shape, decodeJson(shape, json)).equals(ctyBytes())).toBe(true);
  });

  it("reads a dynamic value that is wholly unknown, or null", () => {
    const unknown = Buffer.from(new Encoder().encode({ users: null, plain: null }));
    expect((decodeMsgpack(shape, unknown) as Record<string, unknown>)["users"]).toBeNull();
    const withUnknown = encodeMsgpack(shape, { users: UNKNOWN, plain: null });
    expect((decodeMsgpack(shape, withUnknown) as Record<string, unknown>)["users"]).toBe(UNKNOWN);
  });

  it("refuses a dynamic value written without its type, naming the attribute", () => {
    expect(() => encodeMsgpack(shape, { users: { a: "b" }, plain: null })).toThrow(/users is dynamic and must carry its type/);
  });

  it("reads a 64-bit integer beyond 2^53 as a number that is no longer a safe integer", () => {
    const big = Buffer.from([0x81, 0xa1, 0x6e, 0xd3, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]);
    const value = decodeMsgpack(schemaShape({ attributes: [{ name: "n", type: "number", optional: true, description: "" }] }), big) as Record<string, number>;
    expect(Number.isSafeInteger(value["n"])).toBe(false);
  });
});
