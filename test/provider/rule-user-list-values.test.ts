/**
 * The resource's private data and declared users compared (src/provider/resources/rule-user-list-values.ts):
 * a read's short private data decoded once per text and shared frozen, and two `users` values the
 * same whatever the order of each user's aliases.
 */
import { decodePrivate, encodePrivate, sameDeclaredUsers } from "../../src/provider/resources/rule-user-list-values";
import { Typed } from "../../src/provider/protocol";

const rule = (id: string) => ({ observerRuleId: id, name: `Rule ${id}`, isSystem: false, ruleSource: "Alerting" });

describe("a read's private data", () => {
  it("decodes each text to its own data, the same value again for the same text, frozen", () => {
    const a = encodePrivate({ rule: rule("r-1"), list: null, fingerprint: "f-1" });
    const b = encodePrivate({ rule: rule("r-2"), list: null, fingerprint: "f-2" });
    const first = decodePrivate(a);
    expect(first).toEqual({ rule: rule("r-1"), list: null, fingerprint: "f-1" });
    expect(decodePrivate(b)).toEqual({ rule: rule("r-2"), list: null, fingerprint: "f-2" });
    expect(decodePrivate(Buffer.from(a))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.rule)).toBe(true);
  });

  it("is null for bytes that are not the provider's", () => {
    expect(decodePrivate(Buffer.from('{"r":["x"],"f":1}'))).toBeNull();
    expect(decodePrivate(Buffer.from("not json"))).toBeNull();
    expect(decodePrivate(Buffer.alloc(0))).toBeNull();
  });
});

describe("two users values declare the same users", () => {
  const users = (aliases: Record<string, string[]>) => new Typed(["map", ["object", { aliases: ["list", "string"] }]], Object.fromEntries(Object.entries(aliases).map(([id, a]) => [id, { aliases: a }])));

  it("whatever the order of a user's aliases", () => {
    expect(sameDeclaredUsers(users({ "9102": ["a@x", "b@x"] }), users({ "9102": ["b@x", "a@x"] }))).toBe(true);
    expect(sameDeclaredUsers(users({ "9102": ["a@x", "b@x"] }), users({ "9102": ["a@x", "b@x"] }))).toBe(true);
  });

  it("not where an alias, a user or a count of aliases differs", () => {
    expect(sameDeclaredUsers(users({ "9102": ["a@x", "b@x"] }), users({ "9102": ["a@x", "c@x"] }))).toBe(false);
    expect(sameDeclaredUsers(users({ "9102": ["a@x", "a@x"] }), users({ "9102": ["a@x"] }))).toBe(false);
    expect(sameDeclaredUsers(users({ "9102": ["a@x"] }), users({ "9103": ["a@x"] }))).toBe(false);
  });
});
