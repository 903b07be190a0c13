/**
 * Contract: the alert, case and file-event operations of TriageClient, against the
 * simulator (and a recording server for what only the wire shows).
 */
import {
  TriageClient,
  ApiError,
  ResponseShapeError,
  alertCriteriaGroups,
  alertFilter,
  eventIdsOf,
  group,
  parseAlertFilter,
  type FilterGroup,
} from "../../src/api";
import { InvalidArgumentError } from "../../src/errors";
import { useSimulator, withSimulator } from "../support/simulator";
import { ALERT, activity, extraAlert, extraFileEvent, names, sampleSeed } from "../support/triage";
import { clientFor, json, rejectionOf, startRecorder } from "./helpers";

const sim = useSimulator();
beforeEach(() => {
  sim.setFaults({});
  sim.resetCounts();
});

function triage(target: { url: string; token: string; tenantId: string } = sim, overrides = {}) {
  const { client, events } = clientFor(target, overrides);
  return { triage: TriageClient.from(client), client, events };
}

async function ids(groups: FilterGroup[], options = {}): Promise<string[]> {
  const response = await triage().triage.queryAlerts(groups, { pageSize: 100, ...options });
  expect(response.totalCount).toBe(response.alerts.length);
  return names(response.alerts.map((a) => a.id));
}

const oneFilter = (term: string, operator: string, value: string): FilterGroup[] => [group([alertFilter(term, operator, value)])];

