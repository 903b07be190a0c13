import type { Attribute, CtyType, Schema, Shape, Value } from "../../../src/provider/protocol";
import { CodecError, decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, schemaShape, Typed, typeShape, UNKNOWN } from "../../../src/provider/protocol";
import { decodeMsgpackByWalk } from "../../../src/provider/protocol/codec";
import { jsonFits } from "../../../src/provider/protocol/json-fits";
import { mulberry32, type Random } from "../../../src/simulator/prng";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex").replace(/(..)(?!$)/g, "$1 ");
const bytes = (text: string): Buffer => Buffer.from(text.replace(/ /g, ""), "hex");

describe("msgpack bytes, checked by hand against cty's encoding", () => {
  const cases: [string, Shape, Value, string][] = [
    ["an unknown string is extension 0 with one zero byte", typeShape("string"), UNKNOWN, "d4 00 00"],
    ["null is nil", typeShape("string"), null, "c0"],
    ["a short string is a fixstr", typeShape("string"), "x", "a1 78"],
    ["a Unicode string is its UTF-8", typeShape("string"), "é", "a2 c3 a9"],
    ["true", typeShape("bool"), true, "c3"],
    ["a small whole number is a positive fixint", typeShape("number"), 1, "01"],
    ["a negative whole number is a negative fixint", typeShape("number"), -1, "ff"],
    ["300 is a uint16", typeShape("number"), 300, "cd 01 2c"],
    ["1.5 is a float64", typeShape("number"), 1.5, "cb 3f f8 00 00 00 00 00 00"],
    ["a set is an array", typeShape(["set", "string"]), ["a", "b"], "92 a1 61 a1 62"],
    ["a map's keys are sorted", typeShape(["map", "bool"]), { b: true, a: false }, "82 a1 61 c2 a1 62 c3"],
    ["an object with an unknown list element", typeShape(["object", { l: ["list", "number"] }]), { l: [UNKNOWN, 2] }, "81 a1 6c 92 d4 00 00 02"],
  ];
  it.each(cases)("%s", (_name, shape, value, expected) => {
    // when
    const written = encodeMsgpack(shape, value);
    // then
    expect(hex(written)).toBe(expected);
    expect(decodeMsgpack(shape, written)).toEqual(value);
  });

  it("writes every attribute of the schema, missing ones as nil, in sorted order", () => {
    // given
    const shape = schemaShape(schema([attr("b", "string"), attr("a", "string")]));
    // when
    const written = encodeMsgpack(shape, { b: "x" });
    // then: {"a": nil, "b": "x"}
    expect(hex(written)).toBe("82 a1 61 c0 a1 62 a1 78");
  });

  it("reads a refined unknown (extension 12 with refinements) as unknown", () => {
    // given: extension 12 holding {1: false} (a refinement: not null)
    const refined = bytes("c7 03 0c 81 01 c2");
    // then
    expect(decodeMsgpack(typeShape("string"), refined)).toBe(UNKNOWN);
    expect(decodeMsgpack(typeShape(["list", "string"]), bytes("91 c7 03 0c 81 01 c2"))).toEqual([UNKNOWN]);
  });

  it("reads numbers in all three of cty's forms: int, float64 and decimal text", () => {
    const number = typeShape("number");
    expect(decodeMsgpack(number, bytes("d3 ff ff ff ff ff ff ff fe"))).toBe(-2); // int64
    expect(decodeMsgpack(number, bytes("cf 00 00 00 01 00 00 00 00"))).toBe(2 ** 32); // uint64
    expect(decodeMsgpack(number, bytes("cb 3f b9 99 99 99 99 99 9a"))).toBe(0.1);
    const text = "123456789012345678901234567890";
    expect(decodeMsgpack(number, encodeRawString(text))).toBe(Number(text));
    expect(decodeMsgpack(number, encodeRawString("-1.25e3"))).toBe(-1250);
  });

  it("gives every attribute of the schema when the bytes leave some out", () => {
    // given: {"a": "x"}
    const shape = schemaShape(schema([attr("a", "string"), attr("b", ["list", "string"])]));
    // then
    expect(decodeMsgpack(shape, bytes("81 a1 61 a1 78"))).toEqual({ a: "x", b: null });
  });
});

