/**
 * The mass-removal guard counts user entries that leave the list by user ID as well as by alias
 * (docs/contract.md §9.3): moving every alias of a list under one new user ID removes every user entry,
 * even though no alias leaves.
 */
import { runCli, workspace, writesOf } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { SecretScan, TOKEN, env, listKey } from "./support";
import { declare, safetyRuleId, simUser, tenant } from "./safety-support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const twelve = Array.from({ length: 12 }, (_, i) => simUser(`71000${String(i).padStart(2, "0")}`, `person${i}@example.com`));
const merged = [{ userId: "7199999", aliases: twelve.map((u) => u.userAliasList[0]!) }];

describe("moving all 12 aliases of a list under one new user ID", () => {
  it("trips the guard: plan shows it, apply refuses and sends nothing, --allow-mass-removal applies it", async () => {
    await withSimulator({ seed: tenant([{ users: twelve }]), token: TOKEN }, async (sim) => {
      // given a list of 12 users and a declaration that keeps every alias under one new user ID
      const ws = workspace(declare([{ users: merged }]));
      scan.dir(ws.dir);
      try {
        // when planned
        const plan = await runCli(["plan", "--format", "json"], { cwd: ws.dir, env: env(sim.url) });
        scan.add("plan", plan.stdout, plan.stderr);
        expect(plan.code).toBe(0);
        const rule = (JSON.parse(plan.stdout) as { rules: Array<{ massRemoval: unknown }> }).rules[0]!;
        // then the 12 entries leaving by user ID are counted
        expect(rule.massRemoval).toEqual({ entries: 12, lost: 12, triggered: true });

        // and apply refuses, sending nothing
        sim.resetCounts();
        const refused = await runCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(sim.url) });
        scan.add("apply refused", refused.stdout, refused.stderr);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/mass-removal guard refused the plan/);
        expect(refused.stderr).toMatch(/12 of 12 entries would leave the list/);
        expect(writesOf(sim.requestCounts())).toEqual({});
        expect(listKey(sim.rule(safetyRuleId(1))!.users)).toEqual(listKey(twelve));

        // and with --allow-mass-removal the move is applied
        const allowed = await runCli(["apply", "--auto-approve", "--allow-mass-removal"], { cwd: ws.dir, env: env(sim.url) });
        scan.add("apply allowed", allowed.stdout, allowed.stderr);
        expect(allowed.code).toBe(0);
        expect(listKey(sim.rule(safetyRuleId(1))!.users)).toEqual(listKey(merged));
      } finally {
        scan.collectFiles();
        ws.cleanup();
      }
    });
  });
});
