/**
 * A service that misbehaves: answers with the wrong type$, without a field, with invalid JSON, with
 * an HTML error page, with an empty body, or sends headers and never finishes. Each misbehaving
 * rule fails with a message naming the operation and the rule, nothing is written to it, the
 * other rules still converge, and apply exits 1.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RuleListClient } from "../../src/api";
import type { MisbehaviourKind } from "../../src/simulator";
import type { CliResult, Workspace } from "../support/cli";
import { listing, runCli, workspace, writesOf } from "../support/cli";
import { useSimulator, withSimulator } from "../support/simulator";
import { applyAsSaved, planIn, safetyRuleId, simUser, tenant } from "./safety-support";
import { REPORTS, SecretScan, TENANT, TOKEN, chaosCase, env, listKey, withChaosRun, type ChaosCase } from "./support";

const scan = new SecretScan();

afterAll(() => {
  scan.expectNoLeaks();
});

const ruleId = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** Which rule's query-users misbehaves how, and what the error must say about it. */
const READS: ReadonlyArray<{ kind: MisbehaviourKind; rule: number; says: RegExp }> = [
  { kind: "wrong-type", rule: 1, says: /type\$: expected "USERS_IN_RULE_RESPONSE", received "UNEXPECTED_TYPE"/ },
  { kind: "missing-field", rule: 2, says: /users: missing/ },
  { kind: "invalid-json", rule: 3, says: /not valid JSON/ },
  { kind: "html-error", rule: 4, says: /500.*text\/html/ },
  { kind: "empty-body", rule: 5, says: /empty body/ },
  { kind: "hang", rule: 6, says: /timed out after 1000 ms/ },
];
/** A rule whose add-users answers 200 with the wrong type and applies nothing. */
const SILENT_WRITE = 7;
const WELL_BEHAVED = [8, 9, 10];

describe("apply against a service that misbehaves on some rules", () => {
  // given 10 rules, each declared with one more user than it has
  const chaos: ChaosCase = chaosCase(5, 10, ["add"]);
  const sim = useSimulator({ seed: chaos.seed, token: TOKEN });
  let ws: Workspace;
  let applied: CliResult;
  let before: Map<string, string[]>;

  beforeAll(async () => {
    ws = workspace(chaos.stacks);
    scan.dir(ws.dir);
    before = new Map(sim.rules().map((r) => [r.metadata.observerRuleId, listKey(r.users)]));
    // and a service whose query-users misbehaves for six of them, and whose add-users lies for one
    sim.setFaults({
      misbehave: [
        ...READS.map(({ kind, rule }) => ({ operation: "query-users", ruleId: ruleId(rule), kind })),
        { operation: "add-users", ruleId: ruleId(SILENT_WRITE), kind: "wrong-type" as const },
      ],
    });
    // when the declaration is applied with a short request timeout
    applied = await runCli(["apply", "--auto-approve", "--timeout", "1", ...REPORTS], { cwd: ws.dir, env: env(sim.url) });
    scan.add("apply", applied.stdout, applied.stderr);
  }, 240_000);

  afterAll(() => {
    scan.collectFiles();
    ws.cleanup();
  });

  const output = (): string => `${applied.stdout}\n${applied.stderr}`;
  const linesAbout = (id: string): string[] => output().split("\n").filter((line) => line.includes(id));

  it("exits 1, and reports the run", () => {
    expect(applied.code).toBe(1);
    expect(existsSync(join(ws.dir, "report.json"))).toBe(true);
  });

  it.each(READS)("$kind on query-users: a clear error naming the operation and the rule, and nothing written to it", ({ rule, says }) => {
    const id = ruleId(rule);
    expect(linesAbout(id).filter((line) => line.includes("query-users") && says.test(line))).not.toEqual([]);
    expect(listKey(sim.rule(id)!.users)).toEqual(before.get(id));
  });

  it("a write answered 200 without being applied is caught by the read-back, never passed", () => {
    const id = ruleId(SILENT_WRITE);
    expect(listKey(sim.rule(id)!.users)).toEqual(before.get(id));
    expect(output()).toMatch(/Generated rule 7.*failed: read back after apply, the list does not match/);
  });

  it("the well-behaved rules converge and verify", () => {
    for (const rule of WELL_BEHAVED) {
      const id = ruleId(rule);
      expect([id, listKey(sim.rule(id)!.users)]).toEqual([id, chaos.expected.get(id)]);
    }
    expect(output()).toMatch(/Apply complete: 3 rules applied and verified, 7 failed/);
  });

  it("sends one add-users per rule it could read, and none for the rules it could not", () => {
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": WELL_BEHAVED.length + 1 });
  });
});

describe("plan against a rule-metadata search that misbehaves", () => {
  it.each<MisbehaviourKind>(["invalid-json", "wrong-type"])("%s: exits 1 naming query-rule-metadata, and sends no write", async (kind) => {
    // given
    const chaos = chaosCase(6, 3, ["add"]);
    await withChaosRun(scan, chaos, { faults: { misbehave: [{ operation: "query-rule-metadata", kind }] } }, async (sim, ws) => {
      // when
      const result = await runCli(["apply", "--auto-approve"], { cwd: ws.dir, env: env(sim.url) });
      scan.add(`apply (${kind})`, result.stdout, result.stderr);
      // then
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error: query-rule-metadata returned an unexpected response/m);
      expect(writesOf(sim.requestCounts())).toEqual({});
    });
  });
});

describe("a read-back that says the rule monitors all users", () => {
  it.each(["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED"] as const)(
    "fails a %s rule whose add-users was answered 200 and not applied, never 'applied and verified'",
    async (listType) => {
      // given a saved plan adding a user, a service whose add-users answers 200 without applying,
      // and whose read-backs (after the stale check's read) say the rule monitors all users
      const seed = tenant([{ users: [simUser("u-1")], usersToAlertOn: listType }]);
      await withSimulator({ seed, token: TOKEN }, async (sim) => {
        const client = new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });
        const plan = await planIn(client, [{ users: [{ userId: "u-1", aliases: ["u-1@example.com"] }, { userId: "u-2", aliases: ["u-2@example.com"] }] }]);
        sim.setFaults({
          misbehave: [
            { operation: "add-users", kind: "wrong-type" },
            { operation: "query-users", kind: "all-users", skip: 1 },
          ],
        });

        // when it is applied
        const result = await applyAsSaved(plan, client);

        // then the rule failed verification, naming the list type
        expect(listing(sim, safetyRuleId(1))).toEqual(["u-1:u-1@example.com"]);
        expect(result.ok).toBe(false);
        expect(result.rules[0]).toMatchObject({ outcome: "failed", verified: false });
        expect(result.rules[0]!.message).toMatch(new RegExp(`of type ALL_USERS, not ${listType} as planned`));
      });
    },
  );
});
