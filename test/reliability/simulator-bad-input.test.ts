/**
 * The simulator under bad input, over real HTTP: malformed JSON, a wrong content type, bodies over
 * the limit (refused with 413 before they are read), unknown paths, and many clients writing to
 * one rule at once. It answers each clearly, loses no update, and keeps serving.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuleListClient, ApiError } from "../../src/api";
import { RULE_OPERATIONS } from "../../src/api/rules/schemas";
import { useSimulator } from "../support/simulator";
import { SecretScan, TENANT, TOKEN, chaosCase, listKey } from "./support";

const scan = new SecretScan();
const chaos = chaosCase(33, 3, ["none"]);
const RULE = "00000000-0000-4000-8000-000000000001";
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "aru-sim-"));
  scan.dir(dir);
});
const sim = useSimulator(() => ({ seed: chaos.seed, token: TOKEN, dataFile: join(dir, "state.json"), log: (line) => scan.add("simulator log", line) }), { perTest: true });

afterEach(() => {
  scan.collectFiles();
  rmSync(dir, { recursive: true, force: true });
});

afterAll(() => {
  scan.expectNoLeaks();
});

const client = (): RuleListClient => new RuleListClient({ baseUrl: sim.url, token: TOKEN, tenantId: TENANT });

async function post(path: string, body: string, contentType = "application/json"): Promise<{ status: number; json: { code?: string; message?: string } }> {
  const response = await fetch(`${sim.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": contentType }, body });
  const text = await response.text();
  scan.add(`answer to ${path}`, text);
  return { status: response.status, json: JSON.parse(text) as { code?: string; message?: string } };
}

/** The service still answers a well-formed read. */
async function stillServes(): Promise<void> {
  expect((await client().queryUsers(RULE)).users.length).toBeGreaterThan(0);
}

describe("bad requests", () => {
  it("answers malformed JSON with 400 INVALID_JSON, and keeps serving", async () => {
    const answer = await post(RULE_OPERATIONS["add-users"], `{"tenantId": "${TENANT}", "ruleId": `);
    expect(answer).toMatchObject({ status: 400, json: { code: "INVALID_JSON" } });
    await stillServes();
  });

  it("answers a wrong content type with 415 UNSUPPORTED_MEDIA_TYPE naming the expected type", async () => {
    const answer = await post(RULE_OPERATIONS["query-users"], JSON.stringify({ tenantId: TENANT, ruleId: RULE }), "text/plain");
    expect(answer).toMatchObject({ status: 415, json: { code: "UNSUPPORTED_MEDIA_TYPE", message: expect.stringContaining("application/json") } });
    await stillServes();
  });

  it("answers an unknown path with 404 NOT_FOUND", async () => {
    expect(await post("/v1/alert-rules/add-everyone", "{}")).toMatchObject({ status: 404, json: { code: "NOT_FOUND" } });
    await stillServes();
  });

  it("refuses a body declared larger than the limit with 413 before reading it", async () => {
    // given a request that declares 64 MiB and sends only its first 64 KiB
    const socket = net.connect(sim.port, "127.0.0.1");
    const answer = new Promise<string>((resolve, reject) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        if (/\r\n\r\n.*\}/s.test(text)) resolve(text);
      });
      socket.on("error", reject);
    });
    socket.write(
      `POST ${RULE_OPERATIONS["add-users"]} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write("x".repeat(64 * 1024));
    // when the simulator answers, then it is a 413 although 63.9 MiB were never sent
    const text = await answer;
    socket.destroy();
    scan.add("413 answer", text);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('"code":"PAYLOAD_TOO_LARGE"');
    await stillServes();
  });

  it("an oversized add-users from the client is a clear error naming the operation and rule, and changes nothing", async () => {
    // given 20 000 users in one call (over the 1 MiB limit)
    const before = listKey(sim.rule(RULE)!.users);
    const many = Array.from({ length: 20_000 }, (_, i) => ({ userIdFromAuthority: `big-${i}`, userAliasList: [`big.user.${i}@example.com`] }));
    // when
    const error = await client().addUsers(RULE, many).then(
      () => undefined,
      (e: unknown) => e,
    );
    // then
    expect(error).toBeInstanceOf(ApiError);
    scan.add("413 error", (error as ApiError).message);
    expect((error as ApiError).message).toMatch(new RegExp(`^add-users for rule '${RULE}' failed: 413 PAYLOAD_TOO_LARGE`));
    expect(listKey(sim.rule(RULE)!.users)).toEqual(before);
    await stillServes();
  });
});

describe("concurrent writers to one rule", () => {
  it("loses no update: five clients adding and removing at once leave exactly the expected list, in memory and on disk", async () => {
    // given a rule with a few users, and five clients
    const seeded = sim.rule(RULE)!.users.map((u) => u.userIdFromAuthority);
    const toRemove = seeded.slice(0, 2) as string[];
    const clients = Array.from({ length: 5 }, client);
    // when each sends 20 add-users at once, and two remove-users go in between
    const adds = clients.flatMap((c, k) =>
      Array.from({ length: 20 }, (_, n) => c.addUsers(RULE, [{ userIdFromAuthority: `c${k}-${n}`, userAliasList: [`c${k}.${n}@example.com`] }])),
    );
    const removes = toRemove.map((id, k) => clients[k]!.removeUsers(RULE, [id]));
    await Promise.all([...adds, ...removes]);
    await sim.stop();
    // then every added user is there once, the removed ones are gone, and the data file says the same
    const expected = [...seeded.filter((id) => !toRemove.includes(id!)), ...clients.flatMap((_, k) => Array.from({ length: 20 }, (_, n) => `c${k}-${n}`))].sort();
    const ids = (users: Array<{ userIdFromAuthority: string | null }>): string[] => users.map((u) => u.userIdFromAuthority ?? "-").sort();
    expect(ids(sim.rule(RULE)!.users)).toEqual(expected);
    const data = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as { rules: Array<{ metadata: { observerRuleId: string }; users: Array<{ userIdFromAuthority: string | null }> }> };
    expect(ids(data.rules.find((r) => r.metadata.observerRuleId === RULE)!.users)).toEqual(expected);
  });
});
