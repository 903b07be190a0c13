/**
 * `apply --report-json/--report-markdown` end to end: the report of a run that applied, of one
 * that failed part-way, and of one refused as stale; never half-written, never the token.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ApplyReport } from "../../src/core/report/apply-report";
import { useSimulator } from "../support/simulator";
import { workspace, writesOf } from "../support/cli";
import type { Workspace } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";

const TOKEN = "report-e2e-token-1q2w3e4r";
const sim = useSimulator({ token: TOKEN }, { perTest: true });
let ws: Workspace;

const REPORT_FLAGS = ["--report-json", "report.json", "--report-markdown", "report.md"];

const cli = cliAgainst(sim, { cwd: () => ws.dir });

function reports(): { json: ApplyReport; markdown: string; raw: string } {
  const raw = readFileSync(join(ws.dir, "report.json"), "utf8");
  return { json: JSON.parse(raw) as ApplyReport, markdown: readFileSync(join(ws.dir, "report.md"), "utf8"), raw };
}

const engineeringChange = {
  id: "engineering",
  props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS.slice(0, 3), { userId: "908712345678901299", aliases: ["new.person@example.com"] }] },
};
const financeAddition = {
  id: "finance",
  props: {
    ruleName: FINANCE_NAME,
    users: [
      { userId: "908712345678903001", aliases: ["frank.moreau@example.com", "f.moreau@finance.example.com"] },
      { userId: "908712345678903002", aliases: ["grace.kim@example.com"] },
      { userId: "908712345678903003", aliases: ["new.finance@example.com"] },
    ],
  },
};

beforeEach(() => {
  ws = workspace([{ name: "rules", lists: [engineeringChange, financeAddition] }]);
});

afterEach(() => {
  ws.cleanup();
});

describe("apply reports", () => {
  it("records a saved plan applied: version, times, connection, plan checksum, every rule's calls and verification", async () => {
    // given a saved plan
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    const planChecksum = JSON.parse(readFileSync(join(ws.dir, "plan.json"), "utf8")).checksum;
    // when
    const applied = await cli(["apply", "plan.json", ...REPORT_FLAGS]);
    // then
    expect(applied.code).toBe(0);
    const { json, markdown, raw } = reports();
    expect(json).toMatchObject({
      reportVersion: 1,
      tool: { name: "alert-rule-users" },
      status: "applied",
      exitCode: 0,
      connection: { baseUrl: sim.url, tenantId: sim.tenantId },
      source: { kind: "plan-file", path: "plan.json" },
      plan: { checksum: planChecksum },
      refusal: null,
      summary: { applied: 2, failed: 0 },
    });
    expect(Date.parse(json.startedAt)).toBeLessThanOrEqual(Date.parse(json.finishedAt));
    expect(json.rules).toContainEqual({
      ruleId: RULES.engineering,
      ruleName: "Endpoint exfiltration - Engineering",
      constructPath: "rules/engineering",
      action: "update",
      outcome: "applied",
      calls: [
        { operation: "add-users", users: 1, status: "ok" },
        { operation: "remove-users", users: 1, status: "ok" },
      ],
      verified: true,
      message: null,
    });
    expect(markdown).toContain("<!-- alert-rule-users-apply -->");
    expect(markdown).toContain("2 rules applied and verified");
    expect(markdown).toContain(planChecksum);
    expect(markdown).not.toContain(sim.tenantId);
    for (const text of [raw, markdown, applied.stdout, applied.stderr]) expect(text).not.toContain(TOKEN);
  });

  it("records a run that failed part-way: the rule that failed, its calls, and the one that converged", async () => {
    // given a service that refuses every remove-users
    sim.setFaults({ operations: ["remove-users"], failRate: 1 });
    // when
    const applied = await cli(["apply", "--auto-approve", ...REPORT_FLAGS]);
    // then
    expect(applied.code).toBe(1);
    const { json, markdown } = reports();
    expect(json).toMatchObject({ status: "failed", exitCode: 1, refusal: null, source: { kind: "declaration" }, summary: { applied: 1, failed: 1 } });
    expect(json.plan?.checksum).toMatch(/^sha256:/);
    const engineering = json.rules.find((r) => r.constructPath === "rules/engineering");
    expect(engineering).toMatchObject({ outcome: "failed", verified: false });
    expect(engineering?.calls.map((c) => [c.operation, c.status])).toEqual([
      ["add-users", "ok"],
      ["remove-users", "failed"],
    ]);
    expect(json.rules.find((r) => r.constructPath === "rules/finance")).toMatchObject({ outcome: "applied", verified: true });
    expect(markdown).toContain("1 failed");
  });

  it("records a stale saved plan as refused, with the reason and the stale rule; nothing sent", async () => {
    // given a saved plan, then a change on the service
    expect((await cli(["plan", "--out", "plan.json"])).code).toBe(0);
    sim.setUsers(RULES.engineering, [{ userIdFromAuthority: "1", userAliasList: ["console.edit@example.com"] }]);
    sim.resetCounts();
    // when
    const refused = await cli(["apply", "plan.json", ...REPORT_FLAGS]);
    // then
    expect(refused.code).toBe(1);
    expect(writesOf(sim.requestCounts())).toEqual({});
    const { json, markdown } = reports();
    expect(json).toMatchObject({ status: "refused", exitCode: 1, refusal: { code: "STALE_PLAN", staleRules: [expect.stringContaining("rules/engineering")] } });
    expect(json.refusal?.message).toMatch(/stale/);
    expect(json.rules.every((r) => r.calls.length === 0)).toBe(true);
    expect(markdown).toContain("Apply refused: nothing was sent.");
    expect(markdown).toContain("STALE_PLAN");
  });

  it("records a refusal before any plan exists (no terminal, no --auto-approve)", async () => {
    const refused = await cli(["apply", ...REPORT_FLAGS]);
    expect(refused.code).toBe(1);
    const { json } = reports();
    expect(json).toMatchObject({ status: "error", connection: null, plan: null, refusal: { code: "USAGE" }, rules: [] });
  });

  it("--help names the report flags", async () => {
    const help = await cli(["apply", "--help"]);
    expect(help.stdout).toContain("--report-json FILE");
    expect(help.stdout).toContain("--report-markdown FILE");
  });
});
