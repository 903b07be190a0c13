import { createHash } from "node:crypto";
import { compareStrings } from "../../src/core/engine/canonical";
import { fingerprintList } from "../../src/core/engine/fingerprint";
import type { ObservedList } from "../../src/core/engine/observation";

/** The first implementation, kept as the specification: saved plans carry fingerprints made by it. */
function referenceFingerprint(list: ObservedList): string {
  const entries = list.entries
    .map((e) => ({ u: e.userId, a: [...e.aliases].sort(compareStrings) }))
    .sort((x, y) => compareStrings(JSON.stringify(x), JSON.stringify(y)));
  const canonical = JSON.stringify({ t: list.usersToAlertOn, e: entries });
  return "sha256:" + createHash("sha256").update(canonical).digest("hex");
}

function randomList(seed: number): ObservedList {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const aliases = ["a@x.com", "B@x.com", "b@x.com", 'q"uote@x.com', "é@x.com", "\\back@x.com", "z@y.org"];
  const entries = Array.from({ length: next(8) }, () => ({
    userId: next(5) === 0 ? null : String(next(6)),
    aliases: Array.from({ length: 1 + next(3) }, () => aliases[next(aliases.length)]!),
  }));
  const types = ["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"] as const;
  return { usersToAlertOn: types[next(3)]!, entries };
}

describe("fingerprintList", () => {
  it("gives the same digest as the reference implementation (saved plans stay valid)", () => {
    // given lists with null IDs, repeated IDs, case variants and characters JSON escapes
    for (let seed = 1; seed <= 300; seed++) {
      const list = randomList(seed);
      // when / then
      expect(fingerprintList(list)).toBe(referenceFingerprint(list));
    }
  });

  it.each([
    ["an empty inclusion list", { usersToAlertOn: "SPECIFIED_USERS", entries: [] }, "sha256:a17cafac1433ba363143c062941f9c0712344672cfd4c9236d87e8b249db7fd6"],
    [
      "two users",
      { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "1", aliases: ["x@a.com", "y@a.com"] }, { userId: "2", aliases: ["z@a.com"] }] },
      "sha256:73b79fae0cd7f9b181f85497e7c25f7bca94fef0b5cb2a72be1bbcdd6f0e43c0",
    ],
    [
      "an exclusion list with an entry without ID",
      { usersToAlertOn: "ALL_USERS_NOT_SPECIFIED", entries: [{ userId: null, aliases: ["No ID@x.com"] }, { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] }] },
      "sha256:9613278218b63a7a9cebe31f6aafb72826b2c8daa12614e0d6d0f994b4413026",
    ],
  ] satisfies [string, ObservedList, string][])("pins the digest of %s (saved plans carry these; a change breaks every saved plan)", (_name, list, digest) => {
    // given a list whose digest was computed independently (sha256 of the canonical JSON)
    // when / then
    expect(fingerprintList(list)).toBe(digest);
  });

  it("is the same for the same list in another order, and differs when a spelling changes", () => {
    const a: ObservedList = { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "1", aliases: ["x@a.com", "y@a.com"] }, { userId: "2", aliases: ["z@a.com"] }] };
    const b: ObservedList = { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "2", aliases: ["z@a.com"] }, { userId: "1", aliases: ["y@a.com", "x@a.com"] }] };
    const c: ObservedList = { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "2", aliases: ["Z@a.com"] }, { userId: "1", aliases: ["y@a.com", "x@a.com"] }] };
    expect(fingerprintList(a)).toBe(fingerprintList(b));
    expect(fingerprintList(a)).not.toBe(fingerprintList(c));
  });

  it("does not mutate its input", () => {
    const list: ObservedList = { usersToAlertOn: "SPECIFIED_USERS", entries: [{ userId: "1", aliases: ["b@a.com", "a@a.com"] }] };
    const copy = structuredClone(list);
    fingerprintList(list);
    expect(list).toEqual(copy);
  });
});
