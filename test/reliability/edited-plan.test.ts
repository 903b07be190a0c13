/**
 * A saved plan is applied only as far as it still holds (docs/contract.md §9.3): a plan edited after the
 * plan command wrote it, with its checksum recomputed, is refused when its calls or its
 * mass-removal check do not follow from its own desired lists and the lists read now. With
 * ALERT_RULE_USERS_PLAN_KEY set, only a plan signed with that key is applied.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { planChecksum, serializePlan, type Plan } from "../../src/core/engine/plan-schema";
import type { RunningSimulator } from "../../src/simulator";
import { listing, runCli, workspace, writesOf, type Workspace } from "../support/cli";
import { withSimulator } from "../support/simulator";
import { declare, safetyRuleId, simUser, tenant, type DeclaredList } from "./safety-support";
import { SecretScan, TOKEN, env } from "./support";

const scan = new SecretScan();
const PLAN_KEY = "plan-KEY-5d2a9c7e1f3b8a6d4c0e";
const OTHER_KEY = "other-KEY-0a1b2c3d4e5f6a7b8c9d";
const OTHER_TENANT = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

afterAll(() => {
  scan.expectNoLeaks();
  expect(scan.leaks(PLAN_KEY).found).toEqual([]);
  expect(scan.leaks(OTHER_KEY).found).toEqual([]);
});

const RULE_1 = safetyRuleId(1);
const RULE_2 = safetyRuleId(2);
const user = (id: string) => ({ userId: id, aliases: [`${id}@example.com`] });

/** Rule 1 gains u-3; rule 2 is declared as it is (no change). */
const SEED = tenant([{ users: [simUser("u-1"), simUser("u-2")] }, { users: [simUser("x-1"), simUser("x-2"), simUser("x-3")] }]);
const DECLARED: DeclaredList[] = [{ users: [user("u-1"), user("u-2"), user("u-3")] }, { users: [user("x-1"), user("x-2"), user("x-3")] }];

type PlanJson = Plan & { checksum: string; signature?: string };
type Mutable<T> = { -readonly [K in keyof T]: Mutable<T[K]> };

function readPlan(ws: Workspace, file = "plan.json"): Mutable<PlanJson> {
  return JSON.parse(readFileSync(join(ws.dir, file), "utf8")) as Mutable<PlanJson>;
}

/** Writes the edited plan with its checksum recomputed, as someone editing it on purpose would (a signature is kept as it was). */
function writeEdited(ws: Workspace, plan: Mutable<PlanJson>, file = "plan.json"): void {
  const { checksum: _c, ...rest } = plan;
  void _c;
  writeFileSync(join(ws.dir, file), JSON.stringify({ ...rest, checksum: planChecksum(rest) }, null, 2));
}

async function run(args: string[], ws: Workspace, sim: RunningSimulator, extraEnv: NodeJS.ProcessEnv = {}) {
  const result = await runCli(args, { cwd: ws.dir, env: { ...env(sim.url), ...extraEnv } });
  scan.add(args.join(" "), result.stdout, result.stderr);
  return result;
}

/** A simulator seeded with SEED, a workspace declaring `lists`, and a saved plan.json made with `planEnv`. */
async function withSavedPlan(lists: DeclaredList[], planEnv: NodeJS.ProcessEnv, body: (sim: RunningSimulator, ws: Workspace) => Promise<void>): Promise<void> {
  await withSimulator({ seed: SEED, token: TOKEN }, async (sim) => {
    const ws = workspace(declare(lists));
    scan.dir(ws.dir);
    try {
      const plan = await run(["plan", "--out", "plan.json"], ws, sim, planEnv);
      expect(plan.code).toBe(0);
      sim.resetCounts();
      await body(sim, ws);
    } finally {
      scan.collectFiles();
      ws.cleanup();
    }
  });
}

