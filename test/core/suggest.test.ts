/**
 * "Did you mean …?" (issue 32, wrong turn 4): one helper finds the name a typo meant, for flags,
 * rule names and stack names alike: the same name in another case, or one a few edits away.
 */
import { didYouMean, editDistance, suggest } from "../../src/core/engine/suggest";

describe("suggest", () => {
  it("finds a name that differs only in case", () => {
    expect(suggest("endpoint exfiltration - engineering", ["Cloud sharing", "Endpoint exfiltration - Engineering"])).toBe("Endpoint exfiltration - Engineering");
  });

  it("finds a name a small edit away: a letter missing, added, changed, or two swapped", () => {
    const flags = ["detailed-exitcode", "out", "format", "changed-since"];
    expect(suggest("detailed-exit-code", flags)).toBe("detailed-exitcode");
    expect(suggest("chnaged-since", flags)).toBe("changed-since");
    expect(suggest("fromat", flags)).toBe("format");
    expect(suggest("formats", flags)).toBe("format");
  });

  it("suggests nothing when no name is near, or for the name itself", () => {
    expect(suggest("frobnicate", ["detailed-exitcode", "out", "format"])).toBeUndefined();
    expect(suggest("Finance", ["Engineering"])).toBeUndefined();
    expect(suggest("out", ["out"])).toBeUndefined();
    expect(suggest("", ["a"])).toBeUndefined();
  });

  it("prefers the nearest, then the first given", () => {
    expect(suggest("stak", ["stacks", "stack"])).toBe("stack");
    expect(suggest("ab", ["ac", "ad"])).toBe("ac");
  });

  it("didYouMean is a sentence for a message, or nothing", () => {
    expect(didYouMean("alert-rule", ["alert-rules"])).toBe(" Did you mean 'alert-rules'?");
    expect(didYouMean("detailed-exit-code", ["detailed-exitcode"], (n) => `--${n}`)).toBe(" Did you mean --detailed-exitcode?");
    expect(didYouMean("zzz", ["alert-rules"])).toBe("");
  });

  it("editDistance counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});