describe("strings, short and long, ASCII or not", () => {
  const shape = schemaShape(schema([attr("s", "string")]));

  it("reads back every string it writes: ASCII, accented, emoji, at and around the short-string length", () => {
    for (const text of ["", "a", "alias@example.com", "é", "ascii then é", "😀 emoji", "x".repeat(63), "x".repeat(64), "x".repeat(65), `${"x".repeat(63)}é`, "\u0000\u007f"]) {
      expect(decodeMsgpack(shape, encodeMsgpack(shape, { s: text }))).toEqual({ s: text });
    }
  });

  it("refuses a string that is not valid UTF-8, short or long", () => {
    // {"s": "a\xff"} and {"s": 70 bytes ending in \xff}
    expect(() => decodeMsgpack(shape, bytes("81 a1 73 a2 61 ff"))).toThrow("The value is not valid msgpack: a string is not valid UTF-8.");
    expect(() => decodeMsgpack(shape, Buffer.concat([bytes("81 a1 73 d9 46"), Buffer.alloc(69, 0x61), bytes("ff")]))).toThrow("a string is not valid UTF-8");
  });
});

describe("values that do not fit the schema", () => {
  const users: Attribute = {
    name: "users",
    description: "",
    nested: { nesting: "map", attributes: [attr("aliases", ["set", "string"])] },
  };
  const shape = schemaShape(schema([attr("id", "string"), users]));

  it("refuses an attribute the schema does not have, naming its path", () => {
    expect(() => encodeMsgpack(shape, { id: "1", users: { "9102": { aliases: [], expires: "x" } } })).toThrow(
      new CodecError('The attribute users["9102"].expires is not an attribute of the schema.', 'users["9102"].expires'),
    );
  });

  it("refuses a value of the wrong type, naming its path and the type", () => {
    expect(() => encodeMsgpack(shape, { id: "1", users: { "9102": { aliases: ["a", 7] } } })).toThrow(
      'The attribute users["9102"].aliases[1] must be a string, not number 7.',
    );
    expect(() => encodeMsgpack(shape, { id: 5 })).toThrow("The attribute id must be a string, not number 5.");
  });

  it("refuses bytes that hold an attribute the schema does not have", () => {
    // {"zz": nil}
    expect(() => decodeMsgpack(shape, bytes("81 a2 7a 7a c0"))).toThrow("The attribute zz is not an attribute of the schema.");
  });

  it("refuses an unknown in JSON, which state never holds", () => {
    expect(() => encodeJson(shape, { id: UNKNOWN })).toThrow("The attribute id is unknown, and JSON cannot hold an unknown value.");
  });

  it("drops, and reports, JSON attributes the schema does not have when asked to", () => {
    // given
    const dropped: string[] = [];
    // when
    const value = decodeJson(shape, '{"id":"1","old":true,"users":{"9102":{"aliases":["a"],"gone":1}}}', { onExtraAttribute: (path) => dropped.push(path) });
    // then
    expect(value).toEqual({ id: "1", users: { "9102": { aliases: ["a"] } } });
    expect(dropped).toEqual(["old", 'users["9102"].gone']);
  });
});

