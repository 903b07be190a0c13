/**
 * The simulator's tokens (src/simulator/README.md, "Tokens"): the OAuth endpoint mints tokens for
 * client credentials in HTTP Basic; with a token TTL only minted tokens are accepted, each for
 * that long, and an expired one is answered 401 saying so; without one the static token works
 * too. The request log names the minted token of each request.
 */
import { withSimulator } from "../support/simulator";
import { send, type Answer } from "./helpers";
import type { RunningSimulator } from "../../src/simulator";

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

function mint(sim: RunningSimulator, authorization: string): Promise<Answer> {
  return send(sim, "/v1/oauth", { headers: { authorization, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
}

function queryRules(sim: RunningSimulator, token: string): Promise<Answer> {
  return send(sim, "/v1/alert-rules/query-users", {
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ tenantId: sim.tenantId, ruleId: sim.rules()[0]!.metadata.observerRuleId }),
  });
}

describe("the OAuth endpoint (POST /v1/oauth)", () => {
  it("answers client credentials (any client ID, the simulator's token as the secret) as the vendor does", async () => {
    await withSimulator({ tokenTtlSeconds: 30 }, async (sim) => {
      const answer = await mint(sim, basic("ci-client", sim.token));
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.json).sort()).toEqual(["access_token", "expires_in", "token_type"]);
      expect(answer.json.expires_in).toBe(30);
      expect(answer.json.token_type).toBe("bearer");
      expect((await queryRules(sim, answer.json.access_token)).status).toBe(200);
      expect(sim.mintedTokens()).toBe(1);
    });
  });

  it.each([
    ["a wrong secret", basic("ci-client", "not-the-secret")],
    ["no client ID", basic("", "local-simulator-token")],
    ["a bearer token", "Bearer local-simulator-token"],
  ])("refuses %s with 401 and mints nothing", async (_what, authorization) => {
    await withSimulator({}, async (sim) => {
      const answer = await mint(sim, authorization);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Basic/);
      expect(sim.mintedTokens()).toBe(0);
    });
  });

  it("mints tokens of 900 s without a TTL, and the static token stays accepted", async () => {
    await withSimulator({}, async (sim) => {
      const answer = await mint(sim, basic("ci-client", sim.token));
      expect(answer.json.expires_in).toBe(900);
      expect((await queryRules(sim, answer.json.access_token)).status).toBe(200);
      expect((await queryRules(sim, sim.token)).status).toBe(200);
    });
  });
});

describe("a token TTL (--token-ttl S)", () => {
  it("refuses the static token and unknown tokens, and each minted token once its S seconds are over", async () => {
    // the tokens' clock moves only by hand: how long a request takes does not count
    let nowMs = 1000;
    await withSimulator({ tokenTtlSeconds: 1, tokenClock: () => nowMs }, async (sim) => {
      // given a token minted now
      const { token } = sim.mintToken();
      // then it is accepted, the static token is not
      expect((await queryRules(sim, token)).status).toBe(200);
      expect((await queryRules(sim, sim.token)).status).toBe(401);
      // and still at the last millisecond of its second
      nowMs += 999;
      expect((await queryRules(sim, token)).status).toBe(200);
      // when its second is over
      nowMs += 1;
      // then it is refused, saying it expired
      const expired = await queryRules(sim, token);
      expect(expired.status).toBe(401);
      expect(expired.json.message).toMatch(/expired/);
      expect(expired.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      // and the log names the minted token of each request
      expect(sim.requestLog().map((r) => [r.status, r.tokenSerial])).toEqual([
        [200, 1],
        [401, undefined],
        [200, 1],
        [401, 1],
      ]);
    });
  });

  it("is refused when not a whole number of seconds from 1 to 86400", async () => {
    for (const tokenTtlSeconds of [0, 1.5, 86_401]) {
      await expect(withSimulator({ tokenTtlSeconds }, () => Promise.resolve())).rejects.toThrow(/tokenTtlSeconds must be a whole number/);
    }
  });
});
