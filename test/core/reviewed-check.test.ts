/**
 * A merge applies what the reviewer saw, or nothing (src/core/native/reviewed-check.ts): a rule's
 * plan at merge time is held against the reviewed plan of that rule. Plans are made by the engine
 * itself (diffRule) from declarations and observed lists, as the provider makes them.
 */
import { diffRule } from "../../src/core/engine/diff";
import type { Plan, RulePlan } from "../../src/core/engine/plan-schema";
import { differencesFromReview, reviewedRuleFor } from "../../src/core/native/reviewed-check";
import { declared, entry, found, listOf, user } from "../support/builders";

const BATCH = { batchSize: 100 };
const alice = user("1", "alice@x.com");
const bob = user("2", "bob@x.com");
const carol = user("3", "carol@x.com");

/** The engine's plan of a declaration against a live list. */
const planOf = (users = [alice, bob], live = [entry("1", "alice@x.com")], type: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED" = "SPECIFIED_USERS"): RulePlan => diffRule(declared(users), found(listOf(live, type)), BATCH);

describe("a merge's plan of a rule, held against the reviewed plan", () => {
  it("the same plan as reviewed is covered", () => {
    expect(differencesFromReview(planOf(), planOf())).toEqual([]);
  });

  it("part of the reviewed change already made (an apply cut short, a re-run): covered, it sends less", () => {
    // given: the review saw alice kept, bob and carol added, dave removed
    const reviewed = planOf([alice, bob, carol], [entry("1", "alice@x.com"), entry("4", "dave@x.com")]);
    // when: bob was added and dave removed before the run was cut short
    const now = planOf([alice, bob, carol], [entry("1", "alice@x.com"), entry("2", "bob@x.com")]);
    // then
    expect(now.calls.length).toBeGreaterThan(0);
    expect(differencesFromReview(now, reviewed)).toEqual([]);
  });

  it("a plan that sends nothing is always covered, reviewed or not", () => {
    expect(differencesFromReview(planOf([alice], [entry("1", "alice@x.com")]), null)).toEqual([]);
  });

  it("a user added in the console since the review would be removed: a difference naming the user", () => {
    const reviewed = planOf();
    const now = planOf([alice, bob], [entry("1", "alice@x.com"), entry("9", "mallory@x.com")]);
    expect(differencesFromReview(now, reviewed)).toEqual(['it would remove, which the reviewed plan did not (added outside git since the review?): user "9" (mallory@x.com)']);
  });

  it("another change of the declaration (another merge): a difference naming what it adds", () => {
    expect(differencesFromReview(planOf([alice, bob, carol]), planOf())).toEqual(['it would add, which the reviewed plan did not: user "3" (carol@x.com)']);
  });

  it("no reviewed plan for the rule, a reviewed no-op, or a list whose type flipped: each a difference", () => {
    expect(differencesFromReview(planOf(), null)).toEqual([expect.stringMatching(/^no reviewed plan shows a change of this rule/)]);
    expect(differencesFromReview(planOf(), planOf([alice], [entry("1", "alice@x.com")]))).toEqual([expect.stringMatching(/^the reviewed plan showed no change of this rule \(no-op\)/)]);
    expect(differencesFromReview(planOf([alice, bob], [entry("1", "alice@x.com")], "ALL_USERS_NOT_SPECIFIED"), planOf())).toEqual([
      "the list's type is ALL_USERS_NOT_SPECIFIED now; the reviewed plan was made against SPECIFIED_USERS",
    ]);
  });

  it("a list that must now be rebuilt (an entry without a user ID appeared) empties it: a difference", () => {
    const now = planOf([alice, bob], [entry("1", "alice@x.com"), entry(null, "someone@x.com")]);
    expect(differencesFromReview(now, planOf())).toContain("it would empty the list (remove-all-users), which the reviewed plan did not");
  });

  it("aliases compare case-insensitively: a reviewed alias in another case is the same", () => {
    expect(differencesFromReview(planOf([alice, user("2", "Bob@X.com")]), planOf())).toEqual([]);
  });

  it("takes the newest reviewed plan that shows the rule", () => {
    const plan = (createdAt: string, rule: RulePlan) => ({ createdAt, rules: [rule] }) as unknown as Plan;
    const older = planOf([alice]);
    const newer = planOf([alice, bob]);
    expect(reviewedRuleFor("rule-1", [plan("2026-11-02T00:00:00Z", newer), plan("2026-11-01T00:00:00Z", older)])).toBe(newer);
    expect(reviewedRuleFor("rule-2", [plan("2026-11-02T00:00:00Z", newer)])).toBeNull();
  });
});
