/**
 * remove-all-users whose response is lost (docs/contract.md §9.3 with lost responses): the call landed,
 * the service answered 502, the retry's read finds the list empty. That is the call's own effect,
 * not someone else's edit: it is not sent again and the rule goes on to its add-users, instead of
 * being refused as changed (which failed test/reliability/chaos-converge.test.ts on seeds 11 and 47).
 */
import { RuleListClient } from "../../src/api";
import { listing, runCli, workspace, writesOf } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { declare, applyAsSaved, planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { TENANT, TOKEN, env } from "./support";

const RULE = safetyRuleId(1);

describe("a rebuild whose remove-all-users answer is lost", () => {
  it("converges: remove-all-users is sent once, the retry sees the list emptied by it and goes on to add-users", async () => {
    // given a list with an entry without ID (a rebuild: remove-all-users, then add-users), and a
    // service that applies every remove-all-users and then answers 502
    const seed = tenant([{ users: [simUser("x-1"), simUser(null, "noid@example.com")] }]);
    const stacks = declare([{ users: [{ userId: "x-1", aliases: ["x-1@example.com"] }, { userId: "x-9", aliases: ["noid@example.com"] }] }]);
    await withSimulator({ seed, token: TOKEN, faults: { lostResponseRate: 1, operations: ["remove-all-users"] } }, async (sim) => {
      const ws = workspace(stacks);
      try {
        // when
        const applied = await runCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(sim.url), timeoutMs: 120_000 });

        // then
        expect(applied.stdout).not.toContain("refused");
        expect(applied.code).toBe(0);
        expect(listing(sim, RULE)).toEqual(["x-1:x-1@example.com", "x-9:noid@example.com"]);
        expect(writesOf(sim.requestCounts())).toEqual({ "remove-all-users": 1, "add-users": 1 });
      } finally {
        ws.cleanup();
      }
    });
  });

  it("with a user added before the retry: records the call as possibly landed, adds the declared users back, keeps the newcomer and fails truthfully", async () => {
    // given a rebuild whose remove-all-users lands and answers 502, and another client that adds
    // a user while apply waits to retry it
    const seed = tenant([{ users: [simUser("x-1"), simUser(null, "noid@example.com")] }]);
    const declared = [{ users: [{ userId: "x-1", aliases: ["x-1@example.com"] }, { userId: "x-9", aliases: ["noid@example.com"] }] }];
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const other = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });
      const plan = await planIn(other, declared);
      sim.setFaults({ lostResponseRate: 1, operations: ["remove-all-users"] });
      sim.resetCounts();
      let added = false;
      const client = new RuleListClient({
        baseUrl: sim.url,
        token: TOKEN,
        tenantId: TENANT,
        sleep: async () => {
          if (added) return;
          added = true;
          await other.addUsers(RULE, [{ userIdFromAuthority: "late-1", userAliasList: ["late.comer@example.com"] }]);
        },
      });

      // when the saved plan is applied
      const result = await applyAsSaved(plan, client);

      // then the list holds the declared users again and the newcomer
      expect(added).toBe(true);
      expect(listing(sim, RULE)).toEqual(["late-1:late.comer@example.com", "x-1:x-1@example.com", "x-9:noid@example.com"]);
      expect(writesOf(sim.requestCounts())).toEqual({ "remove-all-users": 1, "add-users": 2 });
      // and the rule says the call may have landed, lists it, and fails (the newcomer is not declared)
      const rule = result.rules[0]!;
      expect(rule.calls).toEqual([
        { operation: "remove-all-users", users: 0, status: "failed", error: expect.stringMatching(/may have landed/) as unknown },
        { operation: "add-users", users: 2, status: "ok" },
      ]);
      expect(rule).toMatchObject({ outcome: "failed", verified: false });
      expect(rule.message).not.toMatch(/was not sent:/);
    });
  });
});