describe("a saved plan edited after review, its checksum recomputed", () => {
  it("refuses edited calls (a remove-users slipped in), sending nothing", async () => {
    await withSavedPlan(DECLARED, {}, async (sim, ws) => {
      // given a plan whose rule 1 also removes u-2, which its desired list keeps
      const plan = readPlan(ws);
      plan.rules[0]!.calls.push({ operation: "remove-users", userIdList: ["u-2"] });
      writeEdited(ws, plan);
      // when it is applied
      const apply = await run(["apply", "plan.json"], ws, sim);
      // then it is refused, naming the rule and what differs, and nothing is written
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the saved plan does not follow from its own desired lists and the lists read now/);
      expect(apply.stderr).toMatch(/rule-1 \(rule [^)]+\): calls \(file: add-users, remove-users; derived: add-users\)/);
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(listing(sim, RULE_1)).toEqual(["u-1:u-1@example.com", "u-2:u-2@example.com"]);
    });
  });

  it("refuses a list emptied with the mass-removal guard reading 'not triggered'", async () => {
    await withSavedPlan(DECLARED, {}, async (sim, ws) => {
      // given rule 2 (no change planned) rewritten to be emptied, its guard set to "not triggered"
      const plan = readPlan(ws);
      const rule = plan.rules[1]!;
      rule.action = "update";
      rule.desired = [];
      rule.changes.removeAll = true;
      rule.changes.removeUsers = [user("x-1"), user("x-2"), user("x-3")];
      rule.calls = [{ operation: "remove-all-users" }];
      rule.massRemoval = { entries: 3, lost: 0, triggered: false };
      writeEdited(ws, plan);
      // when it is applied without --allow-mass-removal
      const apply = await run(["apply", "plan.json"], ws, sim);
      // then the guard derived again refuses it, and the list is kept
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/rule-2 \(rule [^)]+\): mass-removal check \(file: 0 of 3 entries leave, not triggered; derived: 3 of 3 entries leave, triggered\)/);
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(listing(sim, RULE_2)).toHaveLength(3);
    });
  });

  it("refuses a plan switched to another tenant whose lists it was made to match (fingerprints copied)", async () => {
    // given a second tenant with the same rule IDs and other lists
    const other = { ...tenant([{ users: [simUser("b-1"), simUser("b-2")] }, { users: [simUser("x-1"), simUser("x-2"), simUser("x-3")] }]), tenantId: OTHER_TENANT };
    await withSimulator({ seed: other, token: TOKEN }, async (otherSim) => {
      await withSavedPlan(DECLARED, {}, async (sim, ws) => {
        // and the plan made against the first tenant, its connection and fingerprints rewritten for the second
        const otherPlan = await runCli(["plan", "--out", "other.json"], { cwd: ws.dir, env: env(otherSim.url, TOKEN, OTHER_TENANT) });
        scan.add("plan of the other tenant", otherPlan.stdout, otherPlan.stderr);
        const plan = readPlan(ws);
        const fingerprints = readPlan(ws, "other.json").rules.map((r) => r.fingerprint);
        plan.connection = { baseUrl: otherSim.url, tenantId: OTHER_TENANT };
        plan.rules.forEach((r, i) => (r.fingerprint = fingerprints[i]!));
        writeEdited(ws, plan);
        otherSim.resetCounts();
        // when it is applied against the second tenant
        const apply = await runCli(["apply", "plan.json"], { cwd: ws.dir, env: env(otherSim.url, TOKEN, OTHER_TENANT) });
        scan.add("apply on the other tenant", apply.stdout, apply.stderr);
        // then its calls do not follow from its desired list and that tenant's list: refused, nothing written
        expect(apply.code).toBe(1);
        expect(apply.stderr).toMatch(/rule-1 \(rule [^)]+\): calls \(file: add-users; derived: add-users, remove-users\)/);
        expect(writesOf(otherSim.requestCounts())).toEqual({});
        expect(listing(otherSim, RULE_1)).toEqual(["b-1:b-1@example.com", "b-2:b-2@example.com"]);
        expect(writesOf(sim.requestCounts())).toEqual({});
      });
    });
  });

  it("still applies an edit that keeps the plan consistent with its desired lists: the checksum proves no author, only a signature does", async () => {
    await withSavedPlan(DECLARED, {}, async (sim, ws) => {
      // given rule 1 of the reviewed plan replaced by one that also adds u-4 (from a plan of an edited declaration)
      ws.write(declare([{ users: [...DECLARED[0]!.users, user("u-4")] }, DECLARED[1]!]));
      expect((await run(["plan", "--out", "edited.json"], ws, sim)).code).toBe(0);
      const plan = readPlan(ws);
      plan.rules[0] = readPlan(ws, "edited.json").rules[0]!;
      writeEdited(ws, plan);
      sim.resetCounts();
      // when it is applied without a plan key, it goes through (what README's "What the checksum proves" says)
      const apply = await run(["apply", "plan.json"], ws, sim);
      expect(apply.code).toBe(0);
      expect(listing(sim, RULE_1)).toContain("u-4:u-4@example.com");
    });
  });
});

