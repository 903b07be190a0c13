/**
 * Each door's one table of the core's field names (src/shared/field-names.ts): every field the
 * core reports a problem about has a name at each door that can be asked about it, and a problem
 * as data reads in each door's words.
 */
import {
  ATTRIBUTE_NAMES,
  BLOCK_WORDS,
  DECLARATION_FIELDS,
  FLAG_WORDS,
  POLICY_FIELDS,
  PROP_NAMES,
  PROP_WORDS,
  SETTING_FIELDS,
  problemText,
  ref,
  type FieldProblem,
} from "../../src/shared/field-names";

/** The names a table gives `fields`, with the fields it has no name for. */
function named(table: Readonly<Record<string, string>>, fields: readonly string[]): { missing: string[]; names: string[] } {
  const missing = fields.filter((field) => (table[field] ?? "").trim() === "");
  return { missing, names: fields.map((field) => table[field] ?? "") };
}

describe("the doors' tables of field names", () => {
  it("name every field of a declaration and a policy at the construct and at the provider", () => {
    expect(named(PROP_NAMES, [...DECLARATION_FIELDS, ...POLICY_FIELDS]).missing).toEqual([]);
    expect(named(ATTRIBUTE_NAMES, [...DECLARATION_FIELDS, ...POLICY_FIELDS]).missing).toEqual([]);
  });

  it("name every setting of the connection at the CLI and at the provider block", () => {
    expect(named(FLAG_WORDS.names, SETTING_FIELDS).missing).toEqual([]);
    expect(named(BLOCK_WORDS.names, SETTING_FIELDS).missing).toEqual([]);
    expect(named(ATTRIBUTE_NAMES, SETTING_FIELDS).missing).toEqual([]);
  });

  it("give no two fields one name in a table (a policy's check and its one nested field aside: the provider flattens them into one attribute)", () => {
    const distinct = (names: string[]) => new Set(names).size === names.length;
    const exceptNested = [...DECLARATION_FIELDS, ...POLICY_FIELDS.filter((f) => f !== "exclusionListsRequireExpiry.maxDays"), ...SETTING_FIELDS];
    expect(distinct(named(ATTRIBUTE_NAMES, exceptNested).names)).toBe(true);
    expect(distinct(named(PROP_NAMES, [...DECLARATION_FIELDS, ...POLICY_FIELDS]).names)).toBe(true);
    expect(distinct(named(FLAG_WORDS.names, SETTING_FIELDS).names)).toBe(true);
  });

  it("say the provider's words in the provider's table only: snake_case attributes, no CLI flag", () => {
    for (const name of Object.values(ATTRIBUTE_NAMES)) expect(name).toMatch(/^[a-z][a-z_]*$/);
    for (const words of Object.values(BLOCK_WORDS.give)) expect(words).not.toMatch(/--[a-z]/);
  });
});

describe("a problem as data", () => {
  // users[1].aliases[0] repeats users[0].aliases[2]
  const repeated: FieldProblem = { code: "duplicate-alias", at: ["users", 1, "aliases", 0], text: ['"a@x" repeats ', ref("users", 0, "aliases", 2), " (a@X)"] };
  const users = ["9102", "9107"];
  const provider = { names: ATTRIBUTE_NAMES, key: (field: string | number, index: number) => (field === "users" ? users[index] : undefined) };

  it("reads in the construct's words: its props, users by their index", () => {
    expect(problemText(repeated, PROP_WORDS)).toBe('users[1].aliases[0]: "a@x" repeats users[0].aliases[2] (a@X)');
  });

  it("reads in the provider's words: its attributes, users by their ID (the key is the user ID)", () => {
    expect(problemText(repeated, provider)).toBe('users["9107"].aliases[0]: "a@x" repeats users["9102"].aliases[2] (a@X)');
    expect(problemText({ code: "whitespace", at: ["users", 0, "userId"], text: ["contains whitespace"] }, provider)).toBe('users["9102"]: contains whitespace');
    expect(problemText({ code: "not-a-date", at: ["users", 1, "expiresAt"], text: ["is not a date"] }, provider)).toBe('users["9107"].expires_at: is not a date');
  });

  it("names its fields inside the sentence too, and reads as the sentence alone where it is about no one field", () => {
    const unnamed: FieldProblem = { code: "rule-unnamed", at: [], subject: [ref("ruleId"), "/", ref("ruleName")], text: ["set exactly one: ", ref("ruleId"), " or ", ref("ruleName")] };
    expect(problemText(unnamed, PROP_WORDS)).toBe("ruleId/ruleName: set exactly one: ruleId or ruleName");
    expect(problemText(unnamed, provider)).toBe("rule_id/rule_name: set exactly one: rule_id or rule_name");
    expect(problemText({ code: "no-check", at: [], text: ["set one of ", ref("maxUsers")] }, provider)).toBe("set one of max_users");
  });
});
