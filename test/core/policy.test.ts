/**
 * RuleUserListPolicy checks (docs/contract.md §9.1), one table per check: a declaration with its policies,
 * what the service has, and whether the rule becomes a policy error (sending nothing) or passes.
 */
import type { UsersToAlertOn } from "../../src/api/rules/schemas";
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredList, DesiredUser, ListMode } from "../../src/core/engine/desired";
import { checkPlanIsApplicable } from "../../src/core/engine/guards";
import type { ObservedEntry, Plan } from "../../src/core/engine/plan-schema";
import { encodePolicy, validatePolicyProps } from "../../src/core/engine/policy-schema";
import type { ListPolicy } from "../../src/core/engine/policy-schema";
import { renderPlanMarkdown, renderPlanText } from "../../src/core/render";
import { UnresolvedRulesError } from "../../src/errors";
import { declared, entry, found, listOf } from "../support/builders";

const NOW = "2026-11-23T08:00:00Z";

const u = (userId: string, aliases: string[], expiresAt?: string): DesiredUser => (expiresAt === undefined ? { userId, aliases } : { userId, aliases, expiresAt });

function planWith(policies: ListPolicy[], users: DesiredUser[], observed: ObservedEntry[], listType: UsersToAlertOn = "SPECIFIED_USERS", mode: ListMode = "authoritative"): Plan {
  const list: DesiredList = { ...declared(users, { mode }), policies };
  return buildPlan({
    declarations: [list],
    observations: [found(listOf(observed, listType))],
    connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
    createdAt: "2026-11-23T08:00:00.000Z",
    now: NOW,
    toolVersion: "0.0.0-test",
  });
}

const policy = (checks: Omit<ListPolicy, "path">): ListPolicy => ({ path: "stack/guardrails", ...checks });

function expectViolation(plan: Plan, check: string, users: string[], reason: RegExp): void {
  const rule = plan.rules[0]!;
  expect(rule.action).toBe("error");
  expect(rule.errorKind).toBe("policy");
  expect(rule.calls).toEqual([]);
  expect(rule.violations?.map((v) => v.check)).toEqual([check]);
  expect(rule.violations?.[0]?.users).toEqual(users);
  expect(rule.reason).toMatch(/^policy stack\/guardrails: /);
  expect(rule.reason).toMatch(reason);
  expect(plan.summary.errors).toBe(1);
  // apply sends nothing: the guard refuses the whole plan
  expect(() => checkPlanIsApplicable(plan, {})).toThrow(UnresolvedRulesError);
}

function expectPass(plan: Plan): void {
  const rule = plan.rules[0]!;
  expect(rule.errorKind).toBeNull();
  expect(rule.violations).toEqual([]);
  expect(() => checkPlanIsApplicable(plan, { allowMassRemoval: true })).not.toThrow();
}

describe("maxUsers", () => {
  const three = [u("u1", ["a@x.com"]), u("u2", ["b@x.com"]), u("u3", ["c@x.com"])];
  it.each([
    ["authoritative, 3 declared, max 3", 3, "authoritative", [], true],
    ["authoritative, 3 declared, max 2", 2, "authoritative", [], false],
    ["authoritative, 3 declared, 3 live of which 2 undeclared, max 3 (the list ends with 3)", 3, "authoritative", ["u1", "u4", "u5"], true],
    ["additive, 3 declared plus 1 undeclared live, max 3", 3, "additive", ["u4"], false],
    ["additive, 3 declared plus 1 undeclared live, max 4", 4, "additive", ["u4"], true],
  ] as const)("%s", (_case, max, mode, extraLive, passes) => {
    const observed = extraLive.map((id) => entry(id, `${id}@x.com`));
    const plan = planWith([policy({ maxUsers: max })], three, observed, "SPECIFIED_USERS", mode);
    if (passes) expectPass(plan);
    else expectViolation(plan, "maxUsers", ["u1", "u2", "u3"], new RegExp(`maxUsers ${max}: the list would have \\d+ users \\(adds u1, u2, u3\\)`));
  });

  it("does not count expired users", () => {
    const plan = planWith([policy({ maxUsers: 1 })], [u("u1", ["a@x.com"]), u("u2", ["b@x.com"], "2026-11-01")], []);
    expectPass(plan);
  });
});

