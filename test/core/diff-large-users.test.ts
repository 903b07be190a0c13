/**
 * The diff's alias comparisons take two paths: a scan for users with few aliases and a Set beyond
 * that (src/core/engine/diff.ts, SCAN_LIMIT = 16). Both must give the same changes; so must merging
 * repeated entries of one user ID, whichever path merges them.
 */
import { diffRule } from "../../src/core/engine/diff";
import { declared, entry, found, listOf, user } from "../support/builders";

const BATCH = { batchSize: 100 };
const aliases = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, "0")}@x.com`);

describe.each([3, 40])("a user with %i aliases", (n) => {
  it("gains the missing aliases and loses the extra ones, compared case-insensitively", () => {
    // given: declared a000..a(n-1); present A000..A(n-3) in capitals plus two aliases not declared
    const wanted = aliases("a", n);
    const present = [...aliases("A", n - 2), "old1@x.com", "OLD2@x.com"];
    // when
    const plan = diffRule(declared([user("u1", ...wanted)]), found(listOf([entry("u1", ...present)])), BATCH);
    // then
    expect(plan.changes.addAliases).toEqual([{ userId: "u1", aliases: wanted.slice(n - 2) }]);
    expect(plan.changes.removeAliases).toEqual([{ userId: "u1", aliases: ["old1@x.com", "OLD2@x.com"] }]);
    expect(plan.changes.addUsers).toEqual([]);
    expect(plan.changes.removeUsers).toEqual([]);
  });

  it("is a no-op when the same aliases are present in another case and order", () => {
    const wanted = aliases("a", n);
    const present = [...aliases("A", n)].reverse();
    const plan = diffRule(declared([user("u1", ...wanted)]), found(listOf([entry("u1", ...present)])), BATCH);
    expect(plan.action).toBe("no-op");
  });

  it("merges repeated entries of one user ID, keeping the first spelling of each alias", () => {
    // given the user's aliases spread over two entries, with a case-insensitive repeat
    const half = Math.ceil(n / 2);
    const first = aliases("a", half);
    const second = [...aliases("a", n).slice(half), "A000@x.com", "gone@x.com"];
    // when the declaration keeps every alias but gone@x.com
    const plan = diffRule(declared([user("u1", ...aliases("a", n))]), found(listOf([entry("u1", ...first), entry("u1", ...second)])), BATCH);
    // then only gone@x.com is removed (A000 is the same alias as a000)
    expect(plan.changes.addAliases).toEqual([]);
    expect(plan.changes.removeAliases).toEqual([{ userId: "u1", aliases: ["gone@x.com"] }]);
  });

  it("lists a removed user's aliases once each, in canonical order", () => {
    const plan = diffRule(declared([user("u2", "b@x.com")]), found(listOf([entry("u1", ...aliases("z", n)), entry("u1", "Z000@x.com"), entry("u2", "b@x.com")])), BATCH);
    expect(plan.changes.removeUsers).toEqual([{ userId: "u1", aliases: aliases("z", n) }]);
  });
});
