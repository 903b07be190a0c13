/**
 * The diff of docs/contract.md §4, rule by rule. Each case: a declaration, what the service has, and the
 * calls (and only those calls) the plan must send.
 */
import { NULL_USER_ID_SENTENCE, isMissingUserId } from "../../src/api/rules/schemas";
import { diffRule } from "../../src/core/engine/diff";
import { fingerprintList } from "../../src/core/engine/fingerprint";
import type { PlannedCall } from "../../src/core/engine/plan-schema";
import { buildPlan } from "../../src/core/engine/build-plan";
import { declared, entry, found, listOf, user } from "../support/builders";
import { TOOL_VERSION } from "../../src/io/version";

const BATCH = { batchSize: 100 };
const ops = (calls: readonly PlannedCall[]) => calls.map((c) => c.operation);

describe("skips: no write call is ever planned", () => {
  it.each([
    ["isSystem is true", { isSystem: true, ruleSource: "Alerting" }, /system rule/],
    ["ruleSource Departing Employee", { isSystem: false, ruleSource: "Departing Employee" }, /Departing Employee/],
    ["ruleSource High Risk Employee", { isSystem: false, ruleSource: "High Risk Employee" }, /High Risk Employee/],
  ])("skips a system rule when %s", (_name, rule, reason) => {
    // given a declaration that would change the list, on a system rule
    const plan = diffRule(declared([user("u1", "a@x.com")]), found(listOf([]), rule), BATCH);
    // then
    expect(plan.action).toBe("skip");
    expect(plan.reason).toMatch(reason);
    expect(plan.calls).toEqual([]);
  });

  it("skips a rule that monitors all users", () => {
    const plan = diffRule(declared([user("u1", "a@x.com")]), found(listOf([], "ALL_USERS")), BATCH);
    expect(plan.action).toBe("skip");
    expect(plan.reason).toBe("rule monitors all users: it has no user list to edit");
    expect(plan.calls).toEqual([]);
  });

  it("skips a system rule whose list was not read", () => {
    const plan = diffRule(declared([user("u1", "a@x.com")]), found(null, { isSystem: true }), BATCH);
    expect(plan.action).toBe("skip");
  });
});

describe("unknown rules are errors", () => {
  it("names the missing rule ID", () => {
    const plan = diffRule(declared([], { ruleId: "nope" }), { kind: "not-found" }, BATCH);
    expect(plan).toMatchObject({ action: "error", errorKind: "unknown-rule", ruleId: "nope" });
    expect(plan.reason).toContain("'nope'");
  });

  it("names the missing rule name", () => {
    const plan = diffRule(declared([], { ruleName: "Gone" }), { kind: "not-found" }, BATCH);
    expect(plan).toMatchObject({ action: "error", errorKind: "unknown-rule", ruleId: null, ruleName: "Gone" });
    expect(plan.reason).toContain("'Gone'");
  });

  it("suggests the rule's name when a ruleName differs only in case or by a small edit (issue 32)", () => {
    const knownNames = ["Endpoint exfiltration - Engineering", "Cloud sharing - Finance"];
    const cased = diffRule(declared([], { ruleName: "endpoint exfiltration - engineering" }), { kind: "not-found", knownNames }, BATCH);
    expect(cased.reason).toMatch(/no rule is named 'endpoint exfiltration - engineering'.* Did you mean 'Endpoint exfiltration - Engineering'\?$/);
    const typo = diffRule(declared([], { ruleName: "Cloud sharing - Finanse" }), { kind: "not-found", knownNames }, BATCH);
    expect(typo.reason).toMatch(/Did you mean 'Cloud sharing - Finance'\?$/);
    const far = diffRule(declared([], { ruleName: "Gone" }), { kind: "not-found", knownNames }, BATCH);
    expect(far.reason).not.toMatch(/Did you mean/);
  });

  it("says a rule name given as the ruleId looks like a rule name, and to use ruleName", () => {
    const knownNames = ["Endpoint exfiltration - Engineering"];
    const named = diffRule(declared([], { ruleId: "Endpoint exfiltration - Engineering" }), { kind: "not-found", knownNames }, BATCH);
    expect(named.reason).toMatch(/This looks like a rule name \('Endpoint exfiltration - Engineering'\): declare it with ruleName: "Endpoint exfiltration - Engineering" instead of ruleId\./);
    const spaced = diffRule(declared([], { ruleId: "Some other rule" }), { kind: "not-found", knownNames }, BATCH);
    expect(spaced.reason).toMatch(/This looks like a rule name \(it has spaces\): declare it with ruleName/);
    const id = diffRule(declared([], { ruleId: "a33e7c21-5cb0-4cf5-a266-852063111752" }), { kind: "not-found", knownNames }, BATCH);
    expect(id.reason).not.toMatch(/looks like a rule name/);
  });

  it("refuses a name that matches several rules and lists their IDs", () => {
    const plan = diffRule(declared([], { ruleName: "Twin" }), { kind: "ambiguous", ruleIds: ["r1", "r2"] }, BATCH);
    expect(plan).toMatchObject({ action: "error", errorKind: "ambiguous-rule" });
    expect(plan.reason).toContain("r1, r2");
    expect(plan.reason).toContain("ruleId");
  });

  it("resolves a rule declared by name to its observerRuleId", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com")], { ruleName: "Rule one" }),
      found(listOf([entry("u1", "a@x.com")]), { observerRuleId: "abc" }),
      BATCH,
    );
    expect(plan).toMatchObject({ ruleId: "abc", ruleName: "Rule one", declaredBy: "ruleName", action: "no-op" });
  });
});

