/**
 * Two pipelines against one tenant (docs/ci.md, "When two pipelines race"):
 * (a) an apply that lands between another run's plan and its apply makes that saved plan stale:
 *     it is refused as a whole and nothing is sent (unless it applied the very same change: then
 *     the saved plan is already applied, and nothing is sent either);
 * (b) two applies of the same declaration at once both finish, the list ends exactly as declared
 *     and a new plan shows no changes. Writes are idempotent; the only interleaving that can show
 *     is a rebuild (remove-all-users, then add-users) of one run seen mid-way by the other run's
 *     read-back, which that run reports as a verify failure (exit 1), never as a pass.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApplyReport } from "../../src/core/report/apply-report";
import { useSimulator } from "../support/simulator";
import { connectionEnv, runCli, workspace, writesOf } from "../support/cli";
import type { ListDecl, Workspace } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";

const TOKEN = "concurrency-e2e-token-0p9o8i7u";
const sim = useSimulator({ token: TOKEN }, { perTest: true });
const spaces: Workspace[] = [];

function space(lists: ListDecl[]): Workspace {
  const ws = workspace([{ name: "rules", lists }]);
  spaces.push(ws);
  return ws;
}

const cli = (ws: Workspace, args: string[]) => runCli(args, { cwd: ws.dir, env: connectionEnv(sim) });

const engineering = (extra: { userId: string; aliases: string[] }) => ({
  id: "engineering",
  props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS.slice(0, 3), extra] },
});

/** The research lab rule has two entries without IDs: declaring it authoritatively plans a rebuild. */
const RESEARCH_USERS = [
  { userId: "908712345678908001", aliases: ["maria.santos@example.com"] },
  { userId: "908712345678908002", aliases: ["visiting.scientist@example.com"] },
  { userId: "908712345678908003", aliases: ["intern2025@research.example.com", "lab.intern@example.com"] },
];

/** A list as comparable text: one `id:alias,alias` per entry, sorted. */
const listOf = (ruleId: string) =>
  sim
    .rule(ruleId)!
    .users.map((u) => `${u.userIdFromAuthority ?? "-"}:${[...u.userAliasList].sort().join(",")}`)
    .sort();
const declared = (users: readonly { userId: string; aliases: readonly string[] }[]) => users.map((u) => `${u.userId}:${[...u.aliases].sort().join(",")}`).sort();

afterEach(() => {
  for (const ws of spaces.splice(0)) ws.cleanup();
});

describe("two pipelines on one tenant", () => {
  it("(a) an apply between another run's plan and apply makes its saved plan stale: refused, nothing sent", async () => {
    // given pipeline A saved a reviewed plan
    const a = space([engineering({ userId: "908712345678901298", aliases: ["from.a@example.com"] })]);
    expect((await cli(a, ["plan", "--out", "plan.json"])).code).toBe(0);
    // and pipeline B applied its own change to the same rule since
    const b = space([engineering({ userId: "908712345678901299", aliases: ["from.b@example.com"] })]);
    expect((await cli(b, ["apply", "--auto-approve"])).code).toBe(0);
    const afterB = listOf(RULES.engineering);
    sim.resetCounts();
    // when A applies its saved plan
    const applied = await cli(a, ["apply", "plan.json", "--report-json", "report.json"]);
    // then the whole plan is refused, no write is sent, and B's result stands
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(/stale/);
    expect(applied.stderr).toContain("rules/engineering");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listOf(RULES.engineering)).toEqual(afterB);
    const report = JSON.parse(readFileSync(join(a.dir, "report.json"), "utf8")) as ApplyReport;
    expect(report.refusal?.code).toBe("STALE_PLAN");
    // and planning again from A's declaration shows A's change over B's (what A's pipeline would then apply)
    const again = await cli(a, ["plan", "--detailed-exitcode"]);
    expect(again.code).toBe(2);
    expect(again.stdout).toContain("from.b@example.com");
  });

  it("(a') the same change applied by another run in between: the saved plan is already applied, nothing sent; a new plan is empty", async () => {
    const lists = [engineering({ userId: "908712345678901298", aliases: ["same@example.com"] })];
    const a = space(lists);
    const b = space(lists);
    expect((await cli(a, ["plan", "--out", "plan.json"])).code).toBe(0);
    expect((await cli(b, ["apply", "--auto-approve"])).code).toBe(0);
    sim.resetCounts();
    const applied = await cli(a, ["apply", "plan.json"]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Already applied");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect((await cli(a, ["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("(b) two applies of the same declaration at once: both finish, the lists end as declared, a new plan is empty", async () => {
    // given one declaration, checked out by two pipelines: an add and a removal, a rebuild, an exclusion list
    const extra = { userId: "908712345678901297", aliases: ["both@example.com"] };
    const exclusion = [{ userId: "908712345678902001", aliases: ["svc-backup@example.com"] }];
    const lists: ListDecl[] = [
      engineering(extra),
      { id: "research", props: { ruleId: RULES.research, users: RESEARCH_USERS } },
      { id: "sharing", props: { ruleId: RULES.cloudSharing, users: exclusion } },
    ];
    const one = space(lists);
    const two = space(lists);
    // both synthesized beforehand, so the two applies start together; a service slow enough for them to interleave
    for (const ws of [one, two]) expect((await cli(ws, ["plan", "--detailed-exitcode"])).code).toBe(2);
    sim.setFaults({ latencyMs: 200 });
    // when both apply at once
    const flags = ["apply", "--skip-synth", "--auto-approve", "--report-json", "report.json"];
    const results = await Promise.all([cli(one, flags), cli(two, flags)]);
    sim.setFaults({});
    // then both finish; at most one reports a failure, and only of the rebuilt rule: its remove-all-users
    // refused because the other run had already rebuilt the list (docs/contract.md §9.3), or a verify failure
    const reports = [one, two].map((ws) => JSON.parse(readFileSync(join(ws.dir, "report.json"), "utf8")) as ApplyReport);
    expect(results.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    for (const [i, result] of results.entries()) {
      expect(result.code === 0 || result.code === 1).toBe(true);
      if (result.code === 0) continue;
      const failed = reports[i]!.rules.filter((r) => r.outcome === "failed");
      expect(failed.map((r) => r.constructPath)).toEqual(["rules/research"]);
      const refused = failed[0]!.message?.startsWith("refused: remove-all-users was not sent") === true;
      expect([refused, failed[0]!.verified]).toEqual(refused ? [true, null] : [false, false]);
    }
    // and the lists are exactly the declaration
    expect(listOf(RULES.engineering)).toEqual(declared([...ENGINEERING_USERS.slice(0, 3), extra]));
    expect(listOf(RULES.research)).toEqual(declared(RESEARCH_USERS));
    expect(listOf(RULES.cloudSharing)).toEqual(declared(exclusion));
    expect((await cli(one, ["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});
