/**
 * The object the codec builds for keys that are data (src/provider/protocol/keyed-object.ts): made
 * another way inside V8, and a plain object to everything that reads it.
 */
import { keyedObject } from "../../../src/provider/protocol";

describe("a keyed object", () => {
  it("is a plain, empty object: Object.prototype, no keys, the JSON of {}", () => {
    const made = keyedObject<number>();
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.keys(made)).toEqual([]);
    expect(JSON.stringify(made)).toBe("{}");
  });

  it("orders its keys as a plain object does (index-like names first, ascending; then as added), and holds what it is given", () => {
    const names = ["9087120000000002", "42", "9087120000000001", "7", "alice", "0"];
    const made = keyedObject<number>();
    const plain: Record<string, number> = {};
    names.forEach((name, i) => {
      made[name] = i;
      plain[name] = i;
    });
    expect(Object.keys(made)).toEqual(Object.keys(plain));
    expect(Object.entries(made)).toEqual(Object.entries(plain));
    expect(JSON.stringify(made)).toBe(JSON.stringify(plain));
    expect(made).toStrictEqual(plain);
  });
});
