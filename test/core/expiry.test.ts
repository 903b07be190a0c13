/**
 * Users that expire (docs/contract.md §9.1), table by table: dates, what an authoritative and an additive
 * list do with an expired user on a given `now`, the "expired" reason and summary.expiringSoon.
 */
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredUser, DesiredList } from "../../src/core/engine/desired";
import { addDays, daysBetween, isCalendarDate, isInstant, splitExpired } from "../../src/core/engine/expiry";
import { parsePlan, serializePlan } from "../../src/core/engine/plan-schema";
import type { Plan } from "../../src/core/engine/plan-schema";
import type { ObservedList } from "../../src/core/engine/observation";
import { renderPlanMarkdown, renderPlanText } from "../../src/core/render";
import { declared, entry, found, listOf, prng } from "../support/builders";

const expiring = (userId: string, expiresAt: string | undefined, ...aliases: string[]): DesiredUser =>
  expiresAt === undefined ? { userId, aliases } : { userId, aliases, expiresAt };

function planAt(now: string, list: DesiredList, observed: ObservedList): Plan {
  return buildPlan({
    declarations: [list],
    observations: [found(observed)],
    connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
    createdAt: "2026-11-01T09:00:00.000Z",
    now,
    toolVersion: "0.0.0-test",
  });
}

