/**
 * Exhaustive crash test (issue 11): a 10-rule apply is killed with SIGKILL at every request
 * boundary in turn (as request k arrives at the service, for every k of an uninterrupted run),
 * and each time a second apply converges: `plan --detailed-exitcode` exits 0 and every list is
 * as declared. Complements crash-recovery.test.ts, which kills once at a chosen point.
 *
 * One simulator for every k (its lists reset to the seed before each run); the killed apply is a
 * real process (started with --skip-synth on a synthesized workspace), the reruns run in-process.
 */
import type { Plan } from "../../src/core/engine/plan-schema";
import type { SimUser } from "../../src/simulator";
import { runCli, workspace } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { SecretScan, TOKEN, chaosCase, env, listKey, spawnCli } from "./support";
import { runMain } from "../support/run-main";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

/** Runs the CLI in this process with the given environment; returns its exit code and output. */
async function cli(args: string[], cwd: string, environment: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const { code, out } = await runMain(args, cwd, { ...process.env, NO_COLOR: "1", ...environment });
  return { code, out };
}

const APPLY = ["apply", "--auto-approve", "--skip-synth", "--parallelism", "1"];

it("a 10-rule apply killed at every request boundary converges when run again (plan --detailed-exitcode 0)", async () => {
  // given 10 rules with every kind of change (adds, removals, alias edits, a rebuild, additive lists)
  const chaos = chaosCase(31, 10, ["add", "remove", "add-alias", "remove-alias", "mixed", "rebuild", "additive"]);
  expect(chaos.seed.rules.some((r) => (r.users ?? []).some((u) => u.userIdFromAuthority === null))).toBe(true);
  const seedLists = new Map<string, SimUser[]>(chaos.seed.rules.map((r) => [r.metadata.observerRuleId, r.users ?? []]));
  let onArrival: (operation: string) => void = () => undefined;

  await withSimulator({ seed: chaos.seed, token: TOKEN, onRequest: (operation) => onArrival(operation) }, async (sim) => {
    const ws = workspace(chaos.stacks);
    scan.dir(ws.dir);
    const environment = env(sim.url);
    const reset = (): void => {
      for (const [ruleId, users] of seedLists) sim.setUsers(ruleId, users);
      sim.resetCounts();
    };
    try {
      // and the requests of an uninterrupted apply, counted (the workspace synthesized once)
      const synth = await runCli(["plan"], { cwd: ws.dir, env: environment });
      scan.add("plan (synth)", synth.stdout, synth.stderr);
      expect(synth.code).toBe(0);
      const planned = await cli(["plan", "--format", "json", "--skip-synth"], ws.dir, environment);
      const plan = JSON.parse(planned.out) as Plan;
      const changed = plan.rules.filter((r) => r.action === "update");
      reset();
      const operations: string[] = [];
      onArrival = (operation) => operations.push(operation);
      const whole = await runCli(APPLY, { cwd: ws.dir, env: environment });
      scan.add("uninterrupted apply", whole.stdout, whole.stderr);
      expect(whole.code).toBe(0);
      const boundaries = operations.length;
      // one search, one read per rule, then per changed rule its calls, its read back, and a read before a remove-all-users
      const emptied = changed.filter((r) => r.changes.removeAll).length;
      expect(emptied).toBeGreaterThan(0);
      expect(boundaries).toBe(1 + plan.rules.length + changed.reduce((n, r) => n + r.calls.length + 1, 0) + emptied);

      const notConverged: string[] = [];
      for (let k = 1; k <= boundaries; k++) {
        // when the apply is killed (SIGKILL) as its k-th request arrives
        reset();
        const apply = spawnCli(APPLY, { cwd: ws.dir, env: environment });
        let arrived = 0;
        let killedAt = "";
        onArrival = (operation) => {
          arrived += 1;
          if (arrived === k) {
            killedAt = operation;
            apply.child.kill("SIGKILL");
          }
        };
        const killed = await apply.done;
        onArrival = () => undefined;
        scan.add(`apply killed at request ${k}`, killed.stdout, killed.stderr);
        expect([k, killed.signal]).toEqual([k, "SIGKILL"]);

        // then apply again exits 0, every list is as declared, and a new plan has no changes
        const again = await cli(APPLY, ws.dir, environment);
        const check = await cli(["plan", "--detailed-exitcode", "--skip-synth"], ws.dir, environment);
        scan.add(`after the kill at request ${k}`, again.out, check.out);
        const wrong = [...chaos.expected].filter(([id, expected]) => listKey(sim.rule(id)!.users).join() !== expected.join()).map(([id]) => id);
        if (again.code !== 0 || check.code !== 0 || wrong.length > 0) {
          notConverged.push(`k=${k} (${killedAt}): apply again ${again.code}, plan ${check.code}, lists not as declared: ${wrong.join(", ") || "none"}\n${again.out}`);
        }
      }
      expect(boundaries).toBeGreaterThanOrEqual(35);
      expect(notConverged).toEqual([]);
    } finally {
      scan.collectFiles();
      ws.cleanup();
    }
  });
}, 300_000);