describe("allowedAliasDomains", () => {
  it.each([
    ["every alias in the domain", ["example.com"], [u("u1", ["a@example.com", "A@EXAMPLE.COM.x"])], ["u1"]],
    ["domains compare case-insensitively", ["Example.COM"], [u("u1", ["a@example.com"]), u("u2", ["B@Example.Com"])], []],
    ["a subdomain is another domain", ["example.com"], [u("u1", ["a@eu.example.com"])], ["u1"]],
    ["an alias without @ has no domain", ["example.com"], [u("u1", ["alice"])], ["u1"]],
    ["several domains", ["example.com", "corp.example"], [u("u1", ["a@example.com", "a@corp.example"]), u("u2", ["b@evil.test"])], ["u2"]],
  ])("%s", (_case, domains, users, bad) => {
    const plan = planWith([policy({ allowedAliasDomains: domains })], users, []);
    if (bad.length === 0) expectPass(plan);
    else expectViolation(plan, "allowedAliasDomains", bad, /allowedAliasDomains \[.*\]: u\d \(/);
  });

  it("names the aliases at fault", () => {
    const plan = planWith([policy({ allowedAliasDomains: ["example.com"] })], [u("u2", ["b@example.com", "b@evil.test"])], []);
    expect(plan.rules[0]!.reason).toContain("u2 (b@evil.test)");
  });
});

describe("exclusionListsRequireExpiry", () => {
  it.each([
    ["exclusion list, every user expires within maxDays", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"], "2026-12-01")], []],
    ["exclusion list, expiry exactly maxDays away", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"], "2027-02-21")], []],
    ["exclusion list, expiry one day too far", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"], "2027-02-22")], ["u1"]],
    ["exclusion list, a user without expiresAt", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"], "2026-12-01"), u("u2", ["b@x.com"])], ["u2"]],
    ["inclusion list: the check does not apply", "SPECIFIED_USERS", [u("u2", ["b@x.com"])], []],
    ["exclusion list, an expired user is removed, not a violation", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"], "2026-11-01")], []],
  ] as const)("%s", (_case, listType, users, bad) => {
    const plan = planWith([policy({ exclusionListsRequireExpiry: { maxDays: 90 } })], [...users], [], listType);
    if (bad.length === 0) expectPass(plan);
    else expectViolation(plan, "exclusionListsRequireExpiry", [...bad], /exclusionListsRequireExpiry \(maxDays 90\): every user of an exclusion list needs an expiresAt on or before 2027-02-21: u\d \((no expiresAt|expires 2027-02-22, after 2027-02-21)\)/);
  });
});

describe("forbidRemovalsFromInclusionLists", () => {
  it.each([
    ["inclusion list, adds only", "SPECIFIED_USERS", [u("u1", ["a@x.com"]), u("u2", ["b@x.com"])], [entry("u1", "a@x.com")], []],
    ["inclusion list, a user removed", "SPECIFIED_USERS", [u("u1", ["a@x.com"])], [entry("u1", "a@x.com"), entry("u2", "b@x.com")], ["u2"]],
    ["inclusion list, an alias removed", "SPECIFIED_USERS", [u("u1", ["a@x.com"])], [entry("u1", "a@x.com", "old@x.com")], ["u1"]],
    ["inclusion list, an expired user removed", "SPECIFIED_USERS", [u("u1", ["a@x.com"], "2026-11-01")], [entry("u1", "a@x.com")], ["u1"]],
    ["exclusion list, a user removed: allowed", "ALL_USERS_NOT_SPECIFIED", [u("u1", ["a@x.com"])], [entry("u1", "a@x.com"), entry("u2", "b@x.com")], []],
  ] as const)("%s", (_case, listType, users, observed, bad) => {
    const plan = planWith([policy({ forbidRemovalsFromInclusionLists: true })], [...users], [...observed], listType);
    if (bad.length === 0) expectPass(plan);
    else expectViolation(plan, "forbidRemovalsFromInclusionLists", [...bad], /forbidRemovalsFromInclusionLists: this inclusion list would lose u\d/);
  });

  it("names an expired user as expired", () => {
    const plan = planWith([policy({ forbidRemovalsFromInclusionLists: true })], [u("u1", ["a@x.com"], "2026-11-01")], [entry("u1", "a@x.com")]);
    expect(plan.rules[0]!.reason).toContain("u1 (expired on 2026-11-01)");
  });

  it("an inclusion list emptied entirely (entries without IDs) is a violation too", () => {
    const plan = planWith([policy({ forbidRemovalsFromInclusionLists: true })], [], [entry(null, "x@x.com")]);
    expect(plan.rules[0]!.errorKind).toBe("policy");
    expect(plan.rules[0]!.reason).toContain("an entry without user ID (x@x.com)");
  });
});

describe("several policies and rules", () => {
  it("reports every violated check of every policy, and lists policy violations first in the comment", () => {
    // given two policies on one list
    const plan = planWith(
      [policy({ maxUsers: 0 }), { path: "app/org-wide", allowedAliasDomains: ["example.com"] }],
      [u("u1", ["a@evil.test"])],
      [],
    );

    // then
    const rule = plan.rules[0]!;
    expect(rule.violations?.map((v) => `${v.policy} ${v.check}`)).toEqual(["stack/guardrails maxUsers", "app/org-wide allowedAliasDomains"]);
    expect(rule.reason).toContain("; policy app/org-wide: allowedAliasDomains");
    const markdown = renderPlanMarkdown(plan);
    expect(markdown).toContain("### Policy violations (2)");
    expect(markdown.indexOf("### Policy violations")).toBeLessThan(markdown.indexOf("No changes") < 0 ? Infinity : markdown.indexOf("No changes"));
    expect(renderPlanText(plan, { color: false })).toContain("policy stack/guardrails: maxUsers 0");
  });

  it("rules that are skipped or unknown are not checked", () => {
    const plan = buildPlan({
      declarations: [{ ...declared([u("u1", ["a@evil.test"])]), policies: [policy({ maxUsers: 0 })] }],
      observations: [found(listOf([]), { isSystem: true })],
      connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
      createdAt: "2026-11-23T08:00:00.000Z",
      now: NOW,
      toolVersion: "0.0.0-test",
    });
    expect(plan.rules[0]!.action).toBe("skip");
  });
});

describe("policy props at synth", () => {
  it.each([
    [{}, /sets no check/],
    [{ maxUsers: -1 }, /maxUsers: must be a whole number/],
    [{ maxUsers: 2.5 }, /maxUsers: must be a whole number/],
    [{ allowedAliasDomains: [] }, /allowedAliasDomains: must be a non-empty array/],
    [{ allowedAliasDomains: ["@example.com"] }, /allowedAliasDomains\[0\]: must be a domain without "@"/],
    [{ exclusionListsRequireExpiry: {} }, /exclusionListsRequireExpiry.maxDays: must be a whole number of days/],
    [{ exclusionListsRequireExpiry: { maxDays: "90" } }, /exclusionListsRequireExpiry.maxDays/],
    [{ forbidRemovalsFromInclusionLists: "yes" }, /forbidRemovalsFromInclusionLists: must be true or false/],
  ])("%j fails: %s", (props, message) => {
    expect(validatePolicyProps(props).join("\n")).toMatch(message);
  });

  it("encodes only the checks that are set", () => {
    expect(validatePolicyProps({ maxUsers: 5, allowedAliasDomains: [" example.com "] })).toEqual([]);
    expect(encodePolicy("s/p", { maxUsers: 5, allowedAliasDomains: [" example.com "] })).toEqual({ path: "s/p", maxUsers: 5, allowedAliasDomains: ["example.com"] });
  });
});
