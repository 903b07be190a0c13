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
