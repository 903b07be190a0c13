/**
 * The offline provider's data sources (src/provider/framework/offline-data.ts): a read the configuration asks
 * for is recorded as data and refused until the trusted job answers it; with the answers, the same
 * read (the same data source, the same arguments in any order of keys) gets the service's answer,
 * and a read nobody answered says why. The answers file and the requests file are checked.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATA_ANSWERS_VERSION, dataRequestKey, offlineDataSources, parseDataAnswers, parseDataRequests } from "../../src/provider/framework/offline-data";
import { ruleDataSourceSchema, rulesDataSourceSchema } from "../../src/provider/schema";
import { UNKNOWN } from "../../src/provider/protocol";

const SCHEMAS = { alertrules_rules: rulesDataSourceSchema, alertrules_rule: ruleDataSourceSchema };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "aru-offline-data-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the offline provider's data sources", () => {
  it("first pass: records each read as data (computed attributes and unknowns left out) and refuses it, saying the trusted job answers it", async () => {
    // given
    const requests = join(dir, "requests.jsonl");
    const sources = offlineDataSources(SCHEMAS, { ALERT_RULE_USERS_PROVIDER_DATA_REQUESTS: requests });
    // when
    const read = await sources["alertrules_rule"]!.readDataSource({ rule_name: "Endpoint exfiltration", rule_id: null, users: UNKNOWN, list_type: null });
    await sources["alertrules_rules"]!.readDataSource({ name_regex: "^Cloud", list_type: null, include_system: false, rules: null });
    // then
    expect(read.diagnostics?.map((d) => [d.severity, d.summary])).toEqual([["error", "Read by the trusted job"]]);
    expect(read.diagnostics?.[0]?.detail).toContain("the trusted job answers it");
    expect(parseDataRequests(readFileSync(requests, "utf8"), "requests.jsonl")).toEqual([
      { type: "alertrules_rule", config: { rule_name: "Endpoint exfiltration", rule_id: null, list_type: null } },
      { type: "alertrules_rules", config: { name_regex: "^Cloud", list_type: null, include_system: false, rules: null } },
    ]);
  });

  it("second pass: the same read (keys in any order) gets the answer's state and diagnostics; a read not answered is refused and says why", async () => {
    // given: an answer to one read, as data-answers writes it
    const answers = join(dir, "answers.json");
    const state = { rule_id: "r-1", rule_name: "Endpoint exfiltration", id: "r-1", list_type: "SPECIFIED_USERS", is_system: false, rule_source: "Alerting", is_enabled: true, users: [] };
    writeFileSync(answers, JSON.stringify({ version: DATA_ANSWERS_VERSION, answers: [{ type: "alertrules_rule", config: { rule_id: null, rule_name: "Endpoint exfiltration" }, state, diagnostics: [] }] }));
    const sources = offlineDataSources(SCHEMAS, { ALERT_RULE_USERS_PROVIDER_DATA_ANSWERS: answers, ALERT_RULE_USERS_PROVIDER_DATA_REQUESTS: join(dir, "again.jsonl") });
    // when
    const answered = await sources["alertrules_rule"]!.readDataSource({ users: null, list_type: null, rule_name: "Endpoint exfiltration", rule_id: null });
    const other = await sources["alertrules_rule"]!.readDataSource({ rule_name: "Another rule", rule_id: null, users: null, list_type: null });
    // then
    expect(answered).toEqual({ state, diagnostics: [] });
    expect(other.diagnostics?.map((d) => d.summary)).toEqual(["Data source not answered"]);
    expect(other.diagnostics?.[0]?.detail).toContain("depend on another data source's answer");
  });

  it("outside a workflow (no requests file): the offline refusal of before", async () => {
    const read = await offlineDataSources(SCHEMAS, {})["alertrules_rules"]!.readDataSource({ name_regex: null, list_type: null, include_system: null, rules: null });
    expect(read.diagnostics?.[0]?.detail).toMatch(/^The alertrules provider is offline \(ALERT_RULE_USERS_PROVIDER_OFFLINE=1\): data sources read the service/);
  });

  it("knows a read by its data source and the arguments it sets", () => {
    const key = (type: string, config: Record<string, unknown>) => dataRequestKey(type, type === "alertrules_rule" ? ruleDataSourceSchema : rulesDataSourceSchema, config as never);
    expect(key("alertrules_rule", { rule_id: "a", rule_name: null, users: UNKNOWN })).toBe(key("alertrules_rule", { users: null, rule_id: "a" }));
    expect(key("alertrules_rule", { rule_id: "a" })).not.toBe(key("alertrules_rule", { rule_id: "b" }));
    expect(key("alertrules_rule", { rule_id: "a" })).not.toBe(key("alertrules_rules", { rule_id: "a" }));
  });

  it("refuses files that are not what the workflow wrote, naming the line or the answer", () => {
    expect(() => parseDataRequests('{"type":"alertrules_rule","config":{}}\nnot json\n', "r.jsonl")).toThrow("r.jsonl:2 is not JSON");
    expect(() => parseDataRequests('{"type":"alertrules_rule","config":[1]}\n', "r.jsonl")).toThrow("r.jsonl:1 is not a data request");
    expect(() => parseDataAnswers('{"version":2,"answers":[]}', "a.json")).toThrow("a.json is not a data answers file of version 1");
    expect(() => parseDataAnswers('{"version":1,"answers":[{"type":"x","config":{},"state":"s","diagnostics":[]}]}', "a.json")).toThrow("a.json: answer 1 is not an answer");
  });
});
