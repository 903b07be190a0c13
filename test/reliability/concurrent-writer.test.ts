/**
 * A concurrent writer during apply (docs/contract.md §9.3): someone else adds a user to a rule while
 * apply is running. remove-all-users (emptying or rebuilding a list) is sent only right after a
 * read of that rule that matches the plan, so the added user survives or the rule is refused;
 * an interactive apply reads the lists again after "yes" and refuses when one changed.
 */
import { RateLimiter, RuleListClient, type RequestEvent } from "../../src/api";
import { TokenCommand, type TokenSource } from "../../src/api/http/credentials";
import { realSleep } from "../../src/api/http/retry";
import { main } from "../../src/cli/main";
import type { RunningSimulator } from "../../src/simulator";
import { listing, runCli, writesOf } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { declare, applyAsSaved, planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { REPORTS, SecretScan, TENANT, TOKEN, env, spawnCli, terminal, waitFor, withChaosRun } from "./support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const RULE_ADD = safetyRuleId(1);
const RULE_EMPTIED = safetyRuleId(2);
const latecomer = { userIdFromAuthority: "late-1", userAliasList: ["late.comer@example.com"] };

/** Rule 1 gains a user; rule 2 is emptied (declared empty) or rebuilt (an entry without ID). */
function scenario(kind: "emptied" | "rebuilt") {
  const seed = tenant([
    { users: [simUser("u-1"), simUser("u-2")] },
    kind === "emptied" ? { users: [simUser("x-1"), simUser("x-2")] } : { users: [simUser("x-1"), simUser(null, "noid@example.com")] },
  ]);
  const stacks = declare([
    { users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-2", aliases: ["u-2@example.com"] }, { userId: "u-3", aliases: ["u-3@example.com"] }] },
    { users: kind === "emptied" ? [] : [{ userId: "x-1", aliases: ["x-1@example.com"] }, { userId: "x-9", aliases: ["noid@example.com"] }] },
  ]);
  return { seed, stacks };
}

function otherClient(sim: RunningSimulator): RuleListClient {
  return new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });
}

describe("a user added by someone else during the apply of a saved plan", () => {
  it.each(["emptied", "rebuilt"] as const)(
    "survives when the list is %s: remove-all-users is not sent, the rule is refused, the other rule is applied",
    async (kind) => {
      await withChaosRun(scan, scenario(kind), {}, async (sim, ws) => {
        // given a saved plan that adds to rule 1 and empties or rebuilds rule 2
        const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: env(sim.url) });
        scan.add("plan", plan.stdout, plan.stderr);
        expect(plan.code).toBe(0);

        // when, on a slow service, another client adds a user to rule 2 once apply has passed its stale check
        sim.setFaults({ latencyMs: 300 });
        sim.resetCounts();
        const apply = spawnCli(["apply", "plan.json", "--parallelism", "1", "--allow-mass-removal", ...REPORTS], { cwd: ws.dir, env: env(sim.url) });
        await waitFor("the first write of the apply", () => (sim.requestCounts()["add-users"] ?? 0) >= 1);
        await otherClient(sim).addUsers(RULE_EMPTIED, [latecomer]);
        const result = await apply.done;
        scan.add("apply", result.stdout, result.stderr);

        // then the user added meanwhile is still there, and apply says why it did not empty the list
        expect(listing(sim, RULE_EMPTIED)).toContain("late-1:late.comer@example.com");
        expect(sim.requestCounts()["remove-all-users"] ?? 0).toBe(0);
        expect(result.code).toBe(1);
        expect(result.stdout).toMatch(/refused: remove-all-users was not sent: a read of the rule right before it found the list changed/);
        // and the rule nobody else touched is applied and verified
        expect(listing(sim, RULE_ADD)).toEqual(["u-1:u-1@example.com", "u-2:u-2@example.com", "u-3:u-3@example.com"]);
        expect(result.stdout).toMatch(/Apply complete: 1 rule applied and verified, 1 failed/);
      });
    },
  );

  it("a list changed before the stale check refuses the whole saved plan, sending nothing", async () => {
    await withChaosRun(scan, scenario("emptied"), {}, async (sim, ws) => {
      // given a saved plan
      const plan = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("plan", plan.stdout, plan.stderr);
      // when a user is added to rule 2 before apply starts
      await otherClient(sim).addUsers(RULE_EMPTIED, [latecomer]);
      sim.resetCounts();
      const apply = await runCli(["apply", "plan.json", "--allow-mass-removal"], { cwd: ws.dir, env: env(sim.url) });
      scan.add("apply", apply.stdout, apply.stderr);
      // then nothing is sent and the user is kept
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the saved plan is stale/);
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(listing(sim, RULE_EMPTIED)).toContain("late-1:late.comer@example.com");
    });
  });
});