describe("aliases compare case-insensitively and trimmed", () => {
  it("sees no change when only case and surrounding spaces differ", () => {
    const plan = diffRule(declared([user("u1", "alice@x.com")]), found(listOf([entry("u1", " Alice@X.com ")])), BATCH);
    expect(plan.action).toBe("no-op");
    expect(plan.calls).toEqual([]);
  });

  it("sends the declared spelling", () => {
    const plan = diffRule(declared([user("u1", "a@x.com", "Bob.Alias@X.com")]), found(listOf([entry("u1", "a@x.com")])), BATCH);
    expect(plan.calls).toEqual([{ operation: "add-users", userList: [{ userId: "u1", aliases: ["Bob.Alias@X.com"] }] }]);
  });
});

describe("entries without a user ID", () => {
  it.each([null, "", "   ", NULL_USER_ID_SENTENCE])("treats %p as no user ID", (id) => {
    expect(isMissingUserId(id)).toBe(true);
  });

  it("rebuilds the list: remove-all-users, then add-users with the whole declaration", () => {
    // given a list with an entry without ID (observe maps the sentence to null)
    const observed = listOf([entry("u1", "a@x.com"), entry(null, "legacy@x.com")]);
    const want = [user("u1", "a@x.com"), user("u2", "b@x.com")];
    // when
    const plan = diffRule(declared(want), found(observed), BATCH);
    // then
    expect(plan.action).toBe("update");
    expect(plan.changes.rebuild).toBe(true);
    expect(plan.calls).toEqual([
      { operation: "remove-all-users" },
      { operation: "add-users", userList: want },
    ]);
    expect(plan.reason).toMatch(/no user ID/);
    expect(plan.warnings.join(" ")).toMatch(/empty for a moment/);
    expect(plan.changes.removeEntriesWithoutId).toEqual([entry(null, "legacy@x.com")]);
  });

  it("rebuilds even when the declared users already match the entries with IDs", () => {
    const plan = diffRule(declared([user("u1", "a@x.com")]), found(listOf([entry("u1", "a@x.com"), entry(null, "z@x.com")])), BATCH);
    expect(ops(plan.calls)).toEqual(["remove-all-users", "add-users"]);
  });

  it("additive mode ignores entries without an ID", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com")], { mode: "additive" }),
      found(listOf([entry("u1", "a@x.com"), entry(null, "z@x.com")])),
      BATCH,
    );
    expect(plan.action).toBe("no-op");
  });
});

