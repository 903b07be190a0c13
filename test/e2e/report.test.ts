/**
 * `report` through the built CLI against the simulator (docs/contract.md §10.3): one metadata search and
 * one query-users per editable rule, no write; the declarations joined where the app is; a
 * missing output directory refused before any request.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { connectionEnv, runCli, workspace, writesOf } from "../support/cli";
import type { Workspace } from "../support/cli";
import { RULES } from "../support/sample";

const sim = useSimulator({}, { perTest: true });
let ws: Workspace;
let out: string;

const cli = (args: string[], cwd = ws.dir) => runCli(args, { cwd, env: connectionEnv(sim) });

beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), "aru-report-"));
  ws = workspace([
    {
      name: "prod",
      lists: [
        {
          id: "cloud-exceptions",
          props: { ruleId: RULES.cloudSharing, users: [{ userId: "908712345678902001", aliases: ["svc-backup@example.com"], expiresAt: "2026-12-01" }] },
        },
      ],
    },
  ]);
});

afterEach(() => {
  ws.cleanup();
  rmSync(out, { recursive: true, force: true });
});

describe("report", () => {
  it("writes the page and the CSV from one read of each editable rule, joined with the app's declarations, and writes nothing to the service", async () => {
    // given
    sim.resetCounts();

    // when
    const result = await cli(["report", "--html", join(out, "access.html"), "--csv", join(out, "access.csv"), "--now", "2026-11-24T00:00:00Z"]);

    // then
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 7 });
    expect(writesOf(sim.requestCounts())).toEqual({});
    const csv = readFileSync(join(out, "access.csv"), "utf8").split("\r\n");
    expect(csv).toContain(`${RULES.cloudSharing},Cloud sharing outside the company,ALL_USERS_NOT_SPECIFIED,908712345678902001,svc-backup@example.com,declared,prod/cloud-exceptions,2026-12-01,expiring,`);
    expect(csv.filter((row) => row.includes(",not-declared,")).length).toBeGreaterThan(0);
    expect(readFileSync(join(out, "access.html"), "utf8")).toContain("prod/cloud-exceptions");
    expect(result.stdout).toMatch(/entries, in 7 rules, \d+ drift, 1 expiring within 14 days, 0 expired\.\n$/);
  });

  it("without an app says the declarations were not read", async () => {
    const result = await cli(["report", "--csv", join(out, "access.csv")], "/");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/declarations not read\.\n$/);
    expect(readFileSync(join(out, "access.csv"), "utf8")).not.toMatch(/,(declared|not-declared),/);
  });

  it("refuses an output directory that does not exist before any request", async () => {
    // given
    sim.resetCounts();

    // when
    const result = await cli(["report", "--html", join(out, "missing", "access.html")]);

    // then
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`report: --html ${join(out, "missing", "access.html")}: the directory ${join(out, "missing")} does not exist`);
    expect(sim.requestCounts()).toEqual({});
    expect(existsSync(join(out, "missing"))).toBe(false);
  });

  it("asks for a file when given neither --html nor --csv", async () => {
    const result = await cli(["report"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("report: say where to write the report: --html FILE, --csv FILE, or both");
  });
});