describe("queryAlerts: every term and operator of the interface", () => {
  const ENG = "Endpoint exfiltration - Engineering";
  const FINANCE_DESCRIPTION = "Alerts when finance staff store spreadsheets or statements under a misleading file extension.";
  const all = Object.keys(ALERT).sort();
  const except = (...excluded: string[]) => all.filter((n) => !excluded.includes(n));

  it.each<[string, string, string, string[]]>([
    ["DateObserved", "On", "2026-01-12", ["aliceEng"]],
    ["DateObserved", "On or after", "2026-02-14", ["frankFinance", "mariaLab", "oscarCloud"]],
    ["DateObserved", "On or before", "2026-01-12", ["aliceCloudDismissed", "aliceEng"]],
    ["Actor", "Is", "alice.nguyen@example.com", ["aliceCloudDismissed", "aliceEng"]],
    ["Actor", "Is not", "alice.nguyen@example.com", except("aliceCloudDismissed", "aliceEng")],
    ["Actor", "Contains", "kevin", ["kevinDeparting"]],
    ["Actor", "Does not contain", "example.com", []],
    ["Severity", "Is", "Low", ["aliceCloudDismissed"]],
    ["Severity", "Is not", "High", ["aliceCloudDismissed", "henrySales", "mariaLab", "oscarCloud"]],
    ["RuleName", "Is", ENG, ["aliceEng", "carmenEngDismissed"]],
    ["RuleName", "Is not", ENG, except("aliceEng", "carmenEngDismissed")],
    ["RuleName", "Contains", "cloud", ["aliceCloudDismissed", "oscarCloud"]],
    ["RuleName", "Does not contain", "exfiltration", ["aliceCloudDismissed", "frankFinance", "mariaLab", "oscarCloud"]],
    ["Description", "Is", FINANCE_DESCRIPTION, ["frankFinance"]],
    ["Description", "Is not", FINANCE_DESCRIPTION, except("frankFinance")],
    ["Description", "Contains", "removable media", ["aliceEng", "carmenEngDismissed"]],
    ["Description", "Does not contain", "alerts", ["aliceCloudDismissed", "kevinDeparting"]],
    ["AlertState", "Is", "Dismissed", ["aliceCloudDismissed", "carmenEngDismissed"]],
    ["AlertState", "Is", "Open", except("aliceCloudDismissed", "carmenEngDismissed")],
    ["AlertState", "Is not", "Dismissed", except("aliceCloudDismissed", "carmenEngDismissed")],
    ["AlertID", "Is", ALERT.henrySales, ["henrySales"]],
  ])("%s %s %s", async (term, operator, value, expected) => {
    expect(await ids(oneFilter(term, operator, value))).toEqual(expected);
  });

  it("takes the operators as wire tokens too, and parses them from text, longest first", async () => {
    expect(await ids(oneFilter("Actor", "IS_NOT", "alice.nguyen@example.com"))).toEqual(await ids(oneFilter("Actor", "Is not", "alice.nguyen@example.com")));
    expect(parseAlertFilter("DateObserved On or after 2026-01-01")).toEqual({ term: "DateObserved", operator: "ON_OR_AFTER", value: "2026-01-01" });
    expect(parseAlertFilter("RuleName Does not contain cloud  share")).toEqual({ term: "RuleName", operator: "DOES_NOT_CONTAIN", value: "cloud  share" });
    expect(parseAlertFilter("actor is not bob")).toEqual({ term: "Actor", operator: "IS_NOT", value: "bob" });
  });

  it("sends Severity and AlertState filter values in title case; responses carry upper case", async () => {
    // given values in any case
    const response = await triage().triage.queryAlerts(alertCriteriaGroups({ severity: "high", state: "OPEN" }));
    // then the simulator (which refuses other spellings) accepted them
    expect(names(response.alerts.map((a) => a.id))).toEqual(["aliceEng", "frankFinance", "kevinDeparting"]);
    expect(response.alerts.every((a) => a.severity === "HIGH" && a.state === "OPEN")).toBe(true);
  });

  it("combines filters with AND inside a group and groups with OR or AND", async () => {
    const groups = [
      group([alertFilter("Severity", "Is", "High"), alertFilter("AlertState", "Is", "Open")]),
      group([alertFilter("Actor", "Is", "henry.adams@example.com")]),
    ];
    expect(await ids(groups)).toEqual(["aliceEng", "frankFinance", "henrySales", "kevinDeparting"]);
    expect(await ids(groups, { groupClause: "AND" })).toEqual([]);
    expect(await ids([group([alertFilter("Actor", "Contains", "alice"), alertFilter("Actor", "Contains", "kevin")], "OR")])).toEqual([
      "aliceCloudDismissed",
      "aliceEng",
      "kevinDeparting",
    ]);
  });

  it("combines the criteria of alerts search into one AND group", async () => {
    const groups = alertCriteriaGroups({ actor: "alice.nguyen@example.com", since: "2026-01-10", until: "2026-01-31", filters: [parseAlertFilter("RuleName Contains engineering")] });
    expect(groups).toHaveLength(1);
    expect(groups[0]!.filters.map((f) => `${f.term} ${f.operator}`)).toEqual(["Actor IS", "DateObserved ON_OR_AFTER", "DateObserved ON_OR_BEFORE", "RuleName CONTAINS"]);
    expect(await ids(groups)).toEqual(["aliceEng"]);
    expect(alertCriteriaGroups({})).toEqual([]);
  });

  it("pages (20 by default, 0-based) newest first, and sorts as asked", async () => {
    const { triage: client } = triage();
    const first = await client.queryAlerts([]);
    expect(first.totalCount).toBe(8);
    const createdAt = first.alerts.map((a) => a.createdAt);
    expect(createdAt).toEqual([...createdAt].sort().reverse());

    const pages = await Promise.all([0, 1, 2].map((pageNumber) => client.queryAlerts([], { pageSize: 3, pageNumber })));
    expect(pages.map((p) => p.alerts.length)).toEqual([3, 3, 2]);
    expect(pages.flatMap((p) => p.alerts.map((a) => a.id))).toEqual(first.alerts.map((a) => a.id));
    expect(pages.every((p) => p.totalCount === 8)).toBe(true);

    const ascending = await client.queryAlerts([], { sortDirection: "ASC" });
    expect(ascending.alerts.map((a) => a.id)).toEqual([...first.alerts.map((a) => a.id)].reverse());
    const byActor = await client.queryAlerts([], { sortKey: "Actor", sortDirection: "ASC" });
    expect(byActor.alerts[0]!.actor).toBe("alice.nguyen@example.com");
  });

  it("queryAllAlerts reads every page", async () => {
    const { triage: client, client: base } = triage();
    const result = await client.queryAllAlerts([], { pageSize: 3 });
    expect(result.totalCount).toBe(8);
    expect(new Set(result.alerts.map((a) => a.id)).size).toBe(8);
    expect(base.counter.snapshot().byOperation["query-alerts"]!.calls).toBe(3);
  });

  it.each<[string, () => unknown]>([
    ["an unknown term", () => alertFilter("Name", "Is", "x")],
    ["an operator the term does not take", () => alertFilter("AlertID", "Is not", "x")],
    ["a severity other than High/Medium/Low", () => alertFilter("Severity", "Is", "Critical")],
    ["a state other than Open/Dismissed", () => alertFilter("AlertState", "Is", "RESOLVED_")],
    ["a malformed date", () => alertFilter("DateObserved", "On", "2026-02-30")],
    ["a filter without value", () => parseAlertFilter("Actor Is")],
  ])("refuses %s with InvalidArgumentError", (_what, build) => {
    expect(build).toThrow(InvalidArgumentError);
  });

  it("checks hand-built groups before sending anything", async () => {
    const { triage: client } = triage();
    const error = await rejectionOf(client.queryAlerts([{ filters: [{ term: "Bogus", operator: "IS", value: "x" }], filterClause: "AND" }]));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("alert details", () => {
  it("queryDetails parses each observation's data: endpoint activity, or raw JSON for other layouts", async () => {
    const alerts = await triage().triage.queryDetails([ALERT.aliceEng, ALERT.oscarCloud]);
    expect(alerts.map((a) => a.id)).toEqual([ALERT.aliceEng, ALERT.oscarCloud]);
    const [alice, oscar] = alerts;
    expect(alice!.type$).toBe("ALERT_DETAILS");
    expect(alice!.observations).toHaveLength(2);
    const data = alice!.observations[0]!.data;
    expect(data.kind).toBe("endpoint-activity");
    if (data.kind === "endpoint-activity") {
      expect(data.activity.files.map((f) => f.name)).toEqual(["engine-design.sketch", "telemetry-core.zip"]);
      expect(data.activity.fileCategories[0]!.type$).toBe("OBSERVED_FILE_CATEGORY");
    }
    expect(eventIdsOf(alice!)).toHaveLength(3);
    expect(oscar!.observations[0]!.data).toEqual({ kind: "unknown", raw: expect.objectContaining({ type$: "OBSERVED_CLOUD_SHARE_ACTIVITY" }) });
    expect(eventIdsOf(oscar!)).toEqual([]);
  });

  it("queryDetails of an unknown alert is an ApiError naming it", async () => {
    const error = await rejectionOf(triage().triage.queryDetails([ALERT.aliceEng, "no-such-alert"]));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toContain("no-such-alert");
  });

  it("queryDetailsAggregate merges the observations into one", async () => {
    const alert = await triage().triage.queryDetailsAggregate(ALERT.aliceEng);
    expect(alert.type$).toBe("ALERT_DETAILS_AGGREGATE");
    expect(alert.observation.type$).toBe("OBSERVATION_AGGREGATE");
    expect(alert.observation).not.toHaveProperty("id");
    const data = alert.observation.data;
    if (data.kind !== "endpoint-activity") throw new Error("expected endpoint activity");
    expect(data.activity.fileCount).toBe(3);
    expect(data.activity.exposureTypes).toEqual(["RemovableMedia", "CloudStorage"]);
    expect(data.activity.firstActivityAt).toBe("2026-01-12T09:14:02.0000000Z");
    expect(data.activity.lastActivityAt).toBe("2026-01-12T10:02:11.0000000Z");
    expect(typeof data.activity.isRemoteActivity).toBe("boolean");
    expect(eventIdsOf(alert)).toEqual(eventIdsOf((await triage().triage.queryDetails([ALERT.aliceEng]))[0]!));
  });

  it("refuses an empty list of IDs before any request", async () => {
    expect(await rejectionOf(triage().triage.queryDetails([]))).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });

  describe("malformed observation data", () => {
    const bad = useSimulator(() => {
      const seed = sampleSeed();
      const broken = activity([{ eventId: "e-1", name: "a.txt" }]);
      delete broken["files"];
      return {
        seed: {
          ...seed,
          alerts: [
            ...(seed.alerts ?? []),
            extraAlert("not-json", [{ id: "obs-not-json", data: "{not json" }]),
            extraAlert("wrong-fields", [{ id: "obs-wrong-fields", data: { ...broken, fileCount: "three" } }]),
            extraAlert("other-layout", [{ id: "obs-other", data: "[1, 2, 3]", type: "SomethingElse" }]),
          ],
        },
      };
    });

    it("data that is not JSON is a ResponseShapeError naming the observation", async () => {
      const error = await rejectionOf(triage(bad).triage.queryDetails(["not-json"]));
      expect(error).toBeInstanceOf(ResponseShapeError);
      expect((error as ResponseShapeError).problems.join("\n")).toMatch(/alerts\[0\]\.observations\[0\]\.data: observation obs-not-json: data is not a JSON document/);
    });

    it("an endpoint-activity layout with wrong fields is a ResponseShapeError naming each field", async () => {
      const error = (await rejectionOf(triage(bad).triage.queryDetails(["wrong-fields"]))) as ResponseShapeError;
      expect(error).toBeInstanceOf(ResponseShapeError);
      const text = error.problems.join("\n");
      expect(text).toContain("observation obs-wrong-fields: endpoint activity field data.files: missing");
      expect(text).toContain("observation obs-wrong-fields: endpoint activity field data.fileCount");
      // the aggregate passes the first observation's data on, and is refused the same way
      const aggregate = await rejectionOf(triage(bad).triage.queryDetailsAggregate("wrong-fields"));
      expect(aggregate).toBeInstanceOf(ResponseShapeError);
      expect((aggregate as ResponseShapeError).message).toContain("aggregate observation: endpoint activity field data.fileCount");
    });

    it("another layout is kept as raw JSON", async () => {
      const [alert] = await triage(bad).triage.queryDetails(["other-layout"]);
      expect(alert!.observations[0]!.data).toEqual({ kind: "unknown", raw: [1, 2, 3] });
    });

    it("a misbehaving answer (wrong type$) is a ResponseShapeError, not retried", async () => {
      bad.setFaults({ misbehave: [{ operation: "query-details", kind: "wrong-type", times: 1 }] });
      const error = await rejectionOf(triage(bad).triage.queryDetails([ALERT.aliceEng]));
      expect(error).toBeInstanceOf(ResponseShapeError);
      expect((error as ResponseShapeError).message).toContain("type$");
      bad.setFaults({});
    });
  });
});

describe("notes and states", () => {
  it("addNote replaces the previous note and leaves the state", async () => {
    const { triage: client } = triage();
    await client.addNote(ALERT.mariaLab, "first");
    await client.addNote(ALERT.mariaLab, "second");
    expect(sim.alert(ALERT.mariaLab)).toMatchObject({ note: "second", state: "OPEN" });
  });

  it("updateState dismisses and reopens several alerts in one request, with the note", async () => {
    const { triage: client } = triage();
    await client.updateState([ALERT.henrySales, ALERT.mariaLab], "RESOLVED", "handled");
    expect(sim.requestCounts()["update-state"]).toBe(1);
    expect([sim.alert(ALERT.henrySales), sim.alert(ALERT.mariaLab)]).toEqual([
      expect.objectContaining({ state: "RESOLVED", note: "handled" }),
      expect.objectContaining({ state: "RESOLVED", note: "handled" }),
    ]);
    await client.updateState([ALERT.henrySales, ALERT.mariaLab], "OPEN");
    expect(sim.alert(ALERT.henrySales)).toMatchObject({ state: "OPEN", note: "handled" });
    expect(sim.alert(ALERT.mariaLab)?.state).toBe("OPEN");
  });

  it("an unknown alert ID fails the whole update and changes nothing", async () => {
    const error = await rejectionOf(triage().triage.updateState([ALERT.frankFinance, "ghost-alert"], "RESOLVED"));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toContain("ghost-alert");
    expect(sim.alert(ALERT.frankFinance)?.state).toBe("OPEN");
  });

  it("addNote on an unknown alert is a 404 ApiError", async () => {
    const error = await rejectionOf(triage().triage.addNote("ghost-alert", "x"));
    expect((error as ApiError).status).toBe(404);
  });
});

describe("cases", () => {
  it("createCase sends absent fields as null and returns the OPEN case, six fractional digits", async () => {
    const { triage: client } = triage();
    const before = sim.cases().length;
    const created = await client.createCase({ name: "Exfiltration by kevin", assignee: "908712345678901234" });
    expect(created).toMatchObject({ number: before + 1, name: "Exfiltration by kevin", status: "OPEN", description: null, findings: null, subject: null, assignee: "908712345678901234", assigneeUsername: "alice.nguyen@example.com" });
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const next = await client.createCase({ name: "second", description: "d", findings: "f", subject: "908712345678901235" });
    expect(next.number).toBe(created.number + 1);
    expect(next).toMatchObject({ description: "d", findings: "f", subjectUsername: "bob.okafor@example.com" });
  });

  it("a create-case whose response is lost is not repeated: one case, one request, an ApiError", async () => {
    // given every create-case is applied and then answered 502
    sim.setFaults({ lostResponseRate: 1, operations: ["create-case"] });
    const { triage: client, client: base } = triage(sim, { retry: { maxAttempts: 5 } });
    const before = sim.cases().length;
    // when
    const error = await rejectionOf(client.createCase({ name: "lost" }));
    // then
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect(sim.cases()).toHaveLength(before + 1);
    expect(sim.cases().at(-1)!.name).toBe("lost");
    expect(sim.requestCounts()["create-case"]).toBe(1);
    expect(base.counter.snapshot().byOperation["create-case"]).toMatchObject({ calls: 1, attempts: 1 });
  });

  it("a create-case refused with 503 before applying is not repeated either (the client cannot tell)", async () => {
    sim.setFaults({ failRate: 1, operations: ["create-case"] });
    const before = sim.cases().length;
    const error = await rejectionOf(triage().triage.createCase({ name: "refused" }));
    expect((error as ApiError).status).toBe(503);
    expect(sim.cases()).toHaveLength(before);
    expect(sim.requestCounts()["create-case"]).toBe(1);
  });

  it("refuses a case without a name before any request", async () => {
    expect(await rejectionOf(triage().triage.createCase({ name: "  " }))).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });

  it("addFileEventToCase attaches, is harmless twice, and 404s unknown cases and events", async () => {
    const { triage: client } = triage();
    const created = await client.createCase({ name: "attach" });
    const [eventId] = eventIdsOf((await client.queryDetails([ALERT.kevinDeparting]))[0]!);
    await client.addFileEventToCase(created.number, eventId!);
    await client.addFileEventToCase(String(created.number), eventId!);
    expect(sim.cases().find((c) => c.number === created.number)!.fileEvents).toEqual([eventId]);
    expect(((await rejectionOf(client.addFileEventToCase(9999, eventId!))) as ApiError).status).toBe(404);
    const unknownEvent = (await rejectionOf(client.addFileEventToCase(created.number, "no-such-event"))) as ApiError;
    expect(unknownEvent.status).toBe(404);
    expect(unknownEvent.message).toContain("no-such-event");
  });

  it.each<[string, number | string]>([
    ["zero", 0],
    ["a negative number", -3],
    ["a fraction", 1.5],
    ["NaN", Number.NaN],
    ["letters", "12a"],
    ["an empty string", ""],
  ])("refuses the case number %s before any request", async (_what, caseNumber) => {
    const error = await rejectionOf(triage().triage.addFileEventToCase(caseNumber, "evt-1"));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });

  it.each<[string, string]>([
    ["empty", ""],
    ["with a space", "evt 1"],
    ["with a newline", "evt\n1"],
    ["with a slash", "../../v1/alerts"],
    ["too long", "e".repeat(257)],
  ])("refuses an event ID %s before any request", async (_what, eventId) => {
    const error = await rejectionOf(triage().triage.addFileEventToCase(1, eventId));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("path encoding", () => {
  it("encodes the event ID as one path segment, and the simulator finds the event", async () => {
    // given a recording server
    const recorder = await startRecorder(() => json({}));
    try {
      const { triage: client } = triage({ url: recorder.url, token: "t0ken-abc", tenantId: "t" });
      await client.addFileEventToCase(7, "evt:1?x#y%z&w");
      expect(recorder.requests.map((r) => [r.method, r.path])).toEqual([["POST", "/v1/cases/7/fileevent/evt%3A1%3Fx%23y%25z%26w"]]);
      expect(recorder.requests[0]!.headers.accept).toBe("application/json");
    } finally {
      await recorder.stop();
    }
    // and against a simulator that has such an event
    const seed = sampleSeed();
    await withSimulator({ seed: { ...seed, fileEvents: [...(seed.fileEvents ?? []), extraFileEvent("evt:1?x#y%z&w", "odd.txt")] } }, async (special) => {
      const { triage: client } = triage(special);
      const created = await client.createCase({ name: "odd" });
      await client.addFileEventToCase(created.number, "evt:1?x#y%z&w");
      expect(special.cases()[0]!.fileEvents).toEqual(["evt:1?x#y%z&w"]);
    });
  });
});

describe("file events", () => {
  it("searchFileEvents sends the interface's body: IS filters, pgNum 1, pgSize 100 as integers", async () => {
    const recorder = await startRecorder(() => json({ fileEvents: [], totalCount: 0 }));
    try {
      const { triage: client } = triage({ url: recorder.url, token: "t0ken-abc", tenantId: "t" });
      await client.searchFileEvents({ fileName: "*.xlsx", filePath: "C:/Users/*" });
      expect(JSON.parse(recorder.requests[0]!.body)).toEqual({
        groups: [
          { filters: [{ operator: "IS", term: "fileName", value: "*.xlsx" }], filterClause: "AND" },
          { filters: [{ operator: "IS", term: "filePath", value: "C:/Users/*" }], filterClause: "AND" },
        ],
        groupClause: "AND",
        pgNum: 1,
        pgSize: 100,
      });
      expect(recorder.requests[0]!.path).toBe("/v1/file-events");
    } finally {
      await recorder.stop();
    }
  });

  it("finds file events by name pattern and path prefix", async () => {
    const { triage: client } = triage();
    const xlsx = await client.searchFileEvents({ fileName: "*.xlsx" });
    expect(xlsx.fileEvents.map((e) => e.fileName).sort()).toEqual(["customers-emea-q4.xlsx", "payroll-model.xlsx", "q1-forecast.xlsx"]);
    expect(xlsx.totalCount).toBe(3);
    const alice = await client.searchFileEvents({ filePath: "C:/Users/alice.nguyen/*" });
    expect(alice.totalCount).toBe(3);
    const both = await client.searchFileEvents({ fileName: "*.pdf", filePath: "C:/Users/alice.nguyen/*" });
    expect(both.fileEvents.map((e) => e.fileName)).toEqual(["roadmap-2026.pdf"]);
    const exact = await client.searchFileEvents({ filePath: "C:/Users/alice.nguyen" });
    expect(exact.totalCount).toBe(0);
    const everything = await client.searchFileEvents({ pgSize: 5, pgNum: 3 });
    expect(everything.totalCount).toBe(sim.fileEvents().length);
    expect(everything.fileEvents).toHaveLength(sim.fileEvents().length - 10);
  });

  it("every file event an alert names exists as a file event", async () => {
    const alerts = await triage().triage.queryDetails(Object.values(ALERT));
    const named = alerts.flatMap(eventIdsOf);
    expect(named.length).toBeGreaterThanOrEqual(12);
    const known = new Set(sim.fileEvents().map((e) => e.eventId));
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });

  it("refuses page 0 before any request", async () => {
    expect(await rejectionOf(triage().triage.searchFileEvents({ pgNum: 0 }))).toBeInstanceOf(InvalidArgumentError);
    expect(sim.requestCounts()).toEqual({});
  });
});

describe("the wire", () => {
  it("uses text/plain for the alert reads and application/json for writes; never retries create-case", async () => {
    const recorder = await startRecorder((request) => (request.path === "/v1/cases" ? { status: 503, body: "busy" } : json({ type$: "ALERT_QUERY_RESPONSE", alerts: [], totalCount: 0, problems: [] })));
    try {
      const { triage: client } = triage({ url: recorder.url, token: "t0ken-abc", tenantId: "tenant-1" });
      await client.queryAlerts([]);
      await client.addNote("a-1", "n");
      await client.updateState(["a-1"], "RESOLVED");
      const error = await rejectionOf(client.createCase({ name: "c" }));
      expect((error as ApiError).status).toBe(503);
      expect(recorder.requests.map((r) => [r.path, r.headers.accept])).toEqual([
        ["/v1/alerts/query-alerts", "text/plain"],
        ["/v1/alerts/add-note", "application/json"],
        ["/v1/alerts/update-state", "application/json"],
        ["/v1/cases", "application/json"],
      ]);
      expect(JSON.parse(recorder.requests[1]!.body)).toEqual({ tenantId: "tenant-1", alertId: "a-1", note: "n" });
      expect(JSON.parse(recorder.requests[2]!.body)).toEqual({ tenantId: "tenant-1", alertIds: ["a-1"], state: "RESOLVED" });
      expect(JSON.parse(recorder.requests[3]!.body)).toEqual({ name: "c", description: null, findings: null, subject: null, assignee: null });
      expect(JSON.parse(recorder.requests[0]!.body)).toMatchObject({ tenantId: "tenant-1", groups: [], pgSize: "20", pgNum: "0", srtKey: "CreatedAt", srtDirection: "DESC" });
    } finally {
      await recorder.stop();
    }
  });

  it("reports a non-empty problems array of query-alerts as an ApiError", async () => {
    const recorder = await startRecorder(() => json({ type$: "ALERT_QUERY_RESPONSE", alerts: [], totalCount: 0, problems: ["bad filter"] }));
    try {
      const error = await rejectionOf(triage({ url: recorder.url, token: "t0ken-abc", tenantId: "t" }).triage.queryAlerts([]));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toContain("bad filter");
    } finally {
      await recorder.stop();
    }
  });
});