describe("a stored state checked without being decoded (UpgradeResourceState answers one that fits as it came)", () => {
  /** What decodeJson says of `text`: it reads, with nothing dropped. */
  const decodes = (shape: Shape, text: string): boolean => {
    let dropped = false;
    try {
      decodeJson(shape, text, { onExtraAttribute: () => (dropped = true) });
    } catch {
      return false;
    }
    return !dropped;
  };

  it("fits exactly where decodeJson reads the value and drops nothing", () => {
    const shape = schemaShape(schema([attr("id", "string"), attr("n", "number"), attr("users", "dynamic"), attr("tags", ["list", "string"])]));
    const texts = [
      '{"id":"1","n":2,"users":{"value":{"a":{"aliases":["x"]}},"type":["map",["object",{"aliases":["list","string"]}]]},"tags":["t"]}',
      '{"id":"1"}',
      '{"id":null,"n":"12345678901234567890123"}',
      '{"id":"1","old":true}',
      '{"id":1}',
      '{"n":"twelve"}',
      '{"users":{"value":{"a":1},"type":["map","string"]}}',
      '{"users":{"value":"x"}}',
      '{"users":{"value":"x","type":["nonsense","string"]}}',
      '{"tags":"t"}',
      '{"tags":[1]}',
      '{"__proto__":{"id":"1"}}',
      "[]",
      "null",
      "{",
    ];
    for (const text of texts) expect({ text, fits: jsonFits(shape, text) }).toEqual({ text, fits: decodes(shape, text) });
  });

  it(`agrees with decodeJson on ${200} random states, and on each with an attribute more`, () => {
    const random = mulberry32(0x1b873593);
    for (let i = 0; i < 200; i++) {
      const shape = schemaShape(randomSchema(random));
      const text = encodeJson(shape, randomObject(random, shape, 0, false)).toString("utf8");
      expect({ i, fits: jsonFits(shape, text) }).toEqual({ i, fits: true });
      const extra = text.replace(/^\{/, '{"not_in_schema":1,').replace(/,\}$/, "}");
      expect({ i, fits: jsonFits(shape, extra) }).toEqual({ i, fits: decodes(shape, extra) });
      expect(jsonFits(shape, extra)).toBe(false);
    }
  });
});

