/**
 * One counting rule in every renderer (issue 25): a user added or removed counts once, as a user,
 * whatever their aliases; alias counts are the aliases added to or removed from users who stay.
 * Text and markdown show the same numbers for the same plan, each with the rule as a legend.
 */
import { renderApplyMarkdown, renderApplyText, renderPlanMarkdown, renderPlanText } from "../../../src/core/render";
import { CALL_COUNTING_LEGEND, COUNTING_LEGEND } from "../../../src/core/render/counts";
import { applyResult, call, declared, entry, exfiltrationCase, found, inclusion, planOf, ruleResult, user } from "./builders";

const lines = (text: string): string[] => text.trimEnd().split("\n");

describe("one counting rule", () => {
  it("removing one user with one alias is one user to remove, and no alias", () => {
    // given a list of two users; the declaration drops one
    const plan = planOf({
      declaration: declared("watch", "r-1", [user("1", "a@example.com")]),
      observation: found("r-1", "Watch", inclusion(entry("1", "a@example.com"), entry("2", "b@example.com"))),
    });

    // when
    const text = renderPlanText(plan, { color: false });
    const md = renderPlanMarkdown(plan);

    // then
    const sentence = "Plan: 1 rule to update, 0 users to add, 1 user to remove, 0 aliases to add, 0 aliases to remove.";
    expect(lines(text).at(-1)).toBe(sentence);
    expect(md).toContain(`**${sentence}**`);
    expect(md).toContain("| Aliases to remove | 0 |");
    expect(md).toContain("· -1 user</summary>");
  });

  it("adding a user with two aliases: the text summary and the markdown count it the same way (+1 user, no alias)", () => {
    // given
    const plan = planOf({
      declaration: declared("watch", "r-1", [user("1", "a@example.com"), user("2", "b@example.com", "b2@example.com")]),
      observation: found("r-1", "Watch", inclusion(entry("1", "a@example.com"))),
    });

    // when
    const text = renderPlanText(plan, { color: false });
    const md = renderPlanMarkdown(plan);

    // then
    const sentence = "Plan: 1 rule to update, 1 user to add, 0 users to remove, 0 aliases to add, 0 aliases to remove.";
    expect(lines(text).at(-1)).toBe(sentence);
    expect(md).toContain(`**${sentence}**`);
    expect(md).toContain("· +1 user</summary>");
  });

  it("aliases gained and lost by users who stay are the alias counts, in the summary and per rule alike", () => {
    // given users added, removed, and a user who stays gaining one alias and losing another
    const plan = planOf(exfiltrationCase());

    // when
    const text = renderPlanText(plan, { color: false });
    const md = renderPlanMarkdown(plan);

    // then
    const sentence = "Plan: 1 rule to update, 1 user to add, 1 user to remove, 1 alias to add, 1 alias to remove.";
    expect(lines(text).at(-1)).toBe(sentence);
    expect(md).toContain(`**${sentence}**`);
    expect(md).toContain("· +1 user, -1 user, +1 alias, -1 alias</summary>");
    expect(md).toContain("removes: 1 user, 1 alias");
  });

  it("text and markdown state the rule as a legend; the apply outputs count users in calls by the same rule", () => {
    // given
    const plan = planOf(exfiltrationCase());
    const applied = applyResult(ruleResult({ outcome: "applied", verified: true, calls: [call("add-users", 2), call("remove-users", 1)] }));

    // when / then
    expect(COUNTING_LEGEND).toMatch(/a user added or removed counts once.*aliases.*users who stay/i);
    expect(renderPlanText(plan, { color: false })).toContain(COUNTING_LEGEND);
    expect(renderPlanMarkdown(plan)).toContain(COUNTING_LEGEND);
    expect(renderApplyText(applied, { color: false })).toContain("add-users (2 users)");
    expect(renderApplyText(applied, { color: false })).toContain(CALL_COUNTING_LEGEND);
    expect(renderApplyMarkdown(applied)).toContain(CALL_COUNTING_LEGEND);
  });
});
