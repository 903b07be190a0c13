/**
 * Persistence (src/simulator/README.md, "Persistence"): the data file is seeded, loaded on
 * restart, rewritten atomically after every change before answering, and concurrent writes to
 * one rule lose nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadSeedFile, startSimulator, tenantSeedSchema } from "../../src/simulator";
import { SAMPLE, call, ruleIdOf, usersOf } from "./helpers";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "simulator-data-"));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const readData = (file: string): ReturnType<typeof tenantSeedSchema.parse> => tenantSeedSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));

describe("data file", () => {
  it("is seeded and written at start when it does not exist", async () => {
    // given no data file
    const file = path.join(dir, "state.json");

    // when the simulator starts
    const sim = await startSimulator({ dataFile: file });
    await sim.stop();

    // then the file holds the seeded tenant, valid against the seed schema
    const data = readData(file);
    expect(data.tenantId).toBe(sim.tenantId);
    expect(data.rules).toHaveLength(9);
    expect(data.alerts).toEqual(sim.alerts());
    expect(data.alerts).toHaveLength(8);
  });

  it("holds each change before the response is sent", async () => {
    // given a persisted simulator
    const file = path.join(dir, "state.json");
    const sim = await startSimulator({ dataFile: file });
    const ruleId = ruleIdOf(sim, SAMPLE.byName);
    try {
      // when a user is added
      const answer = await call(sim, "add-users", { tenantId: sim.tenantId, ruleId, userList: [{ userIdFromAuthority: "77", userAliasList: ["new@example.com"] }] });

      // then, as soon as the answer is in, the file has the user and the new modifiedAt
      expect(answer.status).toBe(200);
      const rule = readData(file).rules.find((r) => r.metadata.observerRuleId === ruleId)!;
      expect(rule.users.map((u) => u.userIdFromAuthority)).toContain("77");
      expect(rule.metadata.modifiedAt).toBe(sim.rule(ruleId)!.metadata.modifiedAt);
    } finally {
      await sim.stop();
    }
  });

  it("round-trips: a restart loads the state from the file, which wins over a given seed", async () => {
    // given a simulator whose state was changed through HTTP and directly
    const file = path.join(dir, "state.json");
    const first = await startSimulator({ dataFile: file });
    const ruleId = ruleIdOf(first, SAMPLE.noIds);
    await call(first, "remove-all-users", { tenantId: first.tenantId, ruleId });
    first.setUsers(ruleIdOf(first, SAMPLE.inclusion), [{ userIdFromAuthority: "1", userAliasList: ["only@example.com"] }]);
    const rulesBefore = first.rules();
    await first.stop();

    // when a new simulator starts on the same file, with another seed given
    const seed = { tenantId: "ignored", rules: [] };
    const second = await startSimulator({ dataFile: file, seed });
    try {
      // then it has the changed state, not the seed
      expect(second.tenantId).toBe(first.tenantId);
      expect(second.rules()).toEqual(rulesBefore);
      expect(await usersOf(second, ruleId)).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it("keeps alerts, cases and file events untouched", async () => {
    // given a seed with records for other route tables
    const file = path.join(dir, "state.json");
    const sample = loadSeedFile(path.join(__dirname, "../../examples/sample-tenant.json"));
    const extras = {
      alerts: [
        {
          id: "a-1", type: "FED_ENDPOINT_EXFILTRATION", name: "r", description: "d", actor: "x@example.com", target: "N/A", severity: "HIGH" as const,
          ruleId: "r-1", ruleSource: "Alerting", createdAt: "2026-01-01T00:00:00.0000000Z", state: "OPEN" as const, note: null,
          observations: [{ id: "o-1", observedAt: "2026-01-01T00:00:00.0000000Z", type: "FedEndpointExfiltration", data: { nested: { x: [1, 2] } } }],
        },
      ],
      cases: [
        {
          number: 1, name: "c", description: null, findings: null, subject: null, subjectUsername: null, assignee: null, assigneeUsername: null, status: "OPEN",
          createdAt: "2026-01-01T00:00:00.000000Z", updatedAt: "2026-01-01T00:00:00.000000Z", createdByUserUid: "1", lastModifiedByUserUid: "1",
          createdByUsername: "u@example.com", lastModifiedByUsername: "u@example.com", fileEvents: ["e-1"],
        },
      ],
      fileEvents: [
        {
          eventId: "e-1", eventType: "CREATED", eventTimestamp: "2026-01-01T00:00:00.0000000Z", fileName: "f.txt", filePath: "/tmp/", fileSize: 1,
          fileCategory: null, sha256Checksum: null, deviceUserName: null, osHostName: null,
        },
      ],
    };
    const sim = await startSimulator({ dataFile: file, seed: { ...sample, ...extras } });

    // when a rule changes
    await call(sim, "remove-all-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName) });
    await sim.stop();

    // then the records are written as they were
    const data = readData(file);
    expect({ alerts: data.alerts, cases: data.cases, fileEvents: data.fileEvents }).toEqual(extras);
  });

  it("leaves no temporary files behind", async () => {
    const file = path.join(dir, "state.json");
    const sim = await startSimulator({ dataFile: file });
    for (let i = 0; i < 5; i++) {
      await call(sim, "add-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName), userList: [{ userIdFromAuthority: `u${i}`, userAliasList: [`u${i}@example.com`] }] });
    }
    await sim.stop();
    expect(fs.readdirSync(dir)).toEqual(["state.json"]);
  });

  it("refuses to start on a data file that is not a valid tenant, naming the field", async () => {
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, JSON.stringify({ tenantId: "t", rules: [{ metadata: { id: "x" }, usersToAlertOn: "SPECIFIED_USERS" }] }));
    await expect(startSimulator({ dataFile: file })).rejects.toThrow("rules[0].metadata.observerRuleId");
  });
});

describe("concurrent writers", () => {
  it("50 parallel add-users of distinct users to one rule: all present, in memory and in the file", async () => {
    // given a persisted simulator
    const file = path.join(dir, "state.json");
    const sim = await startSimulator({ dataFile: file });
    const ruleId = ruleIdOf(sim, SAMPLE.additive);
    try {
      // when 50 users are added at once, one request each
      const ids = Array.from({ length: 50 }, (_, i) => `parallel-${i}`);
      const answers = await Promise.all(
        ids.map((id) => call(sim, "add-users", { tenantId: sim.tenantId, ruleId, userList: [{ userIdFromAuthority: id, userAliasList: [`${id}@example.com`] }] })),
      );

      // then every request succeeded and no user is lost, neither in memory nor on disk
      expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
      const inMemory = (await usersOf(sim, ruleId)).map((u) => u.userIdFromAuthority);
      const onDisk = readData(file).rules.find((r) => r.metadata.observerRuleId === ruleId)!.users.map((u) => u.userIdFromAuthority);
      for (const id of ids) {
        expect(inMemory).toContain(id);
        expect(onDisk).toContain(id);
      }
      expect(onDisk).toHaveLength(53);
    } finally {
      await sim.stop();
    }
  });
});