describe("authoritative: the list becomes exactly the declaration", () => {
  it("empties a non-empty list with one remove-all-users when the declaration is empty", () => {
    const plan = diffRule(declared([]), found(listOf([entry("u1", "a@x.com"), entry(null, "b@x.com")])), BATCH);
    expect(plan.calls).toEqual([{ operation: "remove-all-users" }]);
    expect(plan.changes.removeAll).toBe(true);
    expect(plan.changes.rebuild).toBe(false);
  });

  it("does nothing when the declaration and the list are both empty", () => {
    expect(diffRule(declared([]), found(listOf([])), BATCH).action).toBe("no-op");
  });

  it("adds missing users and missing aliases of present users in one add-users", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com", "a2@x.com"), user("u2", "b@x.com")]),
      found(listOf([entry("u1", "a@x.com")])),
      BATCH,
    );
    expect(plan.calls).toEqual([
      {
        operation: "add-users",
        userList: [
          { userId: "u1", aliases: ["a2@x.com"] },
          { userId: "u2", aliases: ["b@x.com"] },
        ],
      },
    ]);
    expect(plan.changes.addUsers).toEqual([user("u2", "b@x.com")]);
    expect(plan.changes.addAliases).toEqual([user("u1", "a2@x.com")]);
  });

  it("removes extra aliases of present users with one remove-user-aliases, in the observed spelling", () => {
    const plan = diffRule(declared([user("u1", "a@x.com")]), found(listOf([entry("u1", "a@x.com", "Old@X.com")])), BATCH);
    expect(plan.calls).toEqual([{ operation: "remove-user-aliases", userList: [{ userId: "u1", aliases: ["Old@X.com"] }] }]);
  });

  it("removes undeclared users with one remove-users", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com")]),
      found(listOf([entry("u1", "a@x.com"), entry("u2", "b@x.com"), entry("u3", "c@x.com")])),
      BATCH,
    );
    expect(plan.calls).toEqual([{ operation: "remove-users", userIdList: ["u2", "u3"] }]);
  });

  it("sends each write operation at most once per rule", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com", "new@x.com"), user("u4", "d@x.com")]),
      found(listOf([entry("u1", "a@x.com", "gone@x.com"), entry("u2", "b@x.com")])),
      BATCH,
    );
    expect(ops(plan.calls)).toEqual(["add-users", "remove-user-aliases", "remove-users"]);
  });
});

describe("monitoring-safe order", () => {
  const want = declared([user("u1", "a@x.com", "new@x.com"), user("u4", "d@x.com")]);
  const entries = [entry("u1", "a@x.com", "gone@x.com"), entry("u2", "b@x.com")];

  it("inclusion lists gain before they lose", () => {
    expect(ops(diffRule(want, found(listOf(entries, "SPECIFIED_USERS")), BATCH).calls)).toEqual([
      "add-users",
      "remove-user-aliases",
      "remove-users",
    ]);
  });

  it("exclusion lists lose before they gain", () => {
    expect(ops(diffRule(want, found(listOf(entries, "ALL_USERS_NOT_SPECIFIED")), BATCH).calls)).toEqual([
      "remove-user-aliases",
      "remove-users",
      "add-users",
    ]);
  });
});

describe("additive: only ever adds", () => {
  it("adds missing users and aliases and leaves undeclared users alone", () => {
    const plan = diffRule(
      declared([user("u1", "a@x.com", "a2@x.com"), user("u3", "c@x.com")], { mode: "additive" }),
      found(listOf([entry("u1", "a@x.com", "extra@x.com"), entry("u2", "b@x.com")])),
      BATCH,
    );
    expect(plan.calls).toEqual([
      { operation: "add-users", userList: [user("u1", "a2@x.com"), user("u3", "c@x.com")] },
    ]);
    expect(plan.massRemoval.triggered).toBe(false);
  });

  it("an empty additive declaration changes nothing", () => {
    expect(diffRule(declared([], { mode: "additive" }), found(listOf([entry("u1", "a@x.com")])), BATCH).action).toBe("no-op");
  });
});