describe("interactive apply (no saved plan)", () => {
  it("reads the lists again after 'yes' and refuses, sending nothing, when one changed while the plan was on screen", async () => {
    await withChaosRun(scan, scenario("emptied"), {}, async (sim, ws) => {
      // given an apply waiting at the confirmation prompt
      const tty = terminal(env(sim.url), ws.dir);
      const run = main(["apply", "--allow-mass-removal"], tty.io);
      await waitFor("the confirmation prompt", () => tty.stdout().includes("Enter a value:"));
      // when someone adds a user to rule 2 before the answer
      await otherClient(sim).addUsers(RULE_EMPTIED, [latecomer]);
      sim.resetCounts();
      tty.type("yes\n");
      const code = await run;
      scan.add("interactive apply", tty.stdout(), tty.stderr());

      // then nothing is written, and the message says why
      expect(code).toBe(1);
      expect(tty.stderr()).toMatch(/these lists changed while the plan waited for confirmation/);
      expect(tty.stderr()).toContain("rule-2");
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(sim.requestCounts()["query-users"]).toBe(2);
      expect(listing(sim, RULE_EMPTIED)).toContain("late-1:late.comer@example.com");
      expect(listing(sim, RULE_ADD)).toEqual(["u-1:u-1@example.com", "u-2:u-2@example.com"]);
    });
  });

  it("applies after 'yes' when nothing changed, with one more read per changed rule", async () => {
    await withChaosRun(scan, scenario("rebuilt"), {}, async (sim, ws) => {
      const tty = terminal(env(sim.url), ws.dir);
      const run = main(["apply"], tty.io);
      await waitFor("the confirmation prompt", () => tty.stdout().includes("Enter a value:"));
      sim.resetCounts();
      tty.type("yes\n");
      const code = await run;
      scan.add("interactive apply", tty.stdout(), tty.stderr());
      expect([code, tty.stderr()]).toEqual([0, ""]);
      // 2 re-reads after the answer, 1 read right before remove-all-users, 2 read-backs
      expect(sim.requestCounts()["query-users"]).toBe(5);
      expect(listing(sim, RULE_EMPTIED)).toEqual(["x-1:x-1@example.com", "x-9:noid@example.com"]);
    });
  });
});

describe("a rebuild under a rate cap (--max-rps 2) while someone else writes", () => {
  it("a user added while apply waits for the limiter after its guard read is never wiped: the read and remove-all-users go out with no wait between them", async () => {
    // given a list with an entry without ID (a rebuild), and an apply whose sends are capped at 2 a second
    const seed = tenant([{ users: [simUser("x-1"), simUser(null, "noid@example.com")] }]);
    const declared = [{ users: [{ userId: "x-1", aliases: ["x-1@example.com"] }, { userId: "x-9", aliases: ["noid@example.com"] }] }];
    await withSimulator({ seed, token: TOKEN }, async (sim) => {
      const plan = await planIn(otherClient(sim), declared);
      sim.resetCounts();
      // and another client that adds a user during the first wait of the limiter after the read
      // that guards remove-all-users has reached the service (the stale check is the first read)
      let added = false;
      const limiter = new RateLimiter({
        maxRps: 2,
        sleep: async (ms) => {
          if (!added && (sim.requestCounts()["query-users"] ?? 0) >= 2) {
            added = true;
            await otherClient(sim).addUsers(safetyRuleId(1), [latecomer]);
          }
          await realSleep(ms);
        },
      });
      const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT, rateLimiter: limiter });

      // when the saved plan is applied
      const result = await applyAsSaved(plan, client);

      // then no wait came between the guard read and remove-all-users, so the user added in a wait is kept
      expect(added).toBe(true);
      expect(listing(sim, safetyRuleId(1))).toContain("late-1:late.comer@example.com");
      // and the rule is not reported applied and verified over it
      expect(result.rules[0]).toMatchObject({ outcome: "failed", verified: false });
    });
  });
});

/**
 * issue 31 item 2, the audit's reproduction: under a service limit a little below --max-rps, at
 * --max-rps 1, and with a token always due for renewal, someone adds a user to each rule about
 * 300 ms after that rule's guard read was answered. Nothing may wait between that read and
 * remove-all-users, so the user is kept: added after the list was emptied (the rule then fails
 * verification), or seen by a new read (the rule is refused).
 */
