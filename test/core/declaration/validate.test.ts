import { validateDeclaration } from "../../../src/core/declaration";
import type { DeclarationInput } from "../../../src/core/declaration";

/** A valid declaration, with overrides. */
function declaration(overrides: Partial<Record<keyof DeclarationInput, unknown>> = {}): DeclarationInput {
  return {
    ruleId: "rule-1",
    users: [
      { userId: "9102", aliases: ["alice@example.com", "alice@corp.example"] },
      { userId: "9103", aliases: ["bob@example.com"] },
    ],
    ...overrides,
  };
}

describe("validateDeclaration", () => {
  it("accepts a valid declaration, by ID or by name, and an empty list", () => {
    expect(validateDeclaration(declaration())).toEqual([]);
    expect(validateDeclaration(declaration({ ruleId: undefined, ruleName: "Exfiltration", mode: "additive", allowMassRemoval: true }))).toEqual([]);
    expect(validateDeclaration(declaration({ users: [] }))).toEqual([]);
  });

  it.each<[string, Partial<Record<keyof DeclarationInput, unknown>>, string]>([
    ["neither ruleId nor ruleName", { ruleId: undefined }, "ruleId/ruleName: neither is set; set exactly one"],
    ["both ruleId and ruleName", { ruleName: "Exfiltration" }, 'ruleId/ruleName: both are set ("rule-1" and "Exfiltration"); set exactly one'],
    ["an empty ruleId", { ruleId: " " }, "ruleId: is empty; set the rule's observerRuleId"],
    ["an empty ruleName", { ruleId: undefined, ruleName: "" }, "ruleName: is empty; set the rule's exact name"],
    ["an unknown mode", { mode: "exclusive" }, 'mode: "exclusive" is not a list mode; use "authoritative"'],
    ["an empty userId", { users: [{ userId: "", aliases: ["a@x"] }] }, "users[0].userId: is empty; set the user's ID"],
    ["a userId with whitespace", { users: [{ userId: "91 02", aliases: ["a@x"] }] }, 'users[0].userId: "91 02" contains whitespace'],
    [
      "a userId twice",
      { users: [{ userId: "1", aliases: ["a@x"] }, { userId: "1", aliases: ["b@x"] }] },
      'users[1].userId: "1" is already declared at users[0]; merge the two entries',
    ],
    ["a user without aliases", { users: [{ userId: "1", aliases: [] }] }, "users[0].aliases: is empty; give the user at least one alias"],
    ["a whitespace alias", { users: [{ userId: "1", aliases: ["a@x", "  "] }] }, "users[0].aliases[1]: is empty or whitespace"],
    [
      "an alias twice under one user",
      { users: [{ userId: "1", aliases: ["a@x", "A@X "] }] },
      'users[0].aliases[1]: "A@X " repeats users[0].aliases[0] ("a@x"); aliases compare case-insensitively and trimmed',
    ],
    [
      "an alias under two users",
      { users: [{ userId: "1", aliases: ["a@x"] }, { userId: "2", aliases: ["b@x", "a@X"] }] },
      'users[1].aliases[1]: "a@X" repeats users[0].aliases[0]',
    ],
    ["users not an array (plain JavaScript)", { users: "alice" }, "users: must be an array of { userId, aliases }"],
  ])("refuses %s, naming the field and the fix", (_name, overrides, expected) => {
    // when
    const failures = validateDeclaration(declaration(overrides));
    // then
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain(expected);
  });

  it.each([
    ["ESC in a user ID", { userId: "91\u001b[31m02", aliases: ["a@example.com"] }, 'users[0].userId: "91\\u001b[31m02" contains U+001B (control character)'],
    ["the C1 control CSI (U+009B) in a user ID", { userId: "91\u009b2J02", aliases: ["a@example.com"] }, 'users[0].userId: "91\\u009b2J02" contains U+009B (control character)'],
    ["DEL in a user ID", { userId: "9102\u007f", aliases: ["a@example.com"] }, "contains U+007F (control character)"],
    ["a line separator (U+2028) in an alias", { userId: "9102", aliases: ["a@example.com\u2028FAKE: Apply complete!"] }, 'users[0].aliases[0]: "a@example.com\\u2028FAKE: Apply complete!" contains U+2028 (line or paragraph separator)'],
    ["a paragraph separator (U+2029) in an alias", { userId: "9102", aliases: ["a\u2029@example.com"] }, "contains U+2029 (line or paragraph separator)"],
    ["ESC and a newline in an alias", { userId: "9102", aliases: ["x\u001b[31m@x.com\nFAKE"] }, 'users[0].aliases[0]: "x\\u001b[31m@x.com\\u000aFAKE" contains U+001B (control character), U+000A (control character)'],
    ["a bidi isolate (U+2066) in a user ID", { userId: "\u20669102", aliases: ["a@example.com"] }, "contains U+2066 (bidirectional control)"],
  ])("refuses what draws on a screen: %s, the value shown escaped", (_name, user, message) => {
    // when
    const failures = validateDeclaration(declaration({ users: [user] }));
    // then: one failure naming the field and the character, nothing raw in it
    expect(failures).toEqual([expect.stringContaining(message)]);
    expect(failures[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it("reports every failure at once", () => {
    const failures = validateDeclaration({
      ruleId: "r",
      ruleName: "n",
      mode: "sometimes",
      users: [
        { userId: "", aliases: [] },
        { userId: "2", aliases: ["a@x", " "] },
        { userId: "2", aliases: ["A@x"] },
      ],
    });
    expect(failures.map((f) => f.split(":")[0])).toEqual([
      "ruleId/ruleName",
      "mode",
      "users[0].userId",
      "users[2].userId",
      "users[0].aliases",
      "users[1].aliases[1]",
      "users[2].aliases[0]",
    ]);
  });
});