describe("batching", () => {
  it("splits a change larger than --batch-size into several calls of the same operation", () => {
    const many = Array.from({ length: 250 }, (_, i) => user(`u${String(i).padStart(3, "0")}`, `u${i}@x.com`));
    const plan = diffRule(declared(many), found(listOf([])), { batchSize: 100 });
    expect(plan.calls.map((c) => (c.operation === "add-users" ? c.userList.length : 0))).toEqual([100, 100, 50]);
  });
});

describe("mass-removal guard (net result only)", () => {
  const entries = (n: number) => Array.from({ length: n }, (_, i) => entry(`u${i}`, `u${i}@x.com`));
  const keep = (n: number) => Array.from({ length: n }, (_, i) => user(`u${i}`, `u${i}@x.com`));

  it.each([
    [10, 4, true], // loses 6 of 10: more than half of a list of 10 or more
    [10, 5, false], // loses exactly half
    [9, 1, false], // loses 8 of 9: fewer than 10 entries and not all
    [1, 0, true], // loses the only entry
  ])("a list of %d entries keeping %d: triggered=%p", (size, kept, triggered) => {
    const plan = diffRule(declared(keep(kept).length ? keep(kept) : [user("new", "n@x.com")]), found(listOf(entries(size))), BATCH);
    expect(plan.massRemoval.triggered).toBe(triggered);
  });

  it("an emptied list loses every entry", () => {
    const plan = diffRule(declared([]), found(listOf(entries(3))), BATCH);
    expect(plan.massRemoval).toEqual({ entries: 3, lost: 3, triggered: true });
  });

  it.each([
    // [case, observed entries, declaration, lost, triggered]
    ["12 aliases moved under one new user ID: 12 entries leave by user ID", entries(12), [user("new", ...entries(12).map((e) => e.aliases[0]!))], 12, true],
    ["7 of 12 users merged into one new ID: 7 leave by user ID", entries(12), [user("new", ...entries(7).map((e) => e.aliases[0]!)), ...keep(12).slice(7)], 7, true],
    ["6 of 12 merged: exactly half, not more", entries(12), [user("new", ...entries(6).map((e) => e.aliases[0]!)), ...keep(12).slice(6)], 6, false],
    ["the same user IDs with every alias renamed: entries leave by alias", entries(12), keep(12).map((u) => user(u.userId, `renamed.${u.aliases[0]!}`)), 12, true],
    ["one entry of one user moved to another user ID: a list of one loses it", entries(1), [user("other", "u0@x.com")], 1, true],
    ["an entry without ID rebuilt under an ID keeps its alias: not lost", [entry(null, "n@x.com")], [user("u9", "n@x.com")], 0, false],
  ] as const)("%s", (_name, observed, desiredUsers, lost, triggered) => {
    // given a list and a declaration that keeps its aliases but not its user IDs (or the reverse)
    const plan = diffRule(declared([...desiredUsers]), found(listOf([...observed])), BATCH);
    // then the guard counts the entries that leave, by user ID as well as by alias
    expect(plan.massRemoval).toEqual({ entries: observed.length, lost, triggered });
  });

  it("the empty moment of a rebuild does not count when the aliases come back", () => {
    const plan = diffRule(declared([user("u1", "legacy@x.com")]), found(listOf([entry(null, "Legacy@x.com")])), BATCH);
    expect(plan.changes.rebuild).toBe(true);
    expect(plan.massRemoval).toEqual({ entries: 1, lost: 0, triggered: false });
  });
});

