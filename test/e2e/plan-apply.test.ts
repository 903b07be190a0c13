/**
 * The built CLI end to end, against the simulator on a random port: exit codes, saved plans,
 * the safety rules of docs/contract.md §5, and no token anywhere.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { listing, writesOf } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";
import { useWorkspace } from "../support/use-workspace";

const TOKEN = "e2e-token-9f8e7d6c5b4a";

const sim = useSimulator({ token: TOKEN }, { perTest: true });
const ws = useWorkspace();
const outputs: string[] = [];

const cli = cliAgainst(sim, { cwd: () => ws.dir, outputs });

const aliasesOf = (ruleId: string) => listing(sim, ruleId);

afterAll(() => {
  // The token never reaches any output of any run in this file.
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

const engineeringChange = {
  id: "engineering",
  props: {
    ruleId: RULES.engineering,
    users: [...ENGINEERING_USERS.slice(0, 3), { userId: "908712345678901299", aliases: ["new.person@example.com"] }],
  },
};

describe("plan and apply", () => {
  it("plan --detailed-exitcode exits 2 with changes, apply converges, then plan exits 0", async () => {
    // given a declaration that adds one user and removes another
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    // when
    const before = await cli(["plan", "--detailed-exitcode"]);
    // then
    expect(before.stderr).toBe("");
    expect(before.code).toBe(2);
    expect(before.stdout).toContain("new.person@example.com");
    expect(before.stdout).toMatch(/Plan: 1 rules? to update/);

    const applied = await cli(["apply", "--auto-approve"]);
    expect(applied.code).toBe(0);
    expect(aliasesOf(RULES.engineering)).toContain("908712345678901299:new.person@example.com");
    expect(aliasesOf(RULES.engineering).some((a) => a.startsWith("908712345678901237"))).toBe(false);

    const after = await cli(["plan", "--detailed-exitcode"]);
    expect(after.code).toBe(0);
  });

  it("prints exactly one JSON document on stdout with --format json", async () => {
    ws.write([{ name: "rules", lists: [{ id: "finance", props: { ruleName: FINANCE_NAME, users: [] } }] }]);
    const result = await cli(["plan", "--format", "json"]);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.formatVersion).toBe(1);
    expect(doc.rules[0]).toMatchObject({ ruleId: RULES.finance, ruleName: FINANCE_NAME, constructPath: "rules/finance", action: "update" });
    expect(doc.rules[0].calls).toEqual([{ operation: "remove-all-users" }]);
  });

  it("a non-interactive apply without --auto-approve is refused before any request", async () => {
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    const result = await cli(["apply"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--auto-approve");
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("saved plans", () => {
  it("applies a saved plan and refuses it once the list changed on the service, sending nothing", async () => {
    // given a saved plan
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    const saved = readFileSync(join(ws.dir, "plan.json"), "utf8");
    expect(saved).not.toContain(TOKEN);
    // when someone edits the list in the console after review
    sim.setUsers(RULES.engineering, [{ userIdFromAuthority: "1", userAliasList: ["console.edit@example.com"] }]);
    sim.resetCounts();
    const stale = await cli(["apply", "plan.json"]);
    // then the plan is refused as a whole and no write is sent
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/stale/);
    expect(stale.stderr).toContain("rules/engineering");
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("applies an unchanged saved plan exactly", async () => {
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    const applied = await cli(["apply", "plan.json"]);
    expect(applied.code).toBe(0);
    expect(aliasesOf(RULES.engineering)).toContain("908712345678901299:new.person@example.com");
  });

  it("a saved plan applied again (a re-run of a merge's apply) says it is already applied: exit 0, nothing sent; a console change after it is still refused", async () => {
    // given a saved plan, applied
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    expect((await cli(["apply", "plan.json"])).code).toBe(0);
    const applied = aliasesOf(RULES.engineering);
    sim.resetCounts();
    // when it is applied again
    const again = await cli(["apply", "plan.json", "--report-json", "report.json", "--report-markdown", "report.md"]);
    // then it says so, sends nothing, and the report records it
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Already applied: the list this plan changes is already as it leaves it");
    expect(again.stdout).toContain("nothing to do, nothing was sent.");
    expect(again.stderr).not.toMatch(/stale|Error/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(aliasesOf(RULES.engineering)).toEqual(applied);
    const report = JSON.parse(readFileSync(join(ws.dir, "report.json"), "utf8")) as { status: string; exitCode: number; refusal: unknown; rules: { outcome: string; verified: boolean | null; calls: unknown[] }[] };
    expect(report).toMatchObject({ status: "already-applied", exitCode: 0, refusal: null });
    expect(report.rules.map((r) => [r.outcome, r.verified, r.calls.length])).toEqual([["unchanged", true, 0]]);
    expect(readFileSync(join(ws.dir, "report.md"), "utf8")).toContain("**Already applied: the list this plan changes is already as it leaves it");
    // and once someone changes the list in the console, the same plan is stale again: refused
    sim.setUsers(RULES.engineering, [...sim.rule(RULES.engineering)!.users, { userIdFromAuthority: "77", userAliasList: ["console.add@example.com"] }]);
    sim.resetCounts();
    const stale = await cli(["apply", "plan.json"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/stale/);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("refuses a saved plan for another tenant, sending nothing", async () => {
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    sim.resetCounts();
    const other = await cli(["apply", "plan.json"], { env: { ALERTS_TENANT_ID: "another-tenant" } });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("another-tenant");
    expect(sim.requestCounts()).toEqual({});
  });

  it("refuses a plan file that was edited after it was written", async () => {
    ws.write([{ name: "rules", lists: [engineeringChange] }]);
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    const file = join(ws.dir, "plan.json");
    writeFileSync(file, readFileSync(file, "utf8").replace("new.person@example.com", "intruder@example.com"));
    sim.resetCounts();
    const result = await cli(["apply", "plan.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/modified/);
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("mass-removal guard", () => {
  const emptyEngineering = { id: "engineering", props: { ruleId: RULES.engineering, users: [] } };

  it("refuses to empty a list without --allow-mass-removal, and applies with it", async () => {
    ws.write([{ name: "rules", lists: [emptyEngineering] }]);
    const refused = await cli(["apply", "--auto-approve"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/mass-removal/);
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(sim.rule(RULES.engineering)!.users).toHaveLength(4);

    const allowed = await cli(["apply", "--auto-approve", "--allow-mass-removal"]);
    expect(allowed.code).toBe(0);
    expect(sim.rule(RULES.engineering)!.users).toEqual([]);
  });
});

describe("rules that cannot be edited", () => {
  it("skips a system rule and an all-users rule: reported, no write call, exit 0", async () => {
    const someone = [{ userId: "1", aliases: ["someone@example.com"] }];
    ws.write([
      {
        name: "rules",
        lists: [
          { id: "departing", props: { ruleId: RULES.departing, users: someone } },
          { id: "high-risk", props: { ruleId: RULES.highRisk, users: someone } },
          { id: "everyone", props: { ruleId: RULES.allUsers, users: someone } },
        ],
      },
    ]);
    const plan = await cli(["plan", "--detailed-exitcode"]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/system rule/);
    expect(plan.stdout).toMatch(/monitors all users/);
    const applied = await cli(["apply", "--auto-approve"]);
    expect(applied.code).toBe(0);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });
});

describe("declarations in error", () => {
  it("a rule declared in two stacks exits 1 and nothing is sent", async () => {
    ws.write([
      { name: "one", lists: [engineeringChange] },
      { name: "two", lists: [{ id: "again", props: { ruleId: RULES.engineering, users: [] } }] },
    ]);
    const plan = await cli(["plan"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain("one/engineering");
    expect(plan.stdout + plan.stderr).toContain("two/again");
    const applied = await cli(["apply", "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("an unknown rule exits 1 and nothing is sent for any rule", async () => {
    ws.write([{ name: "rules", lists: [engineeringChange, { id: "ghost", props: { ruleId: "no-such-rule", users: [] } }] }]);
    const plan = await cli(["plan"]);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain("no-such-rule");
    const applied = await cli(["apply", "--auto-approve"]);
    expect(applied.code).toBe(1);
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("bad construct props fail synth with the construct path, before any request", async () => {
    ws.write([
      {
        name: "rules",
        lists: [
          { id: "both-refs", props: { ruleId: "x", ruleName: "y", users: [] } },
          { id: "dup-alias", props: { ruleId: "z", users: [{ userId: "1", aliases: ["a@x.com", "A@x.com "] }] } },
        ],
      },
    ]);
    const result = await cli(["plan"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("rules/both-refs");
    expect(result.stderr).toContain("rules/dup-alias");
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("under injected faults", () => {
  it("apply converges and verifies despite 5xx, lost responses and 429s", async () => {
    // given a change on three rules and a service that fails often
    ws.write([
      {
        name: "rules",
        lists: [
          engineeringChange,
          { id: "finance", props: { ruleName: FINANCE_NAME, users: [{ userId: "7", aliases: ["seven@example.com"] }] } },
          { id: "research", props: { ruleId: RULES.research, users: [{ userId: "8", aliases: ["eight@example.com"] }] } },
        ],
      },
    ]);
    sim.setFaults({ failRate: 0.2, lostResponseRate: 0.2, rateLimitEvery: 5, retryAfterSeconds: 0, seed: 7 });
    // when
    const applied = await cli(["apply", "--auto-approve", "--allow-mass-removal"]);
    // then
    expect(applied.code).toBe(0);
    sim.setFaults({});
    expect((await cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    expect(aliasesOf(RULES.research)).toEqual(["8:eight@example.com"]);
  });
});
