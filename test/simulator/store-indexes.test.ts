/**
 * TenantStore paths that large tenants exercise: ruleMetadata (what query-rule-metadata searches)
 * copies metadata only, and addUsers indexes bags by user ID once per call; same behaviour as before.
 */
import { parseSeedFile, sampleTenantPath } from "../../src/simulator/seed";
import { TenantStore } from "../../src/simulator/state";

describe("TenantStore.ruleMetadata", () => {
  it("returns every rule's metadata, in seed order, as the rules themselves carry it", () => {
    // given the sample tenant
    const store = new TenantStore(parseSeedFile(sampleTenantPath()));
    // when / then
    expect(store.ruleMetadata()).toEqual(store.rules().map((rule) => rule.metadata));
  });

  it("hands out copies: changing them does not change the store", () => {
    const store = new TenantStore(parseSeedFile(sampleTenantPath()));
    const first = store.ruleMetadata()[0]!;
    first.name = "changed";
    expect(store.ruleMetadata()[0]!.name).not.toBe("changed");
  });
});

describe("TenantStore.addUsers (indexed by user ID once per call)", () => {
  const seed = () => {
    const parsed = parseSeedFile(sampleTenantPath());
    const rule = parsed.rules.find((r) => !r.metadata.isSystem && r.metadata.ruleSource === "Alerting" && r.usersToAlertOn !== "ALL_USERS");
    if (rule === undefined) throw new Error("the sample tenant has no editable rule");
    return { store: new TenantStore(parsed), ruleId: rule.metadata.observerRuleId, existing: rule.users.find((u) => u.userIdFromAuthority !== null)! };
  };

  it("merges an entry into the existing bag of its user ID, and two entries of a new ID into one bag", () => {
    const { store, ruleId, existing } = seed();
    const before = store.rule(ruleId)!.users.length;
    // when one call adds to an existing user and twice to a new one
    const outcome = store.addUsers(ruleId, [
      { userIdFromAuthority: existing.userIdFromAuthority, userAliasList: ["extra@example.com", existing.userAliasList[0]!.toUpperCase()] },
      { userIdFromAuthority: "new-1", userAliasList: ["n1@example.com"] },
      { userIdFromAuthority: "new-1", userAliasList: ["N1@example.com", "n1b@example.com"] },
    ]);
    // then
    expect(outcome.ok).toBe(true);
    const users = store.rule(ruleId)!.users;
    expect(users).toHaveLength(before + 1);
    expect(users.find((u) => u.userIdFromAuthority === existing.userIdFromAuthority)!.userAliasList).toEqual([...existing.userAliasList, "extra@example.com"]);
    expect(users.filter((u) => u.userIdFromAuthority === "new-1")).toEqual([{ userIdFromAuthority: "new-1", userAliasList: ["n1@example.com", "n1b@example.com"] }]);
  });

  it("keeps entries without an ID apart, each as its own bag", () => {
    const { store, ruleId } = seed();
    const before = store.rule(ruleId)!.users.length;
    store.addUsers(ruleId, [
      { userIdFromAuthority: null, userAliasList: ["a@example.com"] },
      { userIdFromAuthority: " ", userAliasList: ["b@example.com"] },
    ]);
    expect(store.rule(ruleId)!.users).toHaveLength(before + 2);
  });
});

describe("TenantStore.removeUserAliases (indexed by user ID once per call)", () => {
  const RULE = "00000000-0000-4000-8000-000000000001";
  const storeWith = (users: Array<{ userIdFromAuthority: string | null; userAliasList: string[] }>) => {
    const parsed = parseSeedFile(sampleTenantPath());
    const rule = parsed.rules.find((r) => !r.metadata.isSystem && r.metadata.ruleSource === "Alerting" && r.usersToAlertOn !== "ALL_USERS")!;
    rule.metadata.observerRuleId = RULE;
    rule.users = users;
    return new TenantStore(parsed);
  };

  it("drops the listed aliases (any case) of the bag with that ID, drops a bag left empty, and leaves the rest", () => {
    // given
    const store = storeWith([
      { userIdFromAuthority: "u1", userAliasList: ["a@example.com", "b@example.com", "c@example.com"] },
      { userIdFromAuthority: "u2", userAliasList: ["d@example.com"] },
      { userIdFromAuthority: null, userAliasList: ["e@example.com"] },
      { userIdFromAuthority: "u3", userAliasList: ["f@example.com"] },
    ]);
    // when two entries name u1, one empties u2, one names an unknown ID and one has no ID
    const outcome = store.removeUserAliases(RULE, [
      { userIdFromAuthority: "u1", userAliasList: ["A@Example.com"] },
      { userIdFromAuthority: "u1", userAliasList: ["c@example.com"] },
      { userIdFromAuthority: "u2", userAliasList: ["d@example.com"] },
      { userIdFromAuthority: "nobody", userAliasList: ["f@example.com"] },
      { userIdFromAuthority: " ", userAliasList: ["e@example.com"] },
    ]);
    // then
    expect(outcome.ok).toBe(true);
    expect(store.rule(RULE)!.users).toEqual([
      { userIdFromAuthority: "u1", userAliasList: ["b@example.com"] },
      { userIdFromAuthority: null, userAliasList: ["e@example.com"] },
      { userIdFromAuthority: "u3", userAliasList: ["f@example.com"] },
    ]);
  });

  it("on a 20,000-user list, one call removing an alias from half the users leaves exactly the other aliases", () => {
    // given 20,000 users with two aliases each
    const store = storeWith(Array.from({ length: 20_000 }, (_, i) => ({ userIdFromAuthority: `u${i}`, userAliasList: [`x${i}@example.com`, `y${i}@example.com`] })));
    // when the even users lose their y alias
    store.removeUserAliases(RULE, Array.from({ length: 10_000 }, (_, k) => ({ userIdFromAuthority: `u${2 * k}`, userAliasList: [`Y${2 * k}@example.com`] })));
    // then
    const users = store.rule(RULE)!.users;
    expect(users).toHaveLength(20_000);
    expect(users.every((u, i) => u.userAliasList.length === (i % 2 === 0 ? 1 : 2) && u.userAliasList[0] === `x${i}@example.com`)).toBe(true);
  });
});
