/**
 * The native provider's two pure decisions (src/core/engine/provider-decisions.ts): what a destroy
 * with on_destroy = "clear" leaves on the list, and whether a rule is declared by more than one
 * resource. The engine's plan of the clear's declaration removes exactly what the resource managed.
 */
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredList } from "../../src/core/engine/desired";
import type { ObservedList, RuleFacts } from "../../src/core/engine/observation";
import { claimIdentity, claimKey, clearDeclaration, duplicateClaim } from "../../src/core/engine/provider-decisions";

const RULE: RuleFacts = { observerRuleId: "r-1", name: "Endpoint exfiltration", isSystem: false, ruleSource: "Alerting" };
const list = (entries: ObservedList["entries"]): ObservedList => ({ usersToAlertOn: "SPECIFIED_USERS", entries });
const ALICE = { userId: "9102", aliases: ["alice@example.com"] };
const BOB = { userId: "9107", aliases: ["bob@example.com"] };
const CAROL = { userId: "9111", aliases: ["carol@example.com"] };
const declared = (over: Partial<DesiredList> = {}): DesiredList => ({ constructPath: "x", stack: "terraform", ruleId: "r-1", ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [ALICE], ...over });

/** The users a plan of the clear's declaration removes, by user ID. */
function removedBy(declaration: DesiredList, observed: ObservedList): string[] {
  const plan = buildPlan({ declarations: [declaration], observations: [{ kind: "found", rule: RULE, list: observed }], connection: { baseUrl: "http://x", tenantId: "t" }, createdAt: "2026-01-01T00:00:00.000Z", toolVersion: "0.0.0-test", batchSize: 100 });
  return plan.rules[0]!.changes.removeUsers.map((u) => u.userId).sort();
}

describe("clearDeclaration: what a destroy with on_destroy = \"clear\" leaves", () => {
  it("authoritative: nothing, every entry leaves (the guard allows it: the clear is the resource's own)", () => {
    // given a list of three users, one declared
    const observed = list([ALICE, BOB, CAROL]);
    // when
    const clear = clearDeclaration(RULE, observed, { mode: "authoritative", users: [ALICE] });
    // then
    if (!clear.ok) throw new Error(clear.reason);
    expect(clear.declaration).toMatchObject({ ruleId: "r-1", ruleName: null, mode: "authoritative", allowMassRemoval: true, users: [] });
    expect(removedBy(clear.declaration, observed)).toEqual(["9102", "9107", "9111"]);
  });

  it("additive: the declared users leave, the others stay as they are", () => {
    const observed = list([ALICE, BOB, CAROL]);
    const clear = clearDeclaration(RULE, observed, { mode: "additive", users: [ALICE, CAROL] });
    if (!clear.ok) throw new Error(clear.reason);
    expect(clear.declaration.users).toEqual([BOB]);
    expect(removedBy(clear.declaration, observed)).toEqual(["9102", "9111"]);
  });

  it("additive with an entry without a user ID: refused (removing only some users would rebuild the list and lose it), saying how to go on", () => {
    const clear = clearDeclaration(RULE, list([ALICE, { userId: null, aliases: ["shared@example.com"] }]), { mode: "additive", users: [ALICE] });
    expect(clear).toEqual({ ok: false, reason: expect.stringMatching(/^rule r-1 has entries without a user ID;.*set on_destroy = "keep"\.$/) as unknown });
  });
});

describe("duplicateClaim: one resource per rule", () => {
  it("lets a rule be claimed by one declaration, planned once or again", () => {
    expect(duplicateClaim(RULE, new Set([claimIdentity(declared())]), null)).toBeNull();
  });

  it("refuses a second declaration of the rule in this process, or one another process of the command holds", () => {
    const two = new Set([claimIdentity(declared()), claimIdentity(declared({ ruleId: null, ruleName: "Endpoint exfiltration" }))]);
    expect(duplicateClaim(RULE, two, null)).toMatch(/^rule r-1 \(Endpoint exfiltration\) is declared by more than one alertrules_rule_user_list.*keep exactly one resource per rule\.$/);
    expect(duplicateClaim(RULE, new Set([claimIdentity(declared())]), "another-identity")).not.toBeNull();
  });

  it("names the rule escaped: a name from the service draws nothing", () => {
    expect(duplicateClaim({ ...RULE, name: "a\u202eb" }, new Set(["x", "y"]), null)).toContain("(a\\u202eb)");
  });

  it("tells declarations apart by how they name the rule, their mode, users and policies, not by anything else", () => {
    expect(claimIdentity(declared({ constructPath: "elsewhere" }))).toBe(claimIdentity(declared()));
    expect(claimIdentity(declared({ mode: "additive" }))).not.toBe(claimIdentity(declared()));
    expect(claimIdentity(declared({ users: [BOB] }))).not.toBe(claimIdentity(declared()));
  });

  it("keys a claim by tenant (in any case or spacing) and rule, not by the URL the rule was reached by", () => {
    expect(claimKey(" Tenant-A ", "r-1")).toBe(claimKey("tenant-a", "r-1"));
    expect(claimKey("tenant-a", "r-1")).not.toBe(claimKey("tenant-a", "r-2"));
  });
});