describe("dates", () => {
  it.each([
    ["2026-12-31", true],
    ["2028-02-29", true],
    ["2026-02-29", false],
    ["2100-02-29", false],
    ["2000-02-29", true],
    ["2026-04-31", false],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["2026-1-05", false],
    ["26-01-05", false],
    ["2026-01-05T00:00:00Z", false],
    ["05/01/2026", false],
    ["", false],
  ])("isCalendarDate(%j) is %s", (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it.each([
    ["2026-11-23T08:00:00Z", true],
    ["2026-11-23T23:59:59Z", true],
    ["2026-11-23T24:00:00Z", false],
    ["2026-11-23T08:00:00.000Z", false],
    ["2026-11-23T08:00:00+01:00", false],
    ["2026-11-23", false],
    ["2026-02-30T00:00:00Z", false],
  ])("isInstant(%j) is %s", (value, expected) => {
    expect(isInstant(value)).toBe(expected);
  });

  it.each([
    ["2026-11-23", 14, "2026-12-07"],
    ["2026-12-25", 14, "2027-01-08"],
    ["2028-02-20", 10, "2028-03-01"],
    ["2026-03-01", -1, "2026-02-28"],
  ])("addDays(%s, %d) is %s, and daysBetween agrees", (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
    expect(daysBetween(day, expected)).toBe(days);
  });
});

describe("splitExpired: a user is no longer desired from the expiresAt day on (UTC)", () => {
  it.each([
    ["the day before", "2026-11-30", ["u1", "u2"], []],
    ["the day itself", "2026-12-01", ["u2"], ["u1"]],
    ["later", "2027-03-01", ["u2"], ["u1"]],
  ])("on %s", (_when, today, active, expired) => {
    // given one user expiring on 2026-12-01 and one without expiry
    const users = [expiring("u1", "2026-12-01", "a@x.com"), expiring("u2", undefined, "b@x.com")];

    // when
    const split = splitExpired(users, today);

    // then
    expect(split.active.map((u) => u.userId)).toEqual(active);
    expect(split.expired.map((u) => u.userId)).toEqual(expired);
    expect(split.active.every((u) => !("expiresAt" in u))).toBe(true);
  });

  it("returns the input itself when no user carries a date", () => {
    const users = [expiring("u1", undefined, "a@x.com")];
    expect(splitExpired(users, "2026-01-01").active).toBe(users);
  });
});

describe("plan on a given now", () => {
  const alice = expiring("u1", "2026-12-01", "alice@x.com");
  const bob = expiring("u2", undefined, "bob@x.com");

  it.each([
    // [case, mode, now, observed entries, calls, removed, expired]
    ["authoritative, before expiry: alice stays", "authoritative", "2026-11-30T23:59:59Z", [entry("u1", "alice@x.com"), entry("u2", "bob@x.com")], [], [], []],
    ["authoritative, on the day: alice removed (expired)", "authoritative", "2026-12-01T00:00:00Z", [entry("u1", "alice@x.com"), entry("u2", "bob@x.com")], ["remove-users"], ["u1"], ["u1"]],
    ["authoritative, expired and absent: nothing to do", "authoritative", "2026-12-02T00:00:00Z", [entry("u2", "bob@x.com")], [], [], ["u1"]],
    ["authoritative, expired user not added", "authoritative", "2026-12-02T00:00:00Z", [], ["add-users"], [], ["u1"]],
    ["additive, before expiry: alice added", "additive", "2026-11-01T00:00:00Z", [], ["add-users"], [], []],
    ["additive, after expiry: alice not added", "additive", "2026-12-05T00:00:00Z", [entry("u2", "bob@x.com")], [], [], ["u1"]],
    ["additive, after expiry: alice present is left alone", "additive", "2026-12-05T00:00:00Z", [entry("u1", "alice@x.com"), entry("u2", "bob@x.com")], [], [], ["u1"]],
  ] as const)("%s", (_case, mode, now, observed, calls, removed, expired) => {
    // given
    const list = declared([alice, bob], { mode });

    // when
    const plan = planAt(now, list, listOf([...observed]));
    const rule = plan.rules[0]!;

    // then
    expect(plan.now).toBe(now);
    expect(rule.calls.map((c) => c.operation)).toEqual(calls);
    expect(rule.changes.removeUsers.map((u) => u.userId)).toEqual(removed);
    expect(rule.changes.removeUsers.every((u) => u.reason === "expired")).toBe(true);
    expect((rule.expired ?? []).map((u) => u.userId)).toEqual(expired);
    expect(rule.desired.map((u) => u.userId)).toEqual(expired.length > 0 ? ["u2"] : ["u1", "u2"]);
    const sent = rule.calls.flatMap((c) => (c.operation === "add-users" ? c.userList : []));
    expect(sent.every((u) => !("expiresAt" in u))).toBe(true);
  });

  it("marks the removal with reason expired and the date, in JSON, text and markdown", () => {
    // given alice expired yesterday and is still in the list
    const plan = planAt("2026-12-02T10:00:00Z", declared([alice, bob]), listOf([entry("u1", "alice@x.com"), entry("u2", "bob@x.com")]));

    // when
    const json = JSON.parse(serializePlan(plan));
    const text = renderPlanText(plan, { color: false });
    const markdown = renderPlanMarkdown(plan);

    // then
    expect(json.now).toBe("2026-12-02T10:00:00Z");
    expect(json.rules[0].changes.removeUsers).toEqual([{ userId: "u1", aliases: ["alice@x.com"], reason: "expired", expiresAt: "2026-12-01" }]);
    expect(text).toContain("- u1  alice@x.com  (expired on 2026-12-01)");
    expect(markdown).toContain("- u1 alice@x.com   (expired on 2026-12-01)");
    expect(parsePlan(serializePlan(plan), "test").rules[0]!.changes.removeUsers[0]!.reason).toBe("expired");
  });

  it("a user who is not declared is removed without a reason", () => {
    const plan = planAt("2026-11-01T00:00:00Z", declared([bob]), listOf([entry("u2", "bob@x.com"), entry("u9", "old@x.com")]));
    expect(plan.rules[0]!.changes.removeUsers).toEqual([{ userId: "u9", aliases: ["old@x.com"] }]);
  });

  it.each([
    ["2026-11-17T00:00:00Z", ["u1"]],
    ["2026-11-16T23:59:59Z", []],
    ["2026-11-30T00:00:00Z", ["u1"]],
    ["2026-12-01T00:00:00Z", []],
  ])("on %s summary.expiringSoon lists %j (within 14 days, not yet expired)", (now, soon) => {
    // given
    const plan = planAt(now, declared([alice, bob]), listOf([entry("u1", "alice@x.com"), entry("u2", "bob@x.com")]));

    // then
    expect((plan.summary.expiringSoon ?? []).map((u) => u.userId)).toEqual(soon);
    if (soon.length > 0) {
      expect(plan.summary.expiringSoon![0]).toEqual({
        ruleId: "rule-1",
        ruleName: "Rule one",
        constructPath: "stack/rule-1",
        userId: "u1",
        aliases: ["alice@x.com"],
        expiresAt: "2026-12-01",
      });
      expect(renderPlanMarkdown(plan)).toContain("### Expiring soon (1)");
      expect(renderPlanText(plan, { color: false })).toContain("Expiring soon (within 14 days):");
    } else {
      expect(renderPlanMarkdown(plan)).not.toContain("Expiring soon");
    }
  });

  it("says in the plan when an additive list does not add an expired user", () => {
    const plan = planAt("2026-12-05T00:00:00Z", declared([alice, expiring("u3", undefined, "carol@x.com")], { mode: "additive" }), listOf([]));
    expect(renderPlanText(plan, { color: false })).toContain("# u1 not added: expired on 2026-12-01");
    expect(renderPlanMarkdown(plan)).toContain("Not added (expired): `u1` on 2026-12-01");
  });

  it("defaults now to createdAt, to the second", () => {
    const plan = buildPlan({
      declarations: [declared([bob])],
      observations: [found(listOf([entry("u2", "bob@x.com")]))],
      connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
      createdAt: "2026-11-01T09:00:00.123Z",
      toolVersion: "0.0.0-test",
    });
    expect(plan.now).toBe("2026-11-01T09:00:00Z");
  });
});

describe("property: expiry and apply converge", () => {
  it.each(Array.from({ length: 30 }, (_, i) => [i + 1]))("seed %d: the plan removes exactly the expired users, and a list without them plans as no-op", (seed) => {
    // given random users, some expiring around a random day, and a live list holding all of them
    const rand = prng(seed);
    const day = (offset: number) => addDays("2026-06-15", offset);
    const users: DesiredUser[] = Array.from({ length: 1 + Math.floor(rand() * 8) }, (_, i) => {
      const aliases = [`user${i}@example.com`];
      return rand() < 0.6 ? { userId: `u${i}`, aliases, expiresAt: day(Math.floor(rand() * 40) - 20) } : { userId: `u${i}`, aliases };
    });
    const now = `${day(Math.floor(rand() * 10) - 5)}T${String(Math.floor(rand() * 24)).padStart(2, "0")}:00:00Z`;
    const today = now.slice(0, 10);
    const expired = users.filter((u) => u.expiresAt !== undefined && u.expiresAt <= today).map((u) => u.userId);
    const all = listOf(users.map((u) => entry(u.userId, ...u.aliases)));

    // when planned against the full list
    const plan = planAt(now, declared(users), all);

    // then exactly the expired users go, each marked, and nothing else changes
    const rule = plan.rules[0]!;
    expect(rule.changes.removeUsers.map((u) => u.userId).sort()).toEqual([...expired].sort());
    expect(rule.changes.removeUsers.every((u) => u.reason === "expired")).toBe(true);
    expect(rule.changes.addUsers).toEqual([]);

    // and against the list the apply leaves (when the guard lets it: not every entry lost), nothing is left to do
    const after = listOf(users.filter((u) => !expired.includes(u.userId)).map((u) => entry(u.userId, ...u.aliases)));
    const again = planAt(now, declared(users), after).rules[0]!;
    expect(again.calls).toEqual([]);
    expect(again.action).toBe("no-op");
  });
});
