/**
 * The tenant seed (src/simulator/README.md, "Seed"): the sample tenant and the validation of seeds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NULL_USER_ID_SENTENCE, isMissingUserId } from "../../src/api/rules/schemas";
import { loadSeedFile, sampleTenantPath, startSimulator, tenantSeedSchema, type TenantSeed } from "../../src/simulator";
import { withSimulator } from "../support/simulator";
import { ConfigError } from "../../src/errors";

const SAMPLE_FILE = path.join(__dirname, "../../examples/sample-tenant.json");

describe("the sample tenant", () => {
  const seed = tenantSeedSchema.parse(JSON.parse(fs.readFileSync(SAMPLE_FILE, "utf8")));
  const rules = seed.rules;

  it("is the default seed, found from the package root", () => {
    expect(fs.realpathSync(sampleTenantPath())).toBe(fs.realpathSync(SAMPLE_FILE));
  });

  it("has at least 8 rules with distinct, UUID-like IDs and names", () => {
    const ids = rules.flatMap((r) => [r.metadata.id, r.metadata.observerRuleId]);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [seed.tenantId, ...ids]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(rules.map((r) => r.metadata.name)).size).toBe(rules.length);
    expect(new Set(rules.map((r) => r.metadata.createdAt.slice(0, 10))).size).toBeGreaterThanOrEqual(6);
  });

  it("has every kind of rule the demo and tests need", () => {
    const specified = rules.filter((r) => r.usersToAlertOn === "SPECIFIED_USERS" && !r.metadata.isSystem);
    expect(specified.some((r) => r.users.length >= 4 && r.users.some((u) => u.userAliasList.length === 2))).toBe(true);
    expect(rules.some((r) => r.usersToAlertOn === "ALL_USERS_NOT_SPECIFIED" && r.users.length >= 3)).toBe(true);
    expect(rules.some((r) => r.usersToAlertOn === "ALL_USERS")).toBe(true);
    expect(rules.some((r) => r.metadata.isSystem && r.metadata.ruleSource === "Departing Employee" && r.metadata.createdBy === "AlertVendor")).toBe(true);
    expect(rules.some((r) => r.metadata.isSystem && r.metadata.ruleSource === "High Risk Employee")).toBe(true);
    const noIds = rules.find((r) => r.users.filter((u) => isMissingUserId(u.userIdFromAuthority)).length === 2);
    expect(noIds?.users.map((u) => u.userIdFromAuthority)).toEqual([null, NULL_USER_ID_SENTENCE, expect.stringMatching(/^\d+$/)]);
    const aliases = rules.flatMap((r) => r.users.flatMap((u) => u.userAliasList));
    for (const alias of aliases) expect(alias).toMatch(/example\.com$/);
  });
});

describe("seed validation", () => {
  const valid = (): TenantSeed => loadSeedFile(SAMPLE_FILE);

  it.each<[string, (seed: TenantSeed) => unknown, string]>([
    ["a rule without name", (s) => ({ ...s, rules: [{ ...s.rules[0]!, metadata: { ...s.rules[0]!.metadata, name: undefined } }] }), "rules[0].metadata.name"],
    ["an unknown usersToAlertOn", (s) => ({ ...s, rules: [{ ...s.rules[0]!, usersToAlertOn: "SOME_USERS" }] }), "rules[0].usersToAlertOn"],
    ["a timestamp with three fractional digits", (s) => ({ ...s, rules: [{ ...s.rules[0]!, metadata: { ...s.rules[0]!.metadata, createdAt: "2025-01-01T00:00:00.000Z" } }] }), "rules[0].metadata.createdAt"],
    ["an unknown rule source", (s) => ({ ...s, rules: [{ ...s.rules[0]!, metadata: { ...s.rules[0]!.metadata, ruleSource: "Manual" } }] }), "rules[0].metadata.ruleSource"],
    ["a duplicate rule ID", (s) => ({ ...s, rules: [s.rules[0]!, { ...s.rules[1]!, metadata: { ...s.rules[1]!.metadata, observerRuleId: s.rules[0]!.metadata.observerRuleId } }] }), "rules[1].metadata.observerRuleId"],
    ["users on an ALL_USERS rule", (s) => ({ ...s, rules: [{ ...s.rules[0]!, usersToAlertOn: "ALL_USERS" }] }), "rules[0].users"],
    ["a user without aliases", (s) => ({ ...s, rules: [{ ...s.rules[0]!, users: [{ userIdFromAuthority: "1", userAliasList: [] }] }] }), "rules[0].users[0].userAliasList"],
  ])("refuses %s, naming the field", async (_what, change, field) => {
    // given a seed file with the defect
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "simulator-seed-"));
    const file = path.join(dir, "seed.json");
    fs.writeFileSync(file, JSON.stringify(change(valid())));
    try {
      // when loaded from the file or given directly, then a ConfigError names the field
      expect(() => loadSeedFile(file)).toThrow(ConfigError);
      expect(() => loadSeedFile(file)).toThrow(field);
      await expect(startSimulator({ seed: change(valid()) as TenantSeed })).rejects.toThrow(field);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a missing file and a file that is not JSON, naming the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "simulator-seed-"));
    const file = path.join(dir, "seed.json");
    try {
      expect(() => loadSeedFile(file)).toThrow(file);
      fs.writeFileSync(file, "{ not json");
      expect(() => loadSeedFile(file)).toThrow(/not valid JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fills in type$ and the tenant ID of rule metadata when a seed leaves them out", async () => {
    // given a minimal seed written by hand
    await withSimulator({
      seed: {
        tenantId: "t-min",
        rules: [
          {
            metadata: {
              id: "m", observerRuleId: "r", name: "Minimal", description: "", severity: "LOW", type: "FED_FILE_TYPE_MISMATCH",
              isSystem: false, isEnabled: true, ruleSource: "Alerting",
              createdAt: "2025-01-01T00:00:00.0000000Z", modifiedAt: "2025-01-01T00:00:00.0000000Z", createdBy: "a@example.com", modifiedBy: "a@example.com",
            },
            usersToAlertOn: "SPECIFIED_USERS",
          },
        ],
      },
    }, (sim) => {
      // then the rule is complete and has an empty list
      expect(sim.rule("r")).toEqual({
        metadata: expect.objectContaining({ type$: "RULE_METADATA", tenantId: "t-min" }),
        usersToAlertOn: "SPECIFIED_USERS",
        users: [],
      });
    });
  });
});
