/**
 * The triage commands (docs/contract.md §8) through the built CLI (`npm run build` first), against the
 * simulator on a random port: JSON output parsed and the simulator's state checked.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call -- parsed CLI output, asserted field by field */
import { tmpdir } from "node:os";
import type { RunningSimulator } from "../../src/simulator";
import { connectionEnv, runCli, type CliResult } from "../support/cli";
import { useSimulator, withSimulator } from "../support/simulator";
import { ALERT, activity, extraAlert, names, sampleSeed } from "../support/triage";

const sim = useSimulator();
beforeEach(() => {
  sim.setFaults({});
  sim.resetCounts();
});

function cli(args: string[], target: RunningSimulator = sim): Promise<CliResult> {
  return runCli(args, { cwd: tmpdir(), env: connectionEnv(target) });
}

/** Runs a command that must succeed and print exactly one JSON document. */
async function jsonOf(args: string[], target: RunningSimulator = sim): Promise<any> {
  const result = await cli([...args, "--format", "json"], target);
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe("alerts search", () => {
  it("filters by flags (AND) and prints { alerts, totalCount }", async () => {
    const out = await jsonOf(["alerts", "search", "--severity", "High", "--state", "Open"]);
    expect(Object.keys(out)).toEqual(["alerts", "totalCount"]);
    expect(names(out.alerts.map((a: { id: string }) => a.id))).toEqual(["aliceEng", "frankFinance", "kevinDeparting"]);
    expect(out.totalCount).toBe(3);
    expect(out.alerts[0].type$).toBe("ALERT_SUMMARY");
  });

  it("takes --filter as the interface names terms and operators, repeatable, with --since/--until", async () => {
    const out = await jsonOf(["alerts", "search", "--filter", "Actor Contains alice", "--filter", "DateObserved On or after 2026-01-10", "--until", "2026-12-31", "--all-pages"]);
    expect(names(out.alerts.map((a: { id: string }) => a.id))).toEqual(["aliceEng"]);
    const byRule = await jsonOf(["alerts", "search", "--rule-name", "Endpoint exfiltration - Engineering", "--actor", "carmen.diaz@example.com"]);
    expect(names(byRule.alerts.map((a: { id: string }) => a.id))).toEqual(["carmenEngDismissed"]);
  });

  it("defaults to JSON when stdout is not a terminal, and pages with --all-pages", async () => {
    const result = await cli(["alerts", "search"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.totalCount).toBe(8);
    expect(out.alerts).toHaveLength(8);
  });

  it.each<[string, string[], RegExp]>([
    ["an unknown filter term", ["--filter", "Bogus Is x"], /Unknown filter term 'Bogus'/],
    ["an operator the term does not take", ["--filter", "AlertID Contains x"], /does not accept the operator/],
    ["a bad severity", ["--severity", "Critical"], /--severity must be one of High, Medium, Low/],
    ["a bad date", ["--since", "2026-13-01"], /--since takes a date yyyy-MM-dd/],
    ["an unknown flag", ["--colour"], /Unknown option '--colour'/],
    ["a bad format", ["--format", "yaml"], /--format must be one of table, json/],
  ])("refuses %s: exit 1, nothing on stdout, no request", async (_what, args, message) => {
    const result = await cli(["alerts", "search", ...args]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("alerts show", () => {
  it("prints { alerts } with each observation's data parsed into an object", async () => {
    const out = await jsonOf(["alerts", "show", ALERT.aliceEng, ALERT.oscarCloud]);
    expect(out.alerts.map((a: { id: string }) => a.id)).toEqual([ALERT.aliceEng, ALERT.oscarCloud]);
    const [alice, oscar] = out.alerts;
    expect(alice.observations[0].data).toMatchObject({ type$: "OBSERVED_ENDPOINT_ACTIVITY", files: [expect.objectContaining({ name: "engine-design.sketch" }), expect.anything()] });
    expect(oscar.observations[0].data).toMatchObject({ type$: "OBSERVED_CLOUD_SHARE_ACTIVITY" });
  });

  it("with --aggregate prints { alert } with one merged observation", async () => {
    const out = await jsonOf(["alerts", "show", ALERT.kevinDeparting, "--aggregate"]);
    expect(Object.keys(out)).toEqual(["alert"]);
    expect(out.alert.observation.data.files).toHaveLength(3);
  });

  it("exits 1 for an unknown alert, and for --aggregate with several IDs", async () => {
    const unknown = await cli(["alerts", "show", "ghost-alert"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("ghost-alert");
    expect((await cli(["alerts", "show", ALERT.aliceEng, ALERT.mariaLab, "--aggregate"])).code).toBe(1);
  });
});

describe("alerts note, dismiss, reopen", () => {
  it("note sets the note and prints nothing on stdout", async () => {
    const result = await cli(["alerts", "note", ALERT.mariaLab, "--note", "looked at it", "--format", "json"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(sim.alert(ALERT.mariaLab)?.note).toBe("looked at it");
    const missing = await cli(["alerts", "note", ALERT.mariaLab]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--note TEXT is required");
  });

  it("dismiss and reopen change several alerts in one request", async () => {
    const dismissed = await cli(["alerts", "dismiss", ALERT.henrySales, ALERT.mariaLab, "--note", "benign", "--format", "json"]);
    expect(dismissed).toMatchObject({ code: 0, stdout: "" });
    expect(sim.requestCounts()["update-state"]).toBe(1);
    expect([sim.alert(ALERT.henrySales), sim.alert(ALERT.mariaLab)].map((a) => [a?.state, a?.note])).toEqual([
      ["RESOLVED", "benign"],
      ["RESOLVED", "benign"],
    ]);
    expect((await cli(["alerts", "reopen", ALERT.henrySales, ALERT.mariaLab])).code).toBe(0);
    expect([sim.alert(ALERT.henrySales)?.state, sim.alert(ALERT.mariaLab)?.state]).toEqual(["OPEN", "OPEN"]);
  });

  it("dismiss with an unknown ID exits 1 and changes nothing", async () => {
    const result = await cli(["alerts", "dismiss", ALERT.frankFinance, "ghost-alert"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("ghost-alert");
    expect(sim.alert(ALERT.frankFinance)?.state).toBe("OPEN");
  });
});

describe("a note set with alerts note is shown where the service returns it (issue 25)", () => {
  it("alerts show and alerts search print the note, in JSON and in tables; an alert without one has note null", async () => {
    // given a note on one alert
    expect((await cli(["alerts", "note", ALERT.aliceEng, "--note", "Checked with Alice's manager"])).code).toBe(0);

    // when
    const shown = await jsonOf(["alerts", "show", ALERT.aliceEng, ALERT.frankFinance]);
    const aggregate = await jsonOf(["alerts", "show", ALERT.aliceEng, "--aggregate"]);
    const found = await jsonOf(["alerts", "search", "--filter", `AlertID Is ${ALERT.aliceEng}`]);
    const table = await cli(["alerts", "show", ALERT.aliceEng, "--format", "table"]);
    const rows = await cli(["alerts", "search", "--filter", `AlertID Is ${ALERT.aliceEng}`, "--format", "table"]);

    // then
    expect(shown.alerts.map((a: { note: unknown }) => a.note)).toEqual(["Checked with Alice's manager", null]);
    expect(aggregate.alert.note).toBe("Checked with Alice's manager");
    expect(found.alerts[0].note).toBe("Checked with Alice's manager");
    expect(table.stdout).toMatch(/^Note: +Checked with Alice's manager$/m);
    expect(rows.stdout.split("\n")[0]).toMatch(/ NOTE$/);
    expect(rows.stdout).toContain("Checked with Alice's manager");
  });
});

describe("alerts escalate", () => {
  it("creates a case and attaches every file event the alert names", async () => {
    const out = await jsonOf(["alerts", "escalate", ALERT.kevinDeparting, "--case-name", "Kevin: exfiltration before leaving", "--assignee", "908712345678901234"]);
    expect(Object.keys(out)).toEqual(["case", "fileEvents"]);
    expect(out.case).toMatchObject({ name: "Kevin: exfiltration before leaving", status: "OPEN", assignee: "908712345678901234", description: null });
    expect(out.fileEvents).toHaveLength(3);
    expect(out.fileEvents.every((e: { status: string }) => e.status === "added")).toBe(true);
    const stored = sim.cases().find((c) => c.number === out.case.number);
    expect(stored?.fileEvents).toEqual(out.fileEvents.map((e: { eventId: string }) => e.eventId));
    expect(sim.requestCounts()["create-case"]).toBe(1);
    expect(sim.requestCounts()["add-case-file-event"]).toBe(3);
  });

  it("reports a file event that cannot be attached and exits 1", async () => {
    // given an alert naming a file event the tenant does not have
    const seed = sampleSeed();
    const gapSeed = { ...seed, alerts: [extraAlert("gap", [{ id: "o", data: activity([{ eventId: seed.fileEvents![0]!.eventId, name: "a" }, { eventId: "missing-event", name: "b" }]) }])] };
    await withSimulator({ seed: gapSeed }, async (gap) => {
      const result = await cli(["alerts", "escalate", "gap", "--case-name", "gap", "--format", "json"], gap);
      expect(result.code).toBe(1);
      const out = JSON.parse(result.stdout);
      expect(out.fileEvents).toEqual([
        { eventId: seed.fileEvents![0]!.eventId, status: "added" },
        { eventId: "missing-event", status: "failed", error: expect.stringContaining("404") },
      ]);
      expect(gap.cases()[0]!.fileEvents).toEqual([seed.fileEvents![0]!.eventId]);
    });
  });

  it("does not repeat a create-case whose response was lost: one case, exit 1, a warning", async () => {
    sim.setFaults({ lostResponseRate: 1, operations: ["create-case"] });
    const before = sim.cases().length;
    const result = await cli(["alerts", "escalate", ALERT.henrySales, "--case-name", "lost", "--format", "json"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("may have been created");
    expect(sim.cases()).toHaveLength(before + 1);
    expect(sim.requestCounts()["create-case"]).toBe(1);
    expect(sim.requestCounts()["add-case-file-event"]).toBeUndefined();
  });

  it("requires --case-name", async () => {
    const result = await cli(["alerts", "escalate", ALERT.henrySales]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--case-name NAME is required");
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("cases", () => {
  it("create prints the case object; absent fields are null", async () => {
    const out = await jsonOf(["cases", "create", "--name", "Review", "--findings", "USB copy", "--subject", "908712345678901235"]);
    expect(out).toMatchObject({ name: "Review", findings: "USB copy", subject: "908712345678901235", subjectUsername: "bob.okafor@example.com", description: null, assignee: null, status: "OPEN" });
    expect(out.createdAt).toMatch(/\.\d{6}Z$/);
    expect(sim.cases().some((c) => c.number === out.number)).toBe(true);
  });

  it("add-file-events attaches each event and reports each; a failure exits 1", async () => {
    const created = await jsonOf(["cases", "create", "--name", "attach"]);
    const [first, second] = sim.fileEvents();
    const ok = await jsonOf(["cases", "add-file-events", String(created.number), first!.eventId, second!.eventId]);
    expect(ok).toEqual({ fileEvents: [{ eventId: first!.eventId, status: "added" }, { eventId: second!.eventId, status: "added" }] });
    expect(sim.cases().find((c) => c.number === created.number)?.fileEvents).toEqual([first!.eventId, second!.eventId]);

    const partial = await cli(["cases", "add-file-events", String(created.number), "no-such-event", first!.eventId, "--format", "json"]);
    expect(partial.code).toBe(1);
    expect(JSON.parse(partial.stdout).fileEvents.map((e: { status: string }) => e.status)).toEqual(["failed", "added"]);
  });

  it.each<[string, string[]]>([
    ["a case number that is not a positive whole number", ["0", "evt-1"]],
    ["letters as case number", ["abc", "evt-1"]],
    ["an event ID with a slash", ["1", "evt-1", "a/b"]],
    ["no event ID", ["1"]],
  ])("refuses %s before any request", async (_what, args) => {
    const result = await cli(["cases", "add-file-events", ...args, "--format", "json"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("file-events search", () => {
  it("prints { fileEvents, totalCount } for a name pattern and a path prefix", async () => {
    const xlsx = await jsonOf(["file-events", "search", "--file-name", "*.xlsx"]);
    expect(Object.keys(xlsx)).toEqual(["fileEvents", "totalCount"]);
    expect(xlsx.totalCount).toBe(3);
    const both = await jsonOf(["file-events", "search", "--file-path", "C:/Users/alice.nguyen/*", "--file-name", "*.zip"]);
    expect(both.fileEvents.map((e: { fileName: string }) => e.fileName)).toEqual(["telemetry-core.zip"]);
  });
});

describe("help and table output", () => {
  it.each([
    "alerts",
    "alerts search",
    "alerts show",
    "alerts note",
    "alerts dismiss",
    "alerts reopen",
    "alerts escalate",
    "cases",
    "cases create",
    "cases add-file-events",
    "file-events",
    "file-events search",
  ])("%s --help prints usage and exits 0", async (command) => {
    const result = await runCli([...command.split(" "), "--help"], { cwd: tmpdir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: alert-rule-users ${command}`);
  });

  it("lists the triage commands in the top-level usage", async () => {
    const result = await runCli(["--help"], { cwd: tmpdir() });
    expect(result.stdout).toMatch(/alerts\s+Search, show/);
    expect(result.stdout).toMatch(/cases\s+Create/);
    expect(result.stdout).toMatch(/file-events\s+Search file events/);
  });

  it("--format table prints an aligned table", async () => {
    const result = await cli(["alerts", "search", "--state", "Dismissed", "--format", "table"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    // a NOTE column joins when an alert has a note (earlier tests set some; issue 25)
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+SEVERITY\s+STATE\s+ACTOR\s+RULE(\s+NOTE)?$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]!.indexOf("RESOLVED")).toBe(lines[0]!.indexOf("STATE"));
  });

  it("never prints the token", async () => {
    const result = await cli(["alerts", "show", "ghost-alert"]);
    expect(result.stdout + result.stderr).not.toContain(sim.token);
  });
});
