/**
 * The native resource's attributes as a RuleUserList synthesizes them and plan reads them back:
 * every user ID is a key like any other, `__proto__` included (design §12.1: plain data from wire
 * to diff).
 */
import { decodeNativeAttributes, encodeNativeAttributes } from "../../../src/core/declaration/native";

describe("the native resource's users", () => {
  it('writes and reads back a user whose ID is "__proto__" as any other user', () => {
    const users = [
      { userId: "__proto__", aliases: ["proto@example.com"] },
      { userId: "9102", aliases: ["alice@example.com"] },
    ];
    const written = JSON.parse(JSON.stringify(encodeNativeAttributes({ ruleId: "r-1", ruleName: undefined, mode: "authoritative", allowMassRemoval: false, users }, [])));
    expect(Object.keys(written.users).sort()).toEqual(["9102", "__proto__"]);
    const read = decodeNativeAttributes(written, "stack/list");
    expect(read.declaration.users.map((u) => u.userId).sort()).toEqual(["9102", "__proto__"]);
    expect(read.declaration.users.find((u) => u.userId === "__proto__")?.aliases).toEqual(["proto@example.com"]);
  });
});
