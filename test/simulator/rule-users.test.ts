/**
 * Behaviour of the user-list operations (src/simulator/README.md, "Rule user lists").
 */
import { NULL_USER_ID_SENTENCE } from "../../src/api/rules/schemas";
import { useSimulator, withSimulator } from "../support/simulator";
import { SAMPLE, call, ruleIdOf, ruleNamed, usersOf } from "./helpers";

const sim = useSimulator({}, { perTest: true });

const body = (ruleId: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ tenantId: sim.tenantId, ruleId, ...extra });

describe("query-users", () => {
  it("returns the rule's bags grouped by user ID, with type$ on the response and each bag", async () => {
    // given the inclusion rule of the sample tenant
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);

    // when its users are queried
    const answer = await call(sim, "query-users", body(ruleId));

    // then the response is a USERS_IN_RULE_RESPONSE with the seeded bags
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.json.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(answer.json.usersToAlertOn).toBe("SPECIFIED_USERS");
    expect(answer.json.users).toHaveLength(4);
    expect(answer.json.users[0]).toEqual({
      type$: "USER_BAG",
      userIdFromAuthority: "908712345678901234",
      userAliasList: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"],
    });
  });

  it("reports an exclusion list as ALL_USERS_NOT_SPECIFIED", async () => {
    const answer = await call(sim, "query-users", body(ruleIdOf(sim, SAMPLE.exclusion)));
    expect(answer.json.usersToAlertOn).toBe("ALL_USERS_NOT_SPECIFIED");
    expect(answer.json.users).toHaveLength(3);
  });

  it("works on an ALL_USERS rule and on system rules (reads are never refused)", async () => {
    // when the all-users and the system rules are queried
    const allUsers = await call(sim, "query-users", body(ruleIdOf(sim, SAMPLE.allUsers)));
    const departing = await call(sim, "query-users", body(ruleIdOf(sim, SAMPLE.departing)));

    // then both answer 200; the all-users rule has no list
    expect(allUsers.status).toBe(200);
    expect(allUsers.json).toEqual({ type$: "USERS_IN_RULE_RESPONSE", users: [], usersToAlertOn: "ALL_USERS" });
    expect(departing.status).toBe(200);
    expect(departing.json.users).toHaveLength(1);
  });

  it("returns entries without an ID as seeded: null, or the explanatory sentence", async () => {
    const users = await usersOf(sim, ruleIdOf(sim, SAMPLE.noIds));
    expect(users).toEqual([
      { userIdFromAuthority: null, userAliasList: ["visiting.scientist@example.com"] },
      { userIdFromAuthority: NULL_USER_ID_SENTENCE, userAliasList: ["lab.intern@example.com", "intern2025@research.example.com"] },
      { userIdFromAuthority: "908712345678908001", userAliasList: ["maria.santos@example.com"] },
    ]);
  });

  it("answers 404 RULE_NOT_FOUND for an unknown rule ID", async () => {
    const answer = await call(sim, "query-users", body("no-such-rule"));
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ type$: "ERROR", code: "RULE_NOT_FOUND", message: expect.stringContaining("no-such-rule") });
  });
});

