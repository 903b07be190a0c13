/**
 * `rules list` and `who` through the built CLI against the simulator: JSON shapes, the reads they
 * make (one metadata search, one query-users per rule with an editable list) and matching.
 */
import { useSimulator } from "../support/simulator";
import { writesOf } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";
import { useWorkspace } from "../support/use-workspace";

const sim = useSimulator({}, { perTest: true });
const ws = useWorkspace();

const cli = cliAgainst(sim, { cwd: () => ws.dir });

describe("rules list", () => {
  it("prints every rule with its list type and entry count, null for system rules, in one search and one read per list", async () => {
    // given the sample tenant: 9 rules, 2 of them system rules
    sim.resetCounts();

    // when
    const result = await cli(["rules", "list", "--format", "json"], { cwd: "/" });

    // then
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as { rules: Record<string, unknown>[] };
    expect(doc.rules).toHaveLength(9);
    expect(doc.rules.find((r) => r["ruleId"] === RULES.engineering)).toEqual({
      ruleId: RULES.engineering,
      name: "Endpoint exfiltration - Engineering",
      listType: "SPECIFIED_USERS",
      users: 4,
      isSystem: false,
      ruleSource: "Alerting",
      isEnabled: true,
    });
    expect(doc.rules.find((r) => r["ruleId"] === RULES.cloudSharing)).toMatchObject({ listType: "ALL_USERS_NOT_SPECIFIED", users: 3 });
    expect(doc.rules.find((r) => r["ruleId"] === RULES.departing)).toMatchObject({ listType: null, users: null, isSystem: true, ruleSource: "Departing Employee" });
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 7 });
  });

  it("prints a table with --format table", async () => {
    const result = await cli(["rules", "list", "--format", "table"], { cwd: "/" });
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(/^RULE ID +NAME +LIST +USERS +SYSTEM +SOURCE +ENABLED$/);
    expect(result.stdout).toMatch(/Cloud sharing outside the company +exclusion +3 +no +Alerting +yes/);
  });
});

describe("who", () => {
  it("finds a person by alias case-insensitively across inclusion and exclusion lists, and by user ID", async () => {
    // given alice is in the engineering inclusion list and also exempt in the cloud-sharing exclusion list
    sim.setUsers(RULES.cloudSharing, [
      { userIdFromAuthority: "908712345678902001", userAliasList: ["svc-backup@example.com"] },
      { userIdFromAuthority: "908712345678901234", userAliasList: ["alice.nguyen@example.com"] },
    ]);
    sim.resetCounts();

    // when
    const result = await cli(["who", "Alice.Nguyen@EXAMPLE.com", "908712345678901235", "nobody@example.com", "--format", "json"], { cwd: "/" });

    // then
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      matches: [
        {
          query: "Alice.Nguyen@EXAMPLE.com",
          ruleId: RULES.cloudSharing,
          ruleName: "Cloud sharing outside the company",
          listType: "ALL_USERS_NOT_SPECIFIED",
          userId: "908712345678901234",
          aliases: ["alice.nguyen@example.com"],
        },
        {
          query: "Alice.Nguyen@EXAMPLE.com",
          ruleId: RULES.engineering,
          ruleName: "Endpoint exfiltration - Engineering",
          listType: "SPECIFIED_USERS",
          userId: "908712345678901234",
          aliases: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"],
        },
        {
          query: "908712345678901235",
          ruleId: RULES.engineering,
          ruleName: "Endpoint exfiltration - Engineering",
          listType: "SPECIFIED_USERS",
          userId: "908712345678901235",
          aliases: ["bob.okafor@example.com"],
        },
      ],
    });
    expect(result.stderr).toContain('No list has "nobody@example.com".');
    expect(sim.requestCounts()).toEqual({ "query-rule-metadata": 1, "query-users": 7 });
    expect(writesOf(sim.requestCounts())).toEqual({});
  });

  it("where a cdktf app is, names the constructs that declare each match", async () => {
    // given an app that declares the engineering list (alice included) and the legal list with alice added
    ws.write([
      {
        name: "rules",
        lists: [
          { id: "engineering", props: { ruleId: RULES.engineering, users: ENGINEERING_USERS } },
          { id: "legal", props: { ruleId: RULES.legal, users: [{ userId: "908712345678909001", aliases: ["nina.petrova@example.com"] }, ENGINEERING_USERS[0]] } },
        ],
      },
    ]);

    // when run in the app's directory
    const result = await cli(["who", "alice.nguyen@example.com", "--format", "json"]);

    // then
    expect(result.code).toBe(0);
    const { matches } = JSON.parse(result.stdout) as { matches: { ruleId: string; declared: string[]; live: boolean }[] };
    expect(matches.map((m) => [m.ruleId, m.declared, m.live])).toEqual([
      [RULES.engineering, ["rules/engineering"], true],
      [RULES.legal, ["rules/legal"], false],
    ]);

    // and the table says so too
    const table = await cli(["who", "alice.nguyen@example.com", "--format", "table"]);
    expect(table.stdout).toContain("DECLARED BY");
    expect(table.stdout).toContain("rules/legal [not in the live list]");
  });

  it("needs at least one query", async () => {
    const result = await cli(["who"], { cwd: "/" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("who: give one or more aliases or user IDs");
  });
});

describe("what the service sends is data, never drawing (design §13.2)", () => {
  it("who shows a live alias and user ID holding ESC, a line feed, CSI and a bidi override escaped, in the table and in the JSON (the same value read back)", async () => {
    // given a console user whose alias recolours and forges a line
    const alias = "x\u001b[31m@x.com\nFAKE: Apply complete!\u009b2J\u202e";
    sim.setUsers(RULES.engineering, [...sim.rule(RULES.engineering)!.users, { userIdFromAuthority: "66\u009b", userAliasList: [alias] }]);
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    // when
    const table = await cli(["who", "66\u009b", "--format", "table"], { cwd: "/" });
    const json = await cli(["who", "66\u009b", "--format", "json"], { cwd: "/" });
    // then
    expect(table.code).toBe(0);
    expect(table.stdout + table.stderr).not.toMatch(raw);
    expect(table.stdout).toContain("x\\u001b[31m@x.com FAKE: Apply complete!\\u009b2J\\u202e");
    expect(json.stdout).not.toMatch(raw);
    const doc = JSON.parse(json.stdout) as { matches: Array<{ userId: string; aliases: string[] }> };
    expect(doc.matches.find((m) => m.userId === "66\u009b")?.aliases).toEqual([alias]);
  });
});
