/**
 * A rebuild whose add-users fails after its remove-all-users emptied the list (issue 41): the
 * service has no transactions, so the executor sends add-users again within its retries, then puts
 * back what the guard read held right before the wipe, minus what the plan removes, and fails the
 * rule naming exactly what it could not put back (the CLI exits 1 on a failed rule).
 */
import { RuleListClient } from "../../src/api";
import { listing } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { applyAsSaved, planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { TENANT, TOKEN } from "./support";

const RULE = safetyRuleId(1);

// given a list of x-1, x-2 (two aliases), x-3 and an entry without ID; a declaration that keeps
// x-1, keeps x-2 without its second alias, drops x-3 and adds x-9: a rebuild (the entry without ID)
const seed = tenant([{ users: [simUser("x-1"), simUser("x-2", "x-2@example.com", "x-2@corp.example"), simUser("x-3"), simUser(null, "noid@example.com")] }]);
const declared = [
  {
    users: [
      { userId: "x-1", aliases: ["x-1@example.com"] },
      { userId: "x-2", aliases: ["x-2@example.com"] },
      { userId: "x-9", aliases: ["x-9@example.com"] },
    ],
  },
];
/** A client that gives up on a call after two attempts, without waiting between them. */
const quickClient = (url: string) => new RuleListClient({ baseUrl: url, token: TOKEN, tenantId: TENANT, retry: { maxAttempts: 2 }, sleep: () => Promise.resolve() });

describe("a rebuild whose add-users fails after the wipe", () => {
  it("puts back what the list held before, less what the plan removes, when add-users keeps failing for a while; fails the rule saying all were put back", async () => {
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const client = quickClient(sim.url);
      const plan = await planIn(client, declared);
      expect(plan.rules[0]!.changes.rebuild).toBe(true);
      // add-users fails 6 times (the first send and the executor's 2 more, 2 attempts each), then works
      sim.setFaults({ misbehave: [{ operation: "add-users", kind: "html-error", times: 6 }] });

      // when
      const result = await applyAsSaved(plan, client);

      // then the list is as before the rebuild, less x-3, x-2's second alias and the entry without ID
      expect(listing(sim, RULE)).toEqual(["x-1:x-1@example.com", "x-2:x-2@example.com"]);
      const rule = result.rules[0]!;
      expect(rule.outcome).toBe("failed");
      expect(rule.calls.map((c) => `${c.operation}:${c.status}`)).toEqual(["remove-all-users:ok", "add-users:failed", "add-users:failed", "add-users:failed", "add-users:ok"]);
      expect(rule.message).toContain("add-users failed after remove-all-users had emptied the list");
      expect(rule.message).toContain("The list held 2 users before the rebuild that the plan keeps; all of them were put back, without the plan's additions. Run apply again to finish the rebuild.");
    });
  });

  it("when nothing can be added back, names every user and alias it could not put back", async () => {
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const client = quickClient(sim.url);
      const plan = await planIn(client, declared);
      sim.setFaults({ failRate: 1, operations: ["add-users"] });

      const result = await applyAsSaved(plan, client);

      expect(listing(sim, RULE)).toEqual([]);
      const rule = result.rules[0]!;
      expect(rule.outcome).toBe("failed");
      expect(rule.message).toContain("could not put back: x-1 (x-1@example.com), x-2 (x-2@example.com).");
      expect(rule.message).toContain("Run apply again to finish the rebuild, or add the users named here back by hand.");
    });
  });

  it("when a second send of add-users works, the rebuild completes and verifies", async () => {
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const client = quickClient(sim.url);
      const plan = await planIn(client, declared);
      sim.setFaults({ misbehave: [{ operation: "add-users", kind: "html-error", times: 2 }] });

      const result = await applyAsSaved(plan, client);

      expect(listing(sim, RULE)).toEqual(["x-1:x-1@example.com", "x-2:x-2@example.com", "x-9:x-9@example.com"]);
      expect(result.rules[0]).toMatchObject({ outcome: "applied", verified: true });
    });
  });
});