describe("add-users", () => {
  it("appends new users and merges aliases into the bag with the same ID, deduplicating case-insensitively", async () => {
    // given the inclusion rule, where user ...234 has two aliases
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);

    // when a new user is added and ...234 gets one known alias (other case) and one new alias
    const answer = await call(sim, "add-users", body(ruleId, {
      userList: [
        { userIdFromAuthority: "908712345678901234", userAliasList: ["ALICE.NGUYEN@example.com", "a.nguyen@example.com"] },
        { userIdFromAuthority: "42", userAliasList: ["zoe@example.com", "Zoe@Example.com"] },
      ],
    }));

    // then the existing spelling is kept, the new alias is appended, and the new user is a new bag
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ type$: "RULE_USERS_UPDATED", ruleId, userCount: 5 });
    const users = await usersOf(sim, ruleId);
    expect(users[0]).toEqual({
      userIdFromAuthority: "908712345678901234",
      userAliasList: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com", "a.nguyen@example.com"],
    });
    expect(users[4]).toEqual({ userIdFromAuthority: "42", userAliasList: ["zoe@example.com"] });
  });

  it("adds an entry with a null, empty or whitespace ID as an entry without ID (the explanatory sentence)", async () => {
    // given a rule with ordinary users
    const ruleId = ruleIdOf(sim, SAMPLE.byName);

    // when entries without a usable ID are added
    await call(sim, "add-users", body(ruleId, {
      userList: [
        { userIdFromAuthority: null, userAliasList: ["x@example.com"] },
        { userIdFromAuthority: "", userAliasList: ["y@example.com"] },
        { userIdFromAuthority: "  ", userAliasList: ["z@example.com"] },
      ],
    }));

    // then each becomes its own entry whose ID is the sentence
    const users = await usersOf(sim, ruleId);
    expect(users.slice(2)).toEqual([
      { userIdFromAuthority: NULL_USER_ID_SENTENCE, userAliasList: ["x@example.com"] },
      { userIdFromAuthority: NULL_USER_ID_SENTENCE, userAliasList: ["y@example.com"] },
      { userIdFromAuthority: NULL_USER_ID_SENTENCE, userAliasList: ["z@example.com"] },
    ]);
  });

  it("bumps modifiedAt (seven fractional digits) and modifiedBy of the rule", async () => {
    // given a rule last modified in 2025
    const before = ruleNamed(sim, SAMPLE.byName).metadata;

    // when a user is added
    await call(sim, "add-users", body(before.observerRuleId, { userList: [{ userIdFromAuthority: "7", userAliasList: ["seven@example.com"] }] }));

    // then the metadata records the change
    const after = ruleNamed(sim, SAMPLE.byName).metadata;
    expect(after.modifiedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
    expect(after.modifiedAt > before.modifiedAt).toBe(true);
    expect(after.modifiedBy).toBe("api-client@example.com");
    expect(after.createdAt).toBe(before.createdAt);
  });

  it("refuses a user without aliases or with an empty alias, naming the field", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.byName);
    const noAliases = await call(sim, "add-users", body(ruleId, { userList: [{ userIdFromAuthority: "1", userAliasList: [] }] }));
    const emptyAlias = await call(sim, "add-users", body(ruleId, { userList: [{ userIdFromAuthority: "1", userAliasList: ["ok@example.com", " "] }] }));
    expect(noAliases.status).toBe(400);
    expect(noAliases.json.message).toContain("userList[0].userAliasList");
    expect(emptyAlias.status).toBe(400);
    expect(emptyAlias.json.message).toContain("userList[0].userAliasList[1]");
    expect(await usersOf(sim, ruleId)).toHaveLength(2);
  });
});

describe("remove-users", () => {
  it("removes the bags whose ID is listed", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);
    const answer = await call(sim, "remove-users", body(ruleId, { userIdList: ["908712345678901234", "908712345678901236"] }));
    expect(answer.status).toBe(200);
    expect((await usersOf(sim, ruleId)).map((u) => u.userIdFromAuthority)).toEqual(["908712345678901235", "908712345678901237"]);
  });

  it("removes nothing for IDs that match no entry, including entries without ID, and still answers 200", async () => {
    // given the rule with two entries without ID
    const ruleId = ruleIdOf(sim, SAMPLE.noIds);
    const before = await usersOf(sim, ruleId);

    // when their "IDs" and an unknown ID are sent
    const answer = await call(sim, "remove-users", body(ruleId, { userIdList: [NULL_USER_ID_SENTENCE, "", "null", "unknown-id"] }));

    // then nothing is removed
    expect(answer.status).toBe(200);
    expect(await usersOf(sim, ruleId)).toEqual(before);
  });
});

describe("remove-user-aliases", () => {
  it("removes only the listed aliases (case-insensitively) from the bag with that ID", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);
    const answer = await call(sim, "remove-user-aliases", body(ruleId, {
      userList: [{ userIdFromAuthority: "908712345678901234", userAliasList: ["ALICE.nguyen@ENG.example.com"] }],
    }));
    expect(answer.status).toBe(200);
    expect((await usersOf(sim, ruleId))[0]).toEqual({ userIdFromAuthority: "908712345678901234", userAliasList: ["alice.nguyen@example.com"] });
  });

  it("drops a bag left without aliases", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.inclusion);
    await call(sim, "remove-user-aliases", body(ruleId, { userList: [{ userIdFromAuthority: "908712345678901235", userAliasList: ["bob.okafor@example.com"] }] }));
    expect((await usersOf(sim, ruleId)).map((u) => u.userIdFromAuthority)).not.toContain("908712345678901235");
  });

  it("cannot touch entries without ID, and ignores unknown IDs", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.noIds);
    const before = await usersOf(sim, ruleId);
    const answer = await call(sim, "remove-user-aliases", body(ruleId, {
      userList: [
        { userIdFromAuthority: NULL_USER_ID_SENTENCE, userAliasList: ["lab.intern@example.com"] },
        { userIdFromAuthority: "", userAliasList: ["visiting.scientist@example.com"] },
        { userIdFromAuthority: "nobody", userAliasList: ["maria.santos@example.com"] },
      ],
    }));
    expect(answer.status).toBe(200);
    expect(await usersOf(sim, ruleId)).toEqual(before);
  });
});

