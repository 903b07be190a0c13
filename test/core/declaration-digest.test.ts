/**
 * What a plan covered (issue 31 item 1): the record of every declaration a plan was made from, and
 * the comparison `apply PLANFILE --require-declarations` makes with the declarations synthesized
 * again. Any declaration added, removed or changed is reported; so is a plan whose rules do not
 * follow from the declarations it records (a plan file written by someone else).
 */
import { buildPlan } from "../../src/core/engine/build-plan";
import { declarationDigest, uncoveredDeclarations, withDeclarations } from "../../src/core/changed-since/declaration-digest";
import type { DesiredList, DesiredUser } from "../../src/core/engine/desired";
import type { Plan } from "../../src/core/engine/plan-schema";
import { declared, found, listOf } from "../support/builders";

const alice: DesiredUser = { userId: "1001", aliases: ["alice@example.com"] };
const bob: DesiredUser = { userId: "1002", aliases: ["bob@example.com"] };
const ceo: DesiredUser = { userId: "1000", aliases: ["ceo@example.com"] };
const a = declared([alice], { ruleId: "rule-a" });
const b = declared([bob], { ruleId: "rule-b" });

/** A plan of `read` (every rule observed empty), recording `all` with the rest unread. */
function planOf(read: DesiredList[], all: DesiredList[]): Plan {
  const plan = buildPlan({
    declarations: read,
    observations: read.map((d) => found(listOf([]), { observerRuleId: d.ruleId ?? "x", name: d.ruleName ?? "R" })),
    connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
    createdAt: "2026-11-24T00:00:00.000Z",
    toolVersion: "0.0.0-test",
  });
  return withDeclarations(plan, all, new Set(all.filter((d) => !read.includes(d))));
}

describe("the declarations a plan covered", () => {
  it("records each declaration with its digest and whether it was read", () => {
    expect(planOf([a], [a, b]).declarations).toEqual([
      { constructPath: a.constructPath, stack: a.stack, reference: "id:rule-a", digest: declarationDigest(a), read: true },
      { constructPath: b.constructPath, stack: b.stack, reference: "id:rule-b", digest: declarationDigest(b), read: false },
    ]);
  });

  it("a digest ignores order and the construct path, and follows users, aliases, expiries, mode and reference", () => {
    expect(declarationDigest(declared([alice, bob], { ruleId: "r" }))).toBe(declarationDigest(declared([bob, alice], { ruleId: "r", path: "elsewhere/x" })));
    const base = declarationDigest(declared([alice], { ruleId: "r" }));
    for (const other of [
      declared([alice, ceo], { ruleId: "r" }),
      declared([{ ...alice, aliases: ["alice2@example.com"] }], { ruleId: "r" }),
      { ...declared([alice], { ruleId: "r" }), users: [{ ...alice, expiresAt: "2027-01-01" }] },
      declared([alice], { ruleId: "r", mode: "additive" }),
      declared([alice], { ruleId: "r", allowMassRemoval: true }),
      declared([alice], { ruleName: "r" }),
    ]) {
      expect(declarationDigest(other)).not.toBe(base);
    }
  });

  it.each([
    ["the same declarations", [a, b], []],
    ["an unread declaration changed", [a, declared([bob, ceo], { ruleId: "rule-b" })], [{ constructPath: b.constructPath, stack: b.stack, kind: "changed" }]],
    ["a declaration added", [a, b, declared([ceo], { ruleId: "rule-c" })], [{ constructPath: "stack/rule-c", stack: "stack", kind: "new" }]],
    ["a declaration removed", [a], [{ constructPath: b.constructPath, stack: b.stack, kind: "gone" }]],
    ["a declaration duplicated", [a, b, { ...b, constructPath: "stack/again" }], [{ constructPath: "stack/again", stack: "stack", kind: "changed" }]],
  ])("%s", (_name, now, expected) => {
    expect(uncoveredDeclarations(planOf([a], [a, b]), now)).toEqual(expected);
  });

  it("reports a rule whose calls do not follow from the declaration the plan records (a plan of someone else's)", () => {
    // given a plan whose record is of the declarations now, but whose rule adds ceo as well
    const plan = planOf([a], [a, b]);
    const forged = planOf([declared([alice, ceo], { ruleId: "rule-a" })], [a, b]);
    const mixed: Plan = { ...forged, declarations: plan.declarations };
    // then
    expect(uncoveredDeclarations(mixed, [a, b])).toEqual([{ constructPath: a.constructPath, stack: a.stack, kind: "rule" }]);
    expect(uncoveredDeclarations(plan, [a, b])).toEqual([]);
  });

  it("a plan without the record: null", () => {
    const { declarations: _unused, ...plan } = planOf([a], [a]);
    void _unused;
    expect(uncoveredDeclarations(plan, [a])).toBeNull();
  });
});
