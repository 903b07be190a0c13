/** Admission checks of a saved plan against the real clock (src/core/engine/admission.ts): its age, and no expired user added. */
import { checkNoExpiredAdds, checkPlanAge } from "../../src/core/engine/admission";
import { parseDuration } from "../../src/shared/durations";
import { buildPlan } from "../../src/core/engine/build-plan";
import { checkPlanSignature } from "../../src/core/engine/plan-signature";
import { toPlanDocument } from "../../src/core/engine/plan-schema";
import { ExpiredUsersError, PlanTooOldError } from "../../src/errors";
import { declared, entry, found, listOf, user } from "../support/builders";

const HOUR = 3_600_000;
const CREATED = "2026-03-01T12:00:00.000Z";

/** A plan made at CREATED (clock `now`) adding u-2, who expires on `expiresAt`. */
function planAdding(expiresAt: string, now = "2026-03-01T12:00:00Z") {
  return buildPlan({
    declarations: [{ ...declared([]), users: [user("u-1", "u-1@example.com"), { ...user("u-2", "u-2@example.com"), expiresAt }] }],
    observations: [found(listOf([entry("u-1", "u-1@example.com")]))],
    connection: { baseUrl: "http://127.0.0.1:1", tenantId: "t" },
    createdAt: CREATED,
    now,
    toolVersion: "0.0.0-test",
  });
}

describe("parseDuration", () => {
  it.each([
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["24h", 24 * HOUR],
    ["2d", 48 * HOUR],
  ])("reads %s", (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(["", "24", "1 week", "0h", "-1h", "1.5h", "h", "24H"])("refuses %j", (text) => expect(parseDuration(text)).toBeUndefined());
});

describe("checkPlanAge", () => {
  const plan = planAdding("2026-06-01");
  const created = Date.parse(CREATED);

  it("admits a plan up to the age given, and refuses one a moment older, saying how old", () => {
    expect(() => checkPlanAge(plan, created + 24 * HOUR, 24 * HOUR, "24h")).not.toThrow();
    expect(() => checkPlanAge(plan, created + 49 * HOUR, 24 * HOUR, "24h")).toThrow(PlanTooOldError);
    expect(() => checkPlanAge(plan, created + 49 * HOUR, 24 * HOUR, "24h")).toThrow(/made 2 days ago .*more than --max-plan-age 24h/);
  });

  it("refuses a createdAt in the future beyond a few minutes of clock skew", () => {
    expect(() => checkPlanAge(plan, created - 60_000, 24 * HOUR, "24h")).not.toThrow();
    expect(() => checkPlanAge(plan, created - HOUR, 24 * HOUR, "24h")).toThrow(/in the future by this machine's clock/);
  });

  it("is trustworthy only as far as the signature covers createdAt: a signed plan made to look younger no longer verifies", () => {
    const signed = toPlanDocument(plan, "a-plan-key-of-16-chars");
    expect(checkPlanSignature(signed, "a-plan-key-of-16-chars")).toBe("valid");
    expect(checkPlanSignature({ ...signed, createdAt: "2026-03-09T12:00:00.000Z" }, "a-plan-key-of-16-chars")).toBe("invalid");
  });
});

describe("checkNoExpiredAdds", () => {
  it("admits a plan whose added users have not expired by today", () => {
    expect(() => checkNoExpiredAdds(planAdding("2026-03-10"), "2026-03-09")).not.toThrow();
  });

  it("refuses a plan adding a user who expired by today, whatever the plan's now, naming the user", () => {
    expect(() => checkNoExpiredAdds(planAdding("2026-03-10"), "2026-03-10")).toThrow(ExpiredUsersError);
    expect(() => checkNoExpiredAdds(planAdding("2026-03-10"), "2026-03-12")).toThrow(/stack\/rule-1: u-2 \(expiresAt 2026-03-10\)/);
  });

  it("refuses a plan that adds users applied more than 14 days after its now (it records no expiry beyond)", () => {
    const plan = planAdding("2026-09-01");
    expect(() => checkNoExpiredAdds(plan, "2026-03-15")).not.toThrow();
    expect(() => checkNoExpiredAdds(plan, "2026-03-16")).toThrow(/more than 14 days before today/);
  });
});
