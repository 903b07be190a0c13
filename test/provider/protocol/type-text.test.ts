/**
 * A dynamic value's type read from its JSON text in one pass (src/provider/protocol/type-text.ts):
 * exactly what parseType(JSON.parse(text)) reads, or null (and the codec reads the text the
 * general way, which names any error). Seeded: the same cases on every run.
 */
import { parseType } from "../../../src/provider/protocol/codec";
import { readTypeText } from "../../../src/provider/protocol/type-text";
import type { CtyType } from "../../../src/provider/protocol";
import { mulberry32, type Random } from "../../../src/simulator/prng";

/** What the general way reads: the type, or that it does not read one. */
function general(text: string): { type: CtyType } | "not a type" {
  try {
    return { type: parseType(JSON.parse(text) as unknown, "") };
  } catch {
    return "not a type";
  }
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Names as configurations write them: user IDs (some of them array indexes to V8), words, and a few odd ones. */
const NAMES = ["aliases", "expires_at", "908712000000815657", "9102", "0", "42", "x", "ÄÖÜ", "日本", "emoji 🚀", "a b", "constructor", "toString", "hasOwnProperty"];

function randomType(random: Random, depth: number): CtyType {
  const kinds = depth >= 3 ? (["string", "number", "bool", "dynamic"] as const) : (["string", "number", "bool", "dynamic", "list", "set", "map", "tuple", "object", "object", "object"] as const);
  const kind = pick(random, kinds);
  if (kind === "string" || kind === "number" || kind === "bool" || kind === "dynamic") return kind;
  if (kind === "tuple") return ["tuple", Array.from({ length: Math.floor(random() * 4) }, () => randomType(random, depth + 1))];
  if (kind === "object") {
    const attributes: Record<string, CtyType> = {};
    const n = Math.floor(random() * (random() < 0.3 ? 24 : 5));
    for (let i = 0; i < n; i++) attributes[`${pick(random, NAMES)}${random() < 0.5 ? String(i) : ""}`] = randomType(random, depth + 1);
    return ["object", attributes];
  }
  return [kind, randomType(random, depth + 1)];
}

/** A text changed the way hand-written or damaged text differs from Terraform's. */
function changed(random: Random, text: string): string {
  const at = Math.floor(random() * (text.length + 1));
  switch (Math.floor(random() * 7)) {
    case 0:
      return text.slice(0, at) + " " + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at) + pick(random, ['"', "[", "]", "{", "}", ",", ":", "\\", "\\u0041", "\n"]) + text.slice(at);
    case 3:
      return text.replace('"string"', '"strng"');
    case 4:
      return text.replace(/\{"([^"]*)":([^,{}[\]]+),/, '{"$1":$2,"$1":$2,');
    case 5:
      return text.replace(/\{"[^"]*":/, '{"__proto__":');
    default:
      return text.slice(0, at);
  }
}

describe("a type read from its JSON text in one pass", () => {
  it("reads Terraform's texts: the configuration's users and the state's", () => {
    const configured = '["object",{"908712000000815657":["object",{"aliases":["tuple",["string","string"]]}],"9102":["object",{"aliases":["tuple",["string"]],"expires_at":"string"}]}]';
    expect(readTypeText(configured)).not.toBeNull();
    expect(readTypeText(configured)).toEqual((general(configured) as { type: CtyType }).type);
    expect(readTypeText('["map",["object",{"aliases":["list","string"]}]]')).toEqual(["map", ["object", { aliases: ["list", "string"] }]]);
    expect(readTypeText('"string"')).toBe("string");
  });

  it("shares an inner type that repeats, and answers the same type for it each time", () => {
    const text = '["object",{"1":["object",{"aliases":["tuple",["string"]]}],"2":["object",{"aliases":["tuple",["string"]]}]}]';
    const type = readTypeText(text) as ["object", Record<string, CtyType>];
    expect(type[1]["1"]).toBe(type[1]["2"]);
    expect(type[1]["1"]).toEqual(["object", { aliases: ["tuple", ["string"]] }]);
  });

  it("leaves to the general way what is not Terraform's compact text", () => {
    for (const text of ['[ "list", "string" ]', '["list","string","extra"]', '["object",{"a":"string","a":"bool"}]', '["object",{"__proto__":"string"}]', '["object",{"\\u0061":"string"}]', '"strng"', '["list"]', "", "[", "null"]) {
      expect({ text, read: readTypeText(text) }).toEqual({ text, read: null });
    }
  });

  it(`agrees with parseType(JSON.parse(text)) on ${2_000} random types and ${6_000} changed texts`, () => {
    const random = mulberry32(0x6a09e667);
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify(randomType(random, 0));
      const expected = general(text);
      expect({ text, read: readTypeText(text) }).toEqual({ text, read: expected === "not a type" ? null : expected.type });
      for (let j = 0; j < 3; j++) {
        const other = changed(random, text);
        const read = readTypeText(other);
        // a text it reads is read exactly as the general way reads it; one it leaves is the general way's to read or refuse
        if (read !== null) expect({ other, read }).toEqual({ other, read: (general(other) as { type: CtyType }).type });
      }
    }
  });

  it("keeps the general way's order of attributes (V8 puts array-index names first)", () => {
    const text = '["object",{"b":"string","10":"bool","2":"number","a":"string","908712000000815657":"string"}]';
    const type = readTypeText(text) as ["object", Record<string, CtyType>];
    expect(Object.keys(type[1])).toEqual(Object.keys((general(text) as { type: ["object", Record<string, CtyType>] }).type[1]));
  });
});