describe("remove-all-users", () => {
  it("empties the list, entries without ID included; add-users can rebuild it", async () => {
    // given the rule with entries without ID
    const ruleId = ruleIdOf(sim, SAMPLE.noIds);

    // when all users are removed and the list is rebuilt with IDs
    expect((await call(sim, "remove-all-users", body(ruleId))).status).toBe(200);
    expect(await usersOf(sim, ruleId)).toEqual([]);
    await call(sim, "add-users", body(ruleId, { userList: [{ userIdFromAuthority: "1", userAliasList: ["lab.intern@example.com"] }] }));

    // then only the rebuilt entry is there
    expect(await usersOf(sim, ruleId)).toEqual([{ userIdFromAuthority: "1", userAliasList: ["lab.intern@example.com"] }]);
  });
});

describe("refusals of writes", () => {
  const writes: Array<[string, (ruleId: string) => Record<string, unknown>]> = [
    ["add-users", (ruleId) => body(ruleId, { userList: [{ userIdFromAuthority: "1", userAliasList: ["a@example.com"] }] })],
    ["remove-users", (ruleId) => body(ruleId, { userIdList: ["908712345678906001"] })],
    ["remove-user-aliases", (ruleId) => body(ruleId, { userList: [{ userIdFromAuthority: "908712345678906001", userAliasList: ["kevin.walsh@example.com"] }] })],
    ["remove-all-users", (ruleId) => body(ruleId)],
  ];

  it.each(writes)("%s on a Departing Employee or High Risk Employee rule → 400 RULE_IS_SYSTEM, nothing changed", async (operation, build) => {
    for (const name of [SAMPLE.departing, SAMPLE.highRisk]) {
      const before = ruleNamed(sim, name);
      const answer = await call(sim, operation, build(before.metadata.observerRuleId));
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ type$: "ERROR", code: "RULE_IS_SYSTEM", message: expect.any(String) });
      expect(ruleNamed(sim, name)).toEqual(before);
    }
  });

  it.each(writes)("%s on a rule that monitors all users → 400 RULE_MONITORS_ALL_USERS", async (operation, build) => {
    const before = ruleNamed(sim, SAMPLE.allUsers);
    const answer = await call(sim, operation, build(before.metadata.observerRuleId));
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("RULE_MONITORS_ALL_USERS");
    expect(ruleNamed(sim, SAMPLE.allUsers)).toEqual(before);
  });

  it.each(writes)("%s on an unknown rule → 404 RULE_NOT_FOUND", async (operation, build) => {
    const answer = await call(sim, operation, build("00000000-0000-0000-0000-000000000000"));
    expect(answer.status).toBe(404);
    expect(answer.json.code).toBe("RULE_NOT_FOUND");
  });

  it("treats ruleSource Departing Employee as system even when isSystem is false", async () => {
    // given a seed whose system-sourced rule says isSystem false
    await withSimulator({
      seed: {
        tenantId: "t-1",
        rules: [
          {
            metadata: {
              id: "m-1", observerRuleId: "r-1", name: "DE", description: "", severity: "HIGH", type: "FED_ENDPOINT_EXFILTRATION",
              isSystem: false, isEnabled: true, ruleSource: "Departing Employee",
              createdAt: "2025-01-01T00:00:00.0000000Z", modifiedAt: "2025-01-01T00:00:00.0000000Z", createdBy: "AlertVendor", modifiedBy: "AlertVendor",
            },
            usersToAlertOn: "SPECIFIED_USERS",
            users: [],
          },
        ],
      },
    }, async (other) => {
      // when a user is added, then it is refused
      const answer = await call(other, "add-users", { tenantId: "t-1", ruleId: "r-1", userList: [{ userIdFromAuthority: "1", userAliasList: ["a@example.com"] }] });
      expect(answer.json.code).toBe("RULE_IS_SYSTEM");
    });
  });
});

describe("direct state access", () => {
  it("setUsers replaces a list without HTTP, grouping by ID; rules() hands out copies", async () => {
    const ruleId = ruleIdOf(sim, SAMPLE.byName);
    sim.setUsers(ruleId, [
      { userIdFromAuthority: "1", userAliasList: ["a@example.com"] },
      { userIdFromAuthority: "1", userAliasList: ["b@example.com"] },
      { userIdFromAuthority: null, userAliasList: ["c@example.com"] },
    ]);
    sim.rules()[0]!.users.length = 0; // mutating a copy changes nothing
    expect(await usersOf(sim, ruleId)).toEqual([
      { userIdFromAuthority: "1", userAliasList: ["a@example.com", "b@example.com"] },
      { userIdFromAuthority: null, userAliasList: ["c@example.com"] },
    ]);
    expect(sim.rule(ruleIdOf(sim, SAMPLE.inclusion))!.users).toHaveLength(4);
    expect(() => sim.setUsers("nope", [])).toThrow(/nope/);
  });
});
