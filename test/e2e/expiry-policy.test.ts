/**
 * Users that expire and RuleUserListPolicy, through the built CLI against the simulator: an
 * expired user is removed on a given --now (fresh and saved plans), a policy violation exits 1
 * and apply sends nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { listing, writesOf } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { cliAgainst } from "../support/cli-against";
import { useWorkspace } from "../support/use-workspace";

const sim = useSimulator({}, { perTest: true });
const ws = useWorkspace();

const cli = cliAgainst(sim, { cwd: () => ws.dir });

/** The exclusion list of the sample tenant, declared as it is, legal review exempt until 2026-12-01. */
const exemptions = {
  id: "cloud-sharing-exemptions",
  props: {
    ruleId: RULES.cloudSharing,
    users: [
      { userId: "908712345678902001", aliases: ["svc-backup@example.com"] },
      { userId: "908712345678902002", aliases: ["legal.review@example.com", "counsel@legal.example.com"], expiresAt: "2026-12-01" },
      { userId: "908712345678902003", aliases: ["noreply-share@example.com"] },
    ],
  },
};

describe("expiresAt", () => {
  it("keeps the user before the day, lists them as expiring soon, and removes them from that day on", async () => {
    // given the exemption of 908712345678902002 ends on 2026-12-01
    ws.write([{ name: "rules", lists: [exemptions] }]);

    // when planned the day before
    const before = await cli(["plan", "--format", "json", "--now", "2026-11-30T12:00:00Z", "--detailed-exitcode"]);

    // then nothing changes, and the user is expiring soon
    expect(before.code).toBe(0);
    const early = JSON.parse(before.stdout);
    expect(early.now).toBe("2026-11-30T12:00:00Z");
    expect(early.rules[0].action).toBe("no-op");
    expect(early.summary.expiringSoon).toEqual([
      expect.objectContaining({ userId: "908712345678902002", expiresAt: "2026-12-01", constructPath: "rules/cloud-sharing-exemptions" }),
    ]);

    // when planned on the day
    const onTheDay = await cli(["plan", "--format", "json", "--now", "2026-12-01T00:00:00Z", "--detailed-exitcode"]);

    // then the user is removed, with the reason
    expect(onTheDay.code).toBe(2);
    const plan = JSON.parse(onTheDay.stdout);
    expect(plan.rules[0].changes.removeUsers).toEqual([
      { userId: "908712345678902002", aliases: ["counsel@legal.example.com", "legal.review@example.com"], reason: "expired", expiresAt: "2026-12-01" },
    ]);
    expect(plan.rules[0].calls).toEqual([{ operation: "remove-users", userIdList: ["908712345678902002"] }]);

    // and the text plan says why
    const text = await cli(["plan", "--now", "2026-12-01T00:00:00Z"]);
    expect(text.stdout).toContain("(expired on 2026-12-01)");

    // when applied on that clock
    const applied = await cli(["apply", "--auto-approve", "--now", "2026-12-01T00:00:00Z"]);

    // then the exemption is gone and nothing else changed
    expect(applied.code).toBe(0);
    expect(listing(sim, RULES.cloudSharing)).toEqual([
      "908712345678902001:svc-backup@example.com",
      "908712345678902003:noreply-share@example.com",
    ]);
  });

  it("apply of a saved plan uses the plan's now, and refuses another --now", async () => {
    // given a plan saved on the day before expiry
    ws.write([{ name: "rules", lists: [exemptions] }]);
    const saved = await cli(["plan", "--now", "2026-12-05T00:00:00Z", "--out", "plan.json"]);
    expect(saved.code).toBe(0);
    expect(JSON.parse(readFileSync(join(ws.dir, "plan.json"), "utf8")).now).toBe("2026-12-05T00:00:00Z");

    // when applied with a --now of its own
    const refused = await cli(["apply", "plan.json", "--now", "2026-11-01T00:00:00Z"]);

    // then it is refused before anything is sent
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--now applies to a fresh plan only");
    expect(listing(sim, RULES.cloudSharing)).toHaveLength(3);

    // when applied as saved (the system clock says otherwise: the plan's now decides)
    const applied = await cli(["apply", "plan.json"]);
    expect(applied.code).toBe(0);
    expect(listing(sim, RULES.cloudSharing).some((e) => e.startsWith("908712345678902002"))).toBe(false);
  });

  it("refuses a --now in another format, before any request", async () => {
    ws.write([{ name: "rules", lists: [exemptions] }]);
    sim.resetCounts();
    const result = await cli(["plan", "--now", "2026-12-01"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--now takes an instant written yyyy-MM-ddTHH:mm:ssZ (UTC), e.g. 2026-12-01T00:00:00Z; got '2026-12-01'");
    expect(sim.requestCounts()).toEqual({});
  });

  it("fails synth on an impossible date, naming the construct", async () => {
    ws.write([{ name: "rules", lists: [{ id: "bad-date", props: { ruleId: RULES.cloudSharing, users: [{ userId: "1", aliases: ["a@example.com"], expiresAt: "2026-02-30" }] } }] }]);
    const result = await cli(["plan"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[rules/bad-date] users[0].expiresAt: "2026-02-30" is not a date');
  });
});

describe("RuleUserListPolicy", () => {
  it("a violation makes plan exit 1 and apply send nothing", async () => {
    // given a policy of at most 3 users and a list of 4 with an alias outside the allowed domains
    ws.write([
      {
        name: "rules",
        lists: [{ id: "engineering", props: { ruleId: RULES.engineering, users: [...ENGINEERING_USERS.slice(0, 3), { userId: "908712345678901299", aliases: ["new.person@gmail.test"] }] } }],
        policies: [{ id: "guardrails", props: { maxUsers: 3, allowedAliasDomains: ["example.com", "eng.example.com"] } }],
      },
    ]);
    const before = listing(sim, RULES.engineering);

    // when planned
    const plan = await cli(["plan", "--format", "json"]);

    // then the rule is a policy error naming the policy and the users
    expect(plan.code).toBe(1);
    const doc = JSON.parse(plan.stdout);
    expect(doc.rules[0]).toMatchObject({ action: "error", errorKind: "policy", calls: [] });
    expect((doc.rules[0].violations as { check: string }[]).map((v) => v.check)).toEqual(["maxUsers", "allowedAliasDomains"]);
    expect(doc.rules[0].reason).toContain("policy rules/guardrails: maxUsers 3: the list would have 4 users (adds 908712345678901299)");
    expect(doc.rules[0].reason).toContain("908712345678901299 (new.person@gmail.test)");

    // and the PR comment lists the violation first
    const markdown = await cli(["plan", "--format", "markdown"]);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toContain("### Policy violations (2)");

    // when applied
    sim.resetCounts();
    const applied = await cli(["apply", "--auto-approve"]);

    // then nothing is sent
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("rules/engineering: policy rules/guardrails: maxUsers 3");
    expect(writesOf(sim.requestCounts())).toEqual({});
    expect(listing(sim, RULES.engineering)).toEqual(before);
  });

  it("a list that passes its policy plans and applies as usual", async () => {
    ws.write([
      {
        name: "rules",
        lists: [exemptions],
        policies: [{ id: "exemptions-expire", props: { exclusionListsRequireExpiry: { maxDays: 400 } } }],
      },
    ]);
    // every user of the exclusion list needs an expiry: two of three have none
    const failing = await cli(["plan", "--now", "2026-11-01T00:00:00Z"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("908712345678902001 (no expiresAt), 908712345678902003 (no expiresAt)");

    // given all three expire within 400 days
    ws.write([
      {
        name: "rules",
        lists: [{ ...exemptions, props: { ...exemptions.props, users: exemptions.props.users.map((u) => ({ ...u, expiresAt: "2027-06-30" })) } }],
        policies: [{ id: "exemptions-expire", props: { exclusionListsRequireExpiry: { maxDays: 400 } } }],
      },
    ]);
    const passing = await cli(["plan", "--now", "2026-11-01T00:00:00Z", "--detailed-exitcode"]);
    expect(passing.code).toBe(0);
  });
});
