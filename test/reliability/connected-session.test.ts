/**
 * The session a library caller makes (`connectedSession`): what the workflow asks of the world
 * once its plan is made, bound to one client and one run's settings (docs/architecture.md, "One
 * composition point"), and a send that takes only a plan the admission marked.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuleListClient } from "../../src/api";
import { registerSecret } from "../../src/api/http/redact";
import type { AdmittedPlan } from "../../src/core/engine/admission";
import type { Plan } from "../../src/core/engine/plan-schema";
import { checkStillPlanned, rulesToReadAgain } from "../../src/core/engine/still-planned";
import { applySavedPlan, connectedSession, savePlan } from "../../src/io";
import type { Session } from "../../src/io";
import { withSimulator } from "../support/simulator";
import { planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { TENANT, TOKEN } from "./support";

/** Never called: it only has to compile, or not. */
export function sendsOnlyAdmittedPlans(session: Session, plan: Plan, admittedPlan: AdmittedPlan): void {
  // @ts-expect-error a plan that did not pass the admission is not sent
  void session.send(plan, {});
  void session.send(admittedPlan, {});
}

const alice = { userId: "u-alice", aliases: ["alice@example.com"] };
const bob = { userId: "u-bob", aliases: ["bob@example.com"] };

describe("a connected session", () => {
  it("reads again the rules a plan changes, in the plan's order, one list each", async () => {
    // given two rules whose lists the plan changes
    const seed = tenant([{ users: [simUser("u-alice", "alice@example.com")] }, { users: [] }]);
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });
      const plan = await planIn(client, [{ users: [alice, bob] }, { users: [bob] }]);
      const session = connectedSession(client, { baseUrl: sim.url, tenantId: TENANT }, { parallelism: 2, pageSize: 100, batchSize: 100 });

      // when the session reads them again
      const reads = await session.readAgain(rulesToReadAgain(plan));

      // then each list comes back as it is now, in the plan's order, and the plan still holds against them
      expect(rulesToReadAgain(plan).map((r) => r.observerRuleId)).toEqual([safetyRuleId(1), safetyRuleId(2)]);
      expect(reads.map((r) => (r.ok ? r.list.entries.map((e) => e.userId) : r.message))).toEqual([["u-alice"], []]);
      expect(() => checkStillPlanned(plan, reads, "saved")).not.toThrow();

      // and once someone else edits a list, the same check refuses the plan, naming the rule
      await client.addUsers(safetyRuleId(2), [{ userIdFromAuthority: "u-carol", userAliasList: ["carol@example.com"] }]);
      const later = await session.readAgain(rulesToReadAgain(plan));
      expect(() => checkStillPlanned(plan, later, "saved")).toThrow(/saved plan is stale[\s\S]*safety\/rule-2/);
    });
  });

  it("is what applySavedPlan sends through: the saved plan applied and verified, every rule", async () => {
    // given a saved plan that adds bob to a rule
    const seed = tenant([{ users: [simUser("u-alice", "alice@example.com")] }]);
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });
      const plan = await planIn(client, [{ users: [alice, bob] }]);
      const dir = mkdtempSync(join(tmpdir(), "connected-session-"));
      try {
        const path = join(dir, "plan.json");
        await savePlan(path, plan, undefined);
        const progress: string[] = [];
        const session = connectedSession(client, { baseUrl: sim.url, tenantId: TENANT }, { parallelism: 1, pageSize: 100, batchSize: 100 }, (phase, done, total) =>
          progress.push(`${phase} ${done}/${total}`),
        );

        // when it is applied with that session
        const { kind, result } = await applySavedPlan({ path, name: "plan.json", maxAge: { ms: 3_600_000, text: "1h" } }, undefined, {}, { connect: () => session, warn: () => undefined });

        // then the rule is applied and verified, the session's progress told, and the list holds both users
        expect(kind).toBe("applied");
        expect(result.rules.map((r) => [r.outcome, r.verified])).toEqual([["applied", true]]);
        expect(progress).toEqual(["apply 1/1"]);
        expect((await client.queryUsers(safetyRuleId(1))).users.map((u) => u.userIdFromAuthority).sort()).toEqual(["u-alice", "u-bob"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it("redacts every registered secret and the ones it is given, and nothing else", () => {
    // given a registered secret and one given to this redaction only
    registerSecret("s3cr3t-registered-value");
    const session = connectedSession(new RuleListClient({ baseUrl: "http://127.0.0.1:9", token: TOKEN, tenantId: TENANT }), { baseUrl: "http://127.0.0.1:9", tenantId: TENANT }, { parallelism: 1, pageSize: 1, batchSize: 1 });

    // when a value carrying both is redacted
    const redacted = session.redact({ name: "rule s3cr3t-registered-value", reasons: ["given-only-here", "kept"] }, ["given-only-here"]);

    // then both are gone and the rest is as it was
    expect(redacted).toEqual({ name: "rule [REDACTED]", reasons: ["[REDACTED]", "kept"] });
  });
});