describe("msgpack read in one pass by the shape, and the general way (property, seeded)", () => {
  /** What a decode gives: its value, or its error's message. */
  const outcome = (decode: () => Value): { value: Value } | { error: string } => {
    try {
      return { value: decode() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  it("gives the same value or the same error for 300 random values, and for each cut short, lengthened and with bytes changed", () => {
    const random = mulberry32(0x5bd1e995);
    for (let i = 0; i < 300; i++) {
      const shape = schemaShape(randomSchema(random));
      const written = encodeMsgpack(shape, randomObject(random, shape, 0, true));
      const variants = [written, written.subarray(0, count(random, written.length)), Buffer.concat([written, Buffer.from([0xc0])])];
      for (let k = 0; k < 6; k++) {
        const changed = Buffer.from(written);
        changed[count(random, changed.length)] = count(random, 256);
        variants.push(changed);
      }
      for (const [v, bytes] of variants.entries()) {
        expect({ i, v, got: outcome(() => decodeMsgpack(shape, bytes)) }).toEqual({ i, v, got: outcome(() => decodeMsgpackByWalk(shape, bytes)) });
      }
    }
  });
});

describe("round trip over every schema type (property, seeded)", () => {
  const CASES = 400;

  it(`decode(encode(v)) = v for ${CASES} random schemas and values, unknowns and nulls at every depth`, () => {
    const random = mulberry32(0x7f4a7c15);
    for (let i = 0; i < CASES; i++) {
      // given
      const s = randomSchema(random);
      const shape = schemaShape(s);
      const value = randomObject(random, shape, 0, true);
      // when
      const written = encodeMsgpack(shape, value);
      // then
      expect({ case: i, value: decodeMsgpack(shape, written) }).toEqual({ case: i, value });
      expect(encodeMsgpack(shape, decodeMsgpack(shape, written))).toEqual(written);
    }
  });

  it(`JSON: decode(encode(v)) = v for ${CASES} random known values`, () => {
    const random = mulberry32(0x2545f491);
    for (let i = 0; i < CASES; i++) {
      const shape = schemaShape(randomSchema(random));
      const value = randomObject(random, shape, 0, false);
      expect({ case: i, value: decodeJson(shape, encodeJson(shape, value)) }).toEqual({ case: i, value });
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// builders

function attr(name: string, type: NonNullable<Attribute["type"]>): Attribute {
  return { name, description: "", type, optional: true };
}

function schema(attributes: Attribute[]): Schema {
  return { version: 0, description: "", attributes };
}

function encodeRawString(text: string): Buffer {
  const utf8 = Buffer.from(text, "utf8");
  return Buffer.concat([Buffer.from([0xd9, utf8.length]), utf8]);
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const count = (random: Random, max: number): number => Math.floor(random() * (max + 1));

const STRINGS = ["", "a", "alice@example.com", "ÄÖÜ äöü ß", "日本語のテキスト", "emoji 🚀👩‍💻", "e\u0301", "tab\tnew\nline", "\u0000nul", "x".repeat(40), "y".repeat(300)];
const NUMBERS = [0, 1, -1, 127, 128, -32, -33, 255, 256, 65535, 65536, -2147483648, 2 ** 32, -(2 ** 40), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0.5, -3.25, 1e-7, 3.141592653589793, 1e21, 2 ** 60, 1.7976931348623157e308, -5e-324];

function randomName(random: Random, i: number): string {
  return `${pick(random, ["id", "name", "users", "aliases", "mode", "x"])}_${i}`;
}

function randomType(random: Random, depth: number): NonNullable<Attribute["type"]> {
  const kinds = depth >= 3 ? (["string", "number", "bool"] as const) : (["string", "number", "bool", "list", "set", "map", "object"] as const);
  const kind = pick(random, kinds);
  if (kind === "string" || kind === "number" || kind === "bool") return kind;
  if (kind === "object") {
    const attributes: Record<string, NonNullable<Attribute["type"]>> = {};
    for (let i = 0; i < 1 + count(random, 3); i++) attributes[randomName(random, i)] = randomType(random, depth + 1);
    return ["object", attributes];
  }
  return [kind, randomType(random, depth + 1)];
}

function randomAttributes(random: Random, depth: number): Attribute[] {
  const attributes: Attribute[] = [];
  for (let i = 0; i < 1 + count(random, 4); i++) {
    const name = randomName(random, i);
    if (depth < 2 && random() < 0.3) {
      const nesting = pick(random, ["single", "list", "set", "map"] as const);
      attributes.push({ name, description: "", optional: true, nested: { nesting, attributes: randomAttributes(random, depth + 1) } });
    } else {
      attributes.push({ name, description: "", optional: true, type: randomType(random, depth) });
    }
  }
  return attributes;
}

function randomSchema(random: Random): Schema {
  return schema(randomAttributes(random, 0));
}

function randomObject(random: Random, shape: Shape, depth: number, unknowns: boolean): Value {
  if (shape.kind !== "object") throw new Error("a schema's shape is an object");
  const out: Record<string, Value> = {};
  for (const [name, attributeShape] of shape.attributes) out[name] = randomValue(random, attributeShape, depth + 1, unknowns);
  return out;
}

function randomValue(random: Random, shape: Shape, depth: number, unknowns: boolean): Value {
  const roll = random();
  if (roll < 0.08) return null;
  if (unknowns && roll < 0.16) return UNKNOWN;
  switch (shape.kind) {
    case "string":
      return pick(random, STRINGS) + (random() < 0.5 ? String(count(random, 1000)) : "");
    case "number":
      return random() < 0.5 ? pick(random, NUMBERS) : (random() - 0.5) * 10 ** count(random, 12);
    case "bool":
      return random() < 0.5;
    case "list":
    case "set":
      return Array.from({ length: count(random, 4) }, () => randomValue(random, shape.element, depth + 1, unknowns));
    case "map": {
      const out: Record<string, Value> = {};
      for (let i = 0; i < count(random, 4); i++) out[pick(random, STRINGS) + String(i)] = randomValue(random, shape.element, depth + 1, unknowns);
      return out;
    }
    case "object":
      return randomObject(random, shape, depth, unknowns);
    case "tuple":
      return shape.elements.map((element) => randomValue(random, element, depth + 1, unknowns));
    case "dynamic": {
      if (depth > 3 || random() < 0.3) return null;
      const type = pick(random, DYNAMIC_TYPES);
      return new Typed(type, randomValue(random, typeShape(type), depth + 1, unknowns));
    }
  }
}

/** Types a dynamic value carries: the provider's `users` as configured and as refreshed, and a few more. */
const DYNAMIC_TYPES: readonly CtyType[] = [
  "string",
  "number",
  ["list", "string"],
  ["map", ["object", { aliases: ["list", "string"] }]],
  ["object", { "9087": ["object", { aliases: ["tuple", ["string", "string"]] }], "9088": ["object", { aliases: ["list", "string"], expires_at: "string" }] }],
  ["tuple", ["bool", "dynamic"]],
];
