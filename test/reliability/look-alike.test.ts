/**
 * Look-alike text (issue 11, item 8): an alias with a zero-width space or a right-to-left override
 * reads like another alias. Every renderer shows such characters escaped (`\u200b`, `\u202e`), the
 * markdown one included (it used to drop them), and synth refuses them in aliases and user IDs,
 * naming the construct path.
 */
import { TerraformStack, Testing } from "cdktf";
import { RuleUserList } from "../../src/constructs";
import { renderPlanMarkdown, renderPlanText } from "../../src/core/render";
import { validateDeclaration } from "../../src/core/declaration";
import { cell, renderTable } from "../../src/cli/table";
import { declared, found, inclusion, planOf, user, entry } from "../core/render/builders";

const ZWSP = "\u200b";
const RLO = "\u202e";
const RULE = "00000000-0000-4000-8000-00000000000a";

/** A plan adding a look-alike of bob and removing a bob spelled with a right-to-left override. */
function lookAlikePlan() {
  return planOf({
    declaration: declared("watch", RULE, [user("1", "alice@example.com"), user("2", `bob${ZWSP}@example.com`)]),
    observation: found(RULE, "Watch", inclusion(entry("1", "alice@example.com"), entry("3", `${RLO}moc.elpmaxe@evil`))),
  });
}

describe("renderers show invisible and bidi characters escaped", () => {
  it("text: the zero-width space and the override appear as \\u200b and \\u202e, never raw", () => {
    // when
    const text = renderPlanText(lookAlikePlan(), { color: false });
    // then
    expect(text).toContain("bob\\u200b@example.com");
    expect(text).toContain("\\u202emoc.elpmaxe@evil");
    expect(text).not.toMatch(/[\u200b\u202e]/);
  });

  it("markdown: the same characters are escaped, not dropped", () => {
    // when
    const markdown = renderPlanMarkdown(lookAlikePlan());
    // then
    expect(markdown).toContain("bob\\u200b@example.com");
    expect(markdown).toContain("\\u202emoc.elpmaxe@evil");
    expect(markdown).not.toMatch(/[\u200b\u202e]/);
  });

  it.each([
    ["zero-width space", "a\u200bb", "a\\u200bb"],
    ["zero-width joiner", "a\u200db", "a\\u200db"],
    ["left-to-right isolate", "a\u2066b", "a\\u2066b"],
    ["byte order mark", "\ufeffab", "\\ufeffab"],
    ["right-to-left mark", "a\u200fb", "a\\u200fb"],
    ["escape sequence", "a\u001b[31mb", "a\\u001b[31mb"],
  ])("tables (triage, rules list, who): %s is escaped", (_name, raw, shown) => {
    expect(cell(raw)).toBe(shown);
    expect(renderTable(["alias"], [[raw]])).toContain(shown);
  });
});

describe("synth refuses look-alike characters in aliases and user IDs", () => {
  it("names the construct path, the field and the character", () => {
    // given
    const app = Testing.app();
    const stack = new TerraformStack(app, "prod");
    new RuleUserList(stack, "watch", {
      ruleId: RULE,
      users: [
        { userId: "1", aliases: [`bob${ZWSP}@example.com`] },
        { userId: `2${RLO}`, aliases: [`${RLO}moc.elpmaxe@evil`] },
      ],
    });
    // when / then
    let message = "";
    try {
      app.synth();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('[prod/watch] users[0].aliases[0]: "bob\\u200b@example.com" contains U+200B (zero-width or invisible character)');
    expect(message).toContain('[prod/watch] users[1].userId: "2\\u202e" contains U+202E (bidirectional control)');
    expect(message).toContain("[prod/watch] users[1].aliases[0]:");
    expect(message).not.toMatch(/[\u200b\u202e]/);
  });

  it("also refuses them in a hand-edited synthesized declaration (the reader validates too)", () => {
    expect(validateDeclaration({ ruleId: RULE, users: [{ userId: "1", aliases: ["a\u2067b@example.com"] }] })).toEqual([
      'users[0].aliases[0]: "a\\u2067b@example.com" contains U+2067 (bidirectional control); such characters are invisible, move the cursor or reorder the text, so the value would read as something else in a review. Remove them',
    ]);
  });

  it("accepts ordinary non-ASCII letters (they are visible)", () => {
    expect(validateDeclaration({ ruleId: RULE, users: [{ userId: "1", aliases: ["zoë@exämple.com", "李@example.com"] }] })).toEqual([]);
  });
});
