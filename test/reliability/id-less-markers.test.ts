/**
 * Entries without a user ID (docs/interface.md: `userIdFromAuthority` is "null or a fixed explanatory
 * text"). A service whose ID-less text has no space in it ("NULL") must not have that text taken
 * for a user ID: the list is rebuilt as for any entry without ID, instead of a remove-users of
 * "NULL" that removes nothing and fails the rule on every apply. And when the service keeps an
 * entry that remove-users named (a marker nobody could foresee), the failure says which entry.
 */
import { NULL_USER_ID_SENTENCE, isMissingUserId } from "../../src/api/rules/schemas";
import { listing, runCli, workspace, type Workspace } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { editableRuleMetadata } from "../support/rule-metadata";
import { metadataPage, ruleId, ruleMetadata, sendJson, startHostileService, usersPage } from "./hostile-service";
import { TENANT, TOKEN, env } from "./support";

describe("the markers of an entry without ID", () => {
  it.each([null, "", "   ", NULL_USER_ID_SENTENCE, "NULL", "null", "Null", "(null)", "<null>", "None", "nil", "undefined", "N/A", "NullUserIdFromAuthority"])(
    "%p is no user ID",
    (marker) => {
      expect(isMissingUserId(marker)).toBe(true);
    },
  );

  it.each(["908712345678901234", "u1", "alice", "nullable", "annul", "nonexistent-9", "n-a"])("%p is a user ID", (id) => {
    expect(isMissingUserId(id)).toBe(false);
  });
});

const RULE = "00000000-0000-4000-8000-0000000000d1";

describe('a service whose ID-less text is "NULL"', () => {
  let ws: Workspace;
  afterEach(() => ws.cleanup());

  it("plans a rebuild (not remove-users of \"NULL\"), and apply converges", async () => {
    // given a list with an entry added without ID, shown as "NULL", and a declaration giving it an ID
    const seed = {
      tenantId: TENANT,
      rules: [
        {
          metadata: editableRuleMetadata({ observerRuleId: RULE, name: "Null marker", description: "an entry without ID" }),
          usersToAlertOn: "SPECIFIED_USERS" as const,
          users: [
            { userIdFromAuthority: "u1", userAliasList: ["a@example.com"] },
            { userIdFromAuthority: "NULL", userAliasList: ["legacy@example.com"] },
          ],
        },
      ],
    };
    ws = workspace([
      { name: "s", lists: [{ id: "list", props: { ruleId: RULE, users: [{ userId: "u1", aliases: ["a@example.com"] }, { userId: "u2", aliases: ["legacy@example.com"] }] } }] },
    ]);
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      // when
      const plan = await runCli(["plan", "--format", "json"], { cwd: ws.dir, env: env(sim.url) });
      // then the plan rebuilds the list
      const rule = (JSON.parse(plan.stdout) as { rules: Array<{ calls: Array<{ operation: string }> }> }).rules[0]!;
      expect(rule.calls.map((c) => c.operation)).toEqual(["remove-all-users", "add-users"]);
      // and apply converges
      const apply = await runCli(["apply", "--auto-approve", "--skip-synth"], { cwd: ws.dir, env: env(sim.url) });
      expect(apply.code).toBe(0);
      expect(listing(sim, RULE)).toEqual(["u1:a@example.com", "u2:legacy@example.com"]);
    });
  });
});

describe("an entry that remove-users named but the service kept", () => {
  it("fails the rule with a message naming the entry that could not be identified", async () => {
    // given a service whose ID-less text is one nobody foresaw ("unidentified"): remove-users of it removes nothing
    let users = [
      { userId: "u1", aliases: ["a@example.com"] },
      { userId: "unidentified", aliases: ["legacy@example.com"] },
    ];
    const service = await startHostileService((request, res) => {
      switch (request.operation) {
        case "query-rule-metadata":
          return sendJson(res, 200, metadataPage([ruleMetadata(1)]));
        case "query-users":
          return sendJson(res, 200, usersPage(users));
        case "remove-users": {
          const ids = (request.body["userIdList"] as string[]).filter((id) => id !== "unidentified");
          users = users.filter((u) => !ids.includes(u.userId));
          return sendJson(res, 200, {});
        }
        default:
          return sendJson(res, 200, {});
      }
    });
    const ws = workspace([{ name: "s", lists: [{ id: "list", props: { ruleId: ruleId(1), users: [{ userId: "u1", aliases: ["a@example.com"] }] } }] }]);
    try {
      // when
      const apply = await runCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(service.url) });
      // then
      expect(apply.code).toBe(1);
      expect(apply.stdout + apply.stderr).toMatch(/the service kept the entry "unidentified" \(legacy@example\.com\) that remove-users named: it could not identify it/);
    } finally {
      ws.cleanup();
      await service.stop();
    }
  });
});