describe("signed plans (ALERT_RULE_USERS_PLAN_KEY)", () => {
  const keyed = { ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY };

  it("plan --out signs the plan, and apply with the same key applies it", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      const text = readFileSync(join(ws.dir, "plan.json"), "utf8");
      expect(readPlan(ws).signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      expect(text).not.toContain(PLAN_KEY);
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect([apply.code, apply.stderr]).toEqual([0, ""]);
      expect(listing(sim, RULE_1)).toContain("u-3:u-3@example.com");
    });
  });

  it("apply with the key refuses an unsigned plan before any request, naming the variable", async () => {
    await withSavedPlan(DECLARED, {}, async (sim, ws) => {
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/plan\.json is not signed, and ALERT_RULE_USERS_PLAN_KEY is set/);
      expect(sim.requestCounts()).toEqual({});
    });
  });

  it("apply refuses a plan signed with another key", async () => {
    await withSavedPlan(DECLARED, { ALERT_RULE_USERS_PLAN_KEY: OTHER_KEY }, async (sim, ws) => {
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the signature of plan\.json does not match ALERT_RULE_USERS_PLAN_KEY/);
      expect(sim.requestCounts()).toEqual({});
    });
  });

  it("apply refuses a signed plan edited consistently (checksum recomputed), which the checksum alone lets through", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      ws.write(declare([{ users: [...DECLARED[0]!.users, user("u-4")] }, DECLARED[1]!]));
      expect((await run(["plan", "--out", "edited.json"], ws, sim)).code).toBe(0);
      const plan = readPlan(ws);
      plan.rules[0] = readPlan(ws, "edited.json").rules[0]!;
      writeEdited(ws, plan);
      sim.resetCounts();
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/does not match ALERT_RULE_USERS_PLAN_KEY: the plan was signed with another key, or edited after it was signed/);
      expect(sim.requestCounts()).toEqual({});
      expect(listing(sim, RULE_1)).not.toContain("u-4:u-4@example.com");
    });
  });

  it("a signed plan applied without the key: applied, with a warning that the signature was not checked", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      const apply = await run(["apply", "plan.json"], ws, sim);
      expect(apply.code).toBe(0);
      expect(apply.stderr).toMatch(/plan\.json is signed, but ALERT_RULE_USERS_PLAN_KEY is not set: its signature was not checked/);
    });
  });

  it("a key shorter than 16 characters is refused before any request, and never printed", async () => {
    await withSavedPlan(DECLARED, {}, async (sim, ws) => {
      const apply = await run(["apply", "plan.json"], ws, sim, { ALERT_RULE_USERS_PLAN_KEY: "short-key-42" });
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/ALERT_RULE_USERS_PLAN_KEY is set but has 12 characters; use a random key of at least 16/);
      expect(apply.stdout + apply.stderr).not.toContain("short-key-42");
      expect(sim.requestCounts()).toEqual({});
    });
  });
});

/** An instant `days` days from the real clock (negative: ago), and its UTC day. */
const daysFromNow = (days: number): Date => new Date(Date.now() + days * 86_400_000);
const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

