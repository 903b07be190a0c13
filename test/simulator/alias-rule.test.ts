/**
 * The simulator compares aliases by a rule of its own (src/simulator/alias.ts), written from the
 * service's behaviour; the engine has its own (src/core/engine/canonical.ts aliasKey). They must agree, or
 * plans made against the simulator would not converge against the service it stands for.
 */
import { aliasKey } from "../../src/core/engine/canonical";
import { serviceAliasKey } from "../../src/simulator/alias";

const SPELLINGS = [
  ["alice@example.com", "ALICE@Example.COM"],
  ["  bob@example.com", "bob@example.com\t"],
  ["Ünïcödé@例え.jp", "üNÏCÖDÉ@例え.JP"],
  ["carol@example.com", "carol@example.org"],
  ["dave@example.com", "dave @example.com"],
  ["\u00a0erin@example.com\u00a0", "erin@example.com"],
  ["frank\u200b@example.com", "frank@example.com"],
  ["İstanbul@example.com", "i̇stanbul@example.com"],
  ["ǅ@example.com", "ǆ@example.com"],
];

describe("the simulator's alias rule and the engine's", () => {
  it.each(SPELLINGS)("agree whether %j and %j are the same alias", (a, b) => {
    // given two spellings
    // when each side compares them
    const engine = aliasKey(a) === aliasKey(b);
    const simulator = serviceAliasKey(a) === serviceAliasKey(b);
    // then both reach the same answer
    expect(simulator).toBe(engine);
  });

  it("treat case and surrounding spaces as the same alias, and anything else as another", () => {
    expect(serviceAliasKey(" Alice@Example.com ")).toBe(serviceAliasKey("alice@example.com"));
    expect(serviceAliasKey("alice@example.com")).not.toBe(serviceAliasKey("alice@example.org"));
  });
});
