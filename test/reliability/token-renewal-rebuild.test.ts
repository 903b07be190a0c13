/**
 * A token that expires while a request waits its turn (issue 32, the token-lifetimes failure: a
 * rebuild whose list never converged, `+ "-:noid.r6@example.com"`, `- "80000006:noid.r6@example.com"`).
 * With bare tokens the source cannot renew ahead; after a 401 the refused request is sent again
 * with a new token. That token was fetched at once, before the rate limiter's wait for the resend:
 * a wait longer than the token's life made the resend a second 401, "refused twice in a row",
 * and the rule failed before remove-all-users. The renewal now runs after the wait, right before
 * the send (before the guard read, for remove-all-users).
 */
import { RateLimiter, RuleListClient, TokenCommand } from "../../src/api";
import { listing } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { applyAsSaved, planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { TENANT } from "./support";

/** Generous: about 15 requests spaced 1.5 s apart. */
const SLOW_APPLY_TIMEOUT_MS = 90_000;

describe("bare tokens that expire while requests wait for the rate limiter", () => {
  it(
    "a rebuild converges: each refused request is sent again with a token fetched after its wait, never one that expired in it",
    async () => {
      // given a service that accepts minted tokens for 1 s, and a list with an entry without ID (a rebuild)
      const seed = tenant([{ users: [simUser("x-1"), simUser(null, "noid.r6@example.com")] }]);
      await withSimulator({ seed, tokenTtlSeconds: 1 }, async (sim) => {
        const bareTokens = () =>
          new TokenCommand({
            command: "simulator token (bare)",
            given: "ALERTS_API_TOKEN_COMMAND",
            run: () => Promise.resolve({ exitCode: 0, signal: null, stdout: `${sim.mintToken().token}\n`, stderr: "", timedOut: false }),
          });
        const declared = [{ users: [{ userId: "x-1", aliases: ["x-1@example.com"] }, { userId: "80000006", aliases: ["noid.r6@example.com"] }] }];
        const plan = await planIn(new RuleListClient({ baseUrl: sim.url, tenantId: TENANT, tokenSource: bareTokens() }), declared);
        // and an apply whose sends are spaced 1.5 s apart: every token expires in the wait
        const client = new RuleListClient({ baseUrl: sim.url, tenantId: TENANT, tokenSource: bareTokens(), rateLimiter: new RateLimiter({ maxRps: 1 / 1.5 }) });

        // when the plan is applied
        const result = await applyAsSaved(plan, client);

        // then the rebuild converged and verified
        expect(result.rules[0]).toMatchObject({ outcome: "applied", verified: true });
        expect(listing(sim, safetyRuleId(1))).toEqual(["80000006:noid.r6@example.com", "x-1:x-1@example.com"]);
      });
    },
    SLOW_APPLY_TIMEOUT_MS,
  );
});
