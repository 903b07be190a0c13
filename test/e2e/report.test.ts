/**
 * `report` through the built CLI against the simulator (docs/contract.md §10.3): one metadata search and
 * one query-users per editable rule, no write; the declarations joined where the app is; a
 * missing output directory refused before any request.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { workspace, writesOf } from "../support/cli";
import type { Workspace } from "../support/cli";
import { RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";

const sim = useSimulator({}, { perTest: true });
let ws: Workspace;
let out: string;

const cli = cliAgainst(sim, { cwd: () => ws.dir });

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
    // the rules the app declares nothing for are "not managed by this app", counted apart from drift (issue 32)
    const total = csv.length - 2; // header, and the empty string after the last CRLF
    expect(total).toBeGreaterThan(3);
    const counted = /(\d+) entries, in 7 rules, 2 drift, 1 expiring within 14 days, 0 expired, (\d+) in 6 rules not managed by this app\.\n$/.exec(result.stdout);
    expect(counted).not.toBeNull();
    expect(csv.filter((row) => row.startsWith(`${RULES.engineering},`)).every((row) => row.includes(",not-managed,"))).toBe(true);
    const undeclared = csv.filter((row) => row.includes(",not-declared,"));
    expect(new Set(undeclared.map((row) => row.split(",").slice(0, 4).join(",")))).toEqual(
      new Set([`${RULES.cloudSharing},Cloud sharing outside the company,ALL_USERS_NOT_SPECIFIED,908712345678902002`, `${RULES.cloudSharing},Cloud sharing outside the company,ALL_USERS_NOT_SPECIFIED,908712345678902003`]),
    );
    // one time on the page: the --now of the states, and the time it was made (it differs from --now)
    const html = readFileSync(join(out, "access.html"), "utf8");
    expect(html).toContain("not managed by this app");
  });

  it("without --now, the page shows one time, not two (issue 32)", async () => {
    const result = await cli(["report", "--html", join(out, "access.html")]);
    expect(result.code).toBe(0);
    const html = readFileSync(join(out, "access.html"), "utf8");
    const times = new Set(html.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g));
    expect(times.size).toBe(1);
  });

  it("--skip-synth warns when the synthesized output is older than the app's sources, and still reports (issue 32)", async () => {
    // given an output synthesized before the app was last edited
    expect((await cli(["report", "--csv", join(out, "first.csv")])).code).toBe(0);
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(ws.dir, "cdktf.out", "manifest.json"), earlier, earlier);
    // when reported from that output
    const stale = await cli(["report", "--skip-synth", "--csv", join(out, "access.csv")]);
    // then it says so, naming the output and the file
    expect(stale.code).toBe(0);
    expect(stale.stderr).toMatch(/^Warning: --skip-synth reads cdktf\.out, synthesized at .*, before app\.js last changed .*Drop --skip-synth to synthesize again\.\n$/);
    // and synthesized again, no warning
    expect((await cli(["report", "--csv", join(out, "again.csv")])).code).toBe(0);
    const fresh = await cli(["report", "--skip-synth", "--csv", join(out, "access.csv")]);
    expect(fresh.stderr).toBe("");
  });

  it("without an app says the declarations were not read", async () => {
    const result = await cli(["report", "--csv", join(out, "access.csv")], { cwd: "/" });
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
