/**
 * A call that never changed anything is said so (issue 31 item 7): a write whose every attempt was
 * answered 429 is recorded "not sent", not "failed" with a "may have landed", and the rule's
 * message does not claim it may have landed.
 */
import { RuleListClient } from "../../src/api";
import { renderApplyText } from "../../src/core/render";
import { withSimulator } from "../support/simulator";
import { applyAsSaved, planIn, simUser, tenant } from "./safety-support";
import { TENANT, TOKEN } from "./support";

describe("a call never acted on is reported not sent", () => {
  it("an add-users answered 429 on every attempt: its call is 'not sent', the rule fails without 'may have landed'", async () => {
    // given a rule that gains a user, and a service that answers every add-users 429
    const seed = tenant([{ users: [simUser("u-1")] }]);
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const declared = [{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-2", aliases: ["u-2@example.com"] }] }];
      const plan = await planIn(new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT }), declared);
      sim.setFaults({ rateLimitEvery: 1, operations: ["add-users"], retryAfterMsHeader: "1" });
      const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT, retry: { maxRateLimitRetries: 1 } });

      // when the plan is applied
      const result = await applyAsSaved(plan, client);

      // then the call is recorded and printed as not sent, and nothing says it may have landed
      const rule = result.rules[0]!;
      expect(rule.calls).toEqual([expect.objectContaining({ operation: "add-users", status: "not-sent" })]);
      expect(rule.calls[0]?.error).toMatch(/Not sent: no attempt was acted on by the service/);
      expect(rule.message).not.toMatch(/may have landed|sent but not answered/);
      expect(renderApplyText(result, { color: false })).toMatch(/add-users \(1 user\) not sent/);
    });
  });
});