describe("a saved plan applied long after it was made (--max-plan-age)", () => {
  const keyed = { ALERT_RULE_USERS_PLAN_KEY: PLAN_KEY };

  /** The saved plan as the plan job would have signed it `days` days ago. */
  function ageSignedPlan(ws: Workspace, days: number): void {
    const { checksum: _c, signature: _s, ...plan } = readPlan(ws);
    void _c;
    void _s;
    writeFileSync(join(ws.dir, "plan.json"), serializePlan({ ...plan, createdAt: daysFromNow(-days).toISOString() }, PLAN_KEY));
  }

  it("refuses a signed plan made 2 days ago before any request, naming --max-plan-age (a replay after a later plan reverted its change)", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      ageSignedPlan(ws, 2);
      sim.resetCounts();
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the plan was made 2 days ago .*more than --max-plan-age 24h/);
      expect(sim.requestCounts()).toEqual({});
      expect(listing(sim, RULE_1)).not.toContain("u-3:u-3@example.com");
    });
  });

  it("applies the same plan with --max-plan-age 3d", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      ageSignedPlan(ws, 2);
      const apply = await run(["apply", "plan.json", "--max-plan-age", "3d"], ws, sim, keyed);
      expect([apply.code, apply.stderr]).toEqual([0, ""]);
      expect(listing(sim, RULE_1)).toContain("u-3:u-3@example.com");
    });
  });

  it("the signature covers createdAt: an old signed plan made to look new is refused", async () => {
    await withSavedPlan(DECLARED, keyed, async (sim, ws) => {
      ageSignedPlan(ws, 2);
      const plan = readPlan(ws);
      plan.createdAt = new Date().toISOString();
      writeEdited(ws, plan);
      sim.resetCounts();
      const apply = await run(["apply", "plan.json"], ws, sim, keyed);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/does not match ALERT_RULE_USERS_PLAN_KEY/);
      expect(sim.requestCounts()).toEqual({});
    });
  });
});

/**
 * Runs `body` against a simulator of the safety tenant, in a workspace declaring DECLARED with its
 * third user expiring on `expiresAt` (scanned for the token at the end, removed however it ends).
 */
async function withExpiredUser(expiresAt: string, body: (ws: Workspace, sim: RunningSimulator) => Promise<void>): Promise<void> {
  const stacks = declare(DECLARED);
  const props = stacks[0]!.lists[0]!.props as { users: Array<Record<string, unknown>> };
  props.users[2] = { ...props.users[2], expiresAt };
  await withSimulator({ seed: SEED, token: TOKEN }, async (sim) => {
    const ws = workspace(stacks);
    scan.dir(ws.dir);
    try {
      await body(ws, sim);
    } finally {
      ws.cleanup();
    }
  });
}

describe("a saved plan applied after an expiresAt passed", () => {
  it("refuses to add a user whose expiresAt has passed by the real clock, whatever the plan's now, naming the user", async () => {
    // given a plan made with a clock 10 days ago, adding a user who expired 3 days ago
    const expiresAt = dayOf(daysFromNow(-3));
    await withExpiredUser(expiresAt, async (ws, sim) => {
      const now = `${daysFromNow(-10).toISOString().slice(0, 19)}Z`;
      const plan = await run(["plan", "--now", now, "--out", "plan.json"], ws, sim);
      expect(plan.code).toBe(0);
      expect(readPlan(ws).rules[0]!.calls).toEqual([{ operation: "add-users", userList: [user("u-3")] }]);
      sim.resetCounts();

      // when it is applied today
      const apply = await run(["apply", "plan.json"], ws, sim);

      // then nothing is sent and the message names the user
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the plan adds users whose expiresAt has passed/);
      expect(apply.stderr).toContain(`safety/rule-1: u-3 (expiresAt ${expiresAt})`);
      expect(sim.requestCounts()).toEqual({});
      expect(listing(sim, RULE_1)).not.toContain("u-3:u-3@example.com");
    });
  });

  it("a fresh apply --now in the past refuses too: a user who has expired by the real clock is not added (issue 31 item 10)", async () => {
    // given a declaration adding a user who expired 3 days ago
    const expiresAt = dayOf(daysFromNow(-3));
    await withExpiredUser(expiresAt, async (ws, sim) => {
      // when it is applied at once with a clock 10 days ago
      const now = `${daysFromNow(-10).toISOString().slice(0, 19)}Z`;
      const apply = await run(["apply", "--auto-approve", "--now", now], ws, sim);

      // then nothing is written and the message names the user
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(`safety/rule-1: u-3 (expiresAt ${expiresAt})`);
      expect(writesOf(sim.requestCounts())).toEqual({});
      expect(listing(sim, RULE_1)).not.toContain("u-3:u-3@example.com");
    });
  });
});