describe("the whole plan", () => {
  const connection = { baseUrl: "http://127.0.0.1:1", tenantId: "t" };

  it("marks every declaration of a rule declared twice as an error", () => {
    const plan = buildPlan({ toolVersion: TOOL_VERSION,
      declarations: [declared([], { ruleId: "r1", path: "a/one" }), declared([], { ruleName: "Rule one", path: "b/two" })],
      observations: [found(listOf([]), { observerRuleId: "r1" }), found(listOf([]), { observerRuleId: "r1" })],
      connection,
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(plan.rules.map((r) => [r.action, r.errorKind])).toEqual([
      ["error", "duplicate-rule"],
      ["error", "duplicate-rule"],
    ]);
    expect(plan.rules[0]!.reason).toContain("a/one, b/two");
    expect(plan.summary.errors).toBe(2);
    expect(plan.rules.every((r) => r.calls.length === 0 && !r.massRemoval.triggered)).toBe(true);
  });

  describe("a list applied alone (the Terraform path) with the app's other declarations", () => {
    const elsewhere = [
      { constructPath: "one/engineering", ruleId: "r1", ruleName: null },
      { constructPath: "two/by-name", ruleId: null, ruleName: "Rule one" },
      { constructPath: "two/other", ruleId: "r2", ruleName: null },
    ];
    const alone = (declaration: ReturnType<typeof declared>) =>
      buildPlan({
        toolVersion: TOOL_VERSION,
        declarations: [{ ...declaration, declaredElsewhere: elsewhere }],
        observations: [found(listOf([]), { observerRuleId: "r1", name: "Rule one" })],
        connection,
        createdAt: "2026-01-01T00:00:00Z",
      }).rules[0]!;

    it("refuses a list by name whose rule, once resolved, another construct declares by ID, naming both", () => {
      const rule = alone(declared([user("u1", "a@x.com")], { ruleName: "Rule one", path: "two/by-name" }));
      expect([rule.action, rule.errorKind]).toEqual(["error", "duplicate-rule"]);
      expect(rule.reason).toBe("rule 'r1' is declared by 2 RuleUserList constructs (two/by-name, one/engineering): keep exactly one declaration per rule.");
      expect(rule.calls).toEqual([]);
    });

    it("refuses a list by ID whose rule's name, as the service reports it, another construct declares by name", () => {
      const rule = alone(declared([user("u1", "a@x.com")], { ruleId: "r1", path: "one/engineering" }));
      expect([rule.action, rule.errorKind]).toEqual(["error", "duplicate-rule"]);
      expect(rule.reason).toContain("(one/engineering, two/by-name)");
    });

    it("plans a list whose rule no other construct declares", () => {
      const rule = buildPlan({
        toolVersion: TOOL_VERSION,
        declarations: [{ ...declared([user("u1", "a@x.com")], { ruleId: "r2", path: "two/other" }), declaredElsewhere: elsewhere }],
        observations: [found(listOf([]), { observerRuleId: "r2", name: "Rule two" })],
        connection,
        createdAt: "2026-01-01T00:00:00Z",
      }).rules[0]!;
      expect(rule.action).toBe("update");
    });
  });

  it("summarizes the counts a reviewer reads", () => {
    const plan = buildPlan({ toolVersion: TOOL_VERSION,
      declarations: [declared([user("u1", "a@x.com", "a2@x.com"), user("u3", "c@x.com")], { ruleId: "r1" })],
      observations: [found(listOf([entry("u1", "a@x.com", "old@x.com"), entry("u2", "b@x.com")]), { observerRuleId: "r1" })],
      connection,
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(plan.summary).toMatchObject({ toUpdate: 1, usersToAdd: 1, aliasesToAdd: 2, aliasesToRemove: 2, usersToRemove: 1, calls: 3 });
  });

  it("never mutates its inputs", () => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === "object") {
        Object.values(o).forEach(deepFreeze);
        Object.freeze(o);
      }
      return o;
    };
    const d = deepFreeze(declared([user("u2", "z@x.com", "b@x.com"), user("u1", "a@x.com")]));
    const o = deepFreeze(found(listOf([entry("u3", "c@x.com"), entry(null, "q@x.com")])));
    expect(() => diffRule(d, o, BATCH)).not.toThrow();
  });
});

describe("fingerprint", () => {
  it("ignores order and sees any change of spelling", () => {
    const a = listOf([entry("u1", "a@x.com", "b@x.com"), entry("u2", "c@x.com")]);
    const b = listOf([entry("u2", "c@x.com"), entry("u1", "b@x.com", "a@x.com")]);
    const c = listOf([entry("u2", "c@x.com"), entry("u1", "b@x.com", "A@x.com")]);
    expect(fingerprintList(a)).toBe(fingerprintList(b));
    expect(fingerprintList(a)).not.toBe(fingerprintList(c));
  });
});