describe("the guard read is never followed by a wait (several workers)", () => {
  const RULES = 4;
  const LATE_MS = 300;
  /** Generous: up to ~40 requests at 1.5 a second, with 429s between. */
  const SLOW_APPLY_TIMEOUT_MS = 120_000;
  const late = (i: number) => ({ userIdFromAuthority: `late-${i}`, userAliasList: [`late.${i}@example.com`] });

  async function rebuildWithLatecomers(options: { simulatorRps?: number; maxRps?: number; tokenSource?: TokenSource }) {
    const seed = tenant(Array.from({ length: RULES }, (_, i) => ({ users: [simUser(`x-${i + 1}`), simUser(null, `noid${i + 1}@example.com`)] })));
    const declared = Array.from({ length: RULES }, (_, i) => ({
      users: [
        { userId: `x-${i + 1}`, aliases: [`x-${i + 1}@example.com`] },
        { userId: `y-${i + 1}`, aliases: [`noid${i + 1}@example.com`] },
      ],
    }));
    return withSimulator({ seed, token: TOKEN }, async (sim) => {
      const plan = await planIn(otherClient(sim), declared);
      if (options.simulatorRps !== undefined) sim.setFaults({ rateLimitRps: options.simulatorRps });
      const reads = new Map<string, number>();
      const additions: Array<Promise<void>> = [];
      // someone else adds a user to each rule 300 ms after its first guard read was answered (its
      // first read is the stale check's)
      const onRequest = (event: RequestEvent): void => {
        if (event.operation !== "query-users" || event.outcome !== "ok" || event.ruleId === undefined) return;
        const ruleId = event.ruleId;
        const count = (reads.get(ruleId) ?? 0) + 1;
        reads.set(ruleId, count);
        if (count !== 2) return;
        const i = Number(ruleId.slice(-12));
        additions.push(
          realSleep(LATE_MS).then(() => {
            const users = sim.rule(ruleId)?.users ?? [];
            sim.setUsers(ruleId, [...users, late(i)]);
          }),
        );
      };
      const client = new RuleListClient({
        baseUrl: sim.url,
        tenantId: TENANT,
        ...(options.tokenSource === undefined ? { token: TOKEN } : { tokenSource: options.tokenSource }),
        rateLimiter: new RateLimiter({ maxRps: options.maxRps }),
        onRequest,
      });
      const result = await applyAsSaved(plan, client, 4);
      await Promise.all(additions);
      return { result, listings: Array.from({ length: RULES }, (_, i) => listing(sim, safetyRuleId(i + 1))), guarded: additions.length };
    });
  }

  function expectEveryLatecomerKept(run: Awaited<ReturnType<typeof rebuildWithLatecomers>>): void {
    expect(run.guarded).toBe(RULES);
    const wiped = run.listings.flatMap((users, index) => (users.includes(`late-${index + 1}:late.${index + 1}@example.com`) ? [] : [`rule ${index + 1}`]));
    expect(wiped).toEqual([]);
    // and no rule is passed over it, nor said to have possibly landed a call that was never sent
    for (const rule of run.result.rules) {
      expect(rule).toMatchObject({ outcome: "failed" });
      expect(rule.message ?? "").not.toMatch(/may have landed/);
    }
  }

  it(
    "a service limit a little below --max-rps (1.5 against 2): every user added 300 ms after its rule's guard read is kept",
    async () => {
      expectEveryLatecomerKept(await rebuildWithLatecomers({ simulatorRps: 1.5, maxRps: 2 }));
    },
    SLOW_APPLY_TIMEOUT_MS,
  );

  it(
    "--max-rps 1 with 4 workers: every user added 300 ms after its rule's guard read is kept",
    async () => {
      expectEveryLatecomerKept(await rebuildWithLatecomers({ maxRps: 1 }));
    },
    SLOW_APPLY_TIMEOUT_MS,
  );

  it(
    "a token command whose token is always due for renewal (each run takes 400 ms): the token is taken before the guard read, so every user added 300 ms after it is kept",
    async () => {
      const tokenSource = new TokenCommand({
        command: "always-due",
        given: "ALERTS_API_TOKEN_COMMAND",
        run: async () => {
          await realSleep(400);
          return { exitCode: 0, signal: null, stdout: JSON.stringify({ token: TOKEN, expiresIn: 0.001 }), stderr: "", timedOut: false };
        },
      });
      expectEveryLatecomerKept(await rebuildWithLatecomers({ tokenSource }));
    },
    SLOW_APPLY_TIMEOUT_MS,
  );
});
