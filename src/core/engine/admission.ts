/**
 * Checks a saved plan must pass before it is applied, against the real clock (passed in: src/core
 * reads no clock). A plan whose reviewed change was later reverted still matches the lists it
 * observed, so the stale check lets it through; only its age stops a replay (`--max-plan-age`,
 * trusted as far as the signature covers `createdAt`: src/core/engine/plan-signature.ts signs every
 * field but the checksum). A plan applies at the `now` it records, but never adds a user whose
 * `expiresAt` has passed by the real clock. Each refuses the whole plan by throwing.
 */
import { ExpiredUsersError, PlanTooOldError } from "../../errors";
import { EXPIRING_SOON_DAYS, addDays, dayOf } from "./expiry";
import type { DesiredList } from "./desired";
import type { Plan } from "./plan-schema";
import { usersAdded } from "./operations";
import { checkSavedPlanSignature } from "./plan-signature";

declare const admission: unique symbol;

/**
 * A plan that passed every check of its admission (src/io/workflow/steps/apply.ts): the only plan a
 * session sends (`Session.send`, src/io/workflow/session/session.ts). Made by {@link admitted} alone,
 * which the workflow calls after the last check, right before it sends.
 */
export type AdmittedPlan = Plan & { readonly [admission]: true };

/** The plan, marked as admitted: call it only after the last check of an admission. */
export function admitted(plan: Plan): AdmittedPlan {
  return plan as AdmittedPlan;
}

/** `--max-plan-age` unless given. */
export const DEFAULT_MAX_PLAN_AGE = "24h";

/** A plan may claim to be this much younger than the real clock (clocks of two runners differ a little). */
const CLOCK_SKEW_MS = 5 * 60_000;

function describeAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

/**
 * Refuses a plan made more than `maxAgeMs` before `nowMs` (the real clock), or whose `createdAt`
 * is unreadable or in the future. `maxAge` is the flag's text, for the message.
 */
export function checkPlanAge(plan: Plan, nowMs: number, maxAgeMs: number, maxAge: string): void {
  const created = Date.parse(plan.createdAt);
  if (Number.isNaN(created) || created - nowMs > CLOCK_SKEW_MS) {
    throw new PlanTooOldError(
      `nothing was applied: the plan's createdAt (${plan.createdAt}) is ${Number.isNaN(created) ? "not a date" : "in the future by this machine's clock"}, so its age cannot be checked. Plan again, and check the clocks of the plan and apply machines.`,
    );
  }
  const age = nowMs - created;
  if (age <= maxAgeMs) return;
  throw new PlanTooOldError(
    `nothing was applied: the plan was made ${describeAge(age)} ago (createdAt ${plan.createdAt}), more than --max-plan-age ${maxAge}: ` +
      `an old plan can undo a change made after it (its lists may be back to what it observed). Plan again and apply the new plan, ` +
      `or pass a larger --max-plan-age if this plan is still the one to apply.`,
  );
}

/**
 * For a fresh apply (no saved plan): refuses a plan that would add a user whose declared
 * `expiresAt` is on or before `today` (`yyyy-MM-dd`, the real clock's UTC day), whatever the plan's
 * own `now` (`apply --now` in the past). The declaration is at hand, so every expiry is known.
 */
export function checkNoExpiredDeclaredAdds(plan: Plan, desired: readonly DesiredList[], today: string): void {
  const expiries = new Map<string, string>();
  for (const list of desired) for (const u of list.users) if (u.expiresAt !== undefined) expiries.set(`${list.constructPath}\0${u.userId}`, u.expiresAt);
  const expired: string[] = [];
  for (const rule of plan.rules) {
    if (rule.action !== "update") continue;
    for (const call of rule.calls) {
      for (const user of usersAdded(call)) {
        const expiresAt = expiries.get(`${rule.constructPath}\0${user.userId}`);
        if (expiresAt !== undefined && dayOf(expiresAt) <= today) expired.push(`${rule.constructPath}: ${user.userId} (expiresAt ${expiresAt})`);
      }
    }
  }
  if (expired.length > 0) {
    throw new ExpiredUsersError(
      `nothing was applied: the plan adds users whose expiresAt has passed (today is ${today} by this machine's clock; the plan was made for ${dayOf(plan.now ?? plan.createdAt)}):\n` +
        expired.map((u) => `  ${u}`).join("\n") +
        "\nApply without --now (or with a --now of today): the plan then no longer adds them.",
    );
  }
}

/**
 * Refuses a plan that would add a user whose `expiresAt` is on or before `today` (`yyyy-MM-dd`,
 * the real clock's UTC day), whatever the plan's own `now`. The plan records the `expiresAt` of
 * the users it keeps only when it falls within 14 days after its `now` (`summary.expiringSoon`),
 * so a plan that adds users and is applied more than 14 days after its `now` is refused too.
 */
export function checkNoExpiredAdds(plan: Plan, today: string): void {
  const planDay = dayOf(plan.now ?? plan.createdAt);
  const expiries = new Map((plan.summary.expiringSoon ?? []).map((u) => [`${u.constructPath}\0${u.userId}`, u.expiresAt]));
  const expired: string[] = [];
  let adds = false;
  for (const rule of plan.rules) {
    if (rule.action !== "update") continue;
    for (const call of rule.calls) {
      for (const user of usersAdded(call)) {
        adds = true;
        const expiresAt = expiries.get(`${rule.constructPath}\0${user.userId}`);
        if (expiresAt !== undefined && expiresAt <= today) expired.push(`${rule.constructPath}: ${user.userId} (expiresAt ${expiresAt})`);
      }
    }
  }
  if (expired.length > 0) {
    throw new ExpiredUsersError(
      `nothing was applied: the plan adds users whose expiresAt has passed (today is ${today} by this machine's clock; the plan was made for ${planDay}):\n` +
        expired.map((u) => `  ${u}`).join("\n") +
        "\nPlan again: a new plan no longer adds them.",
    );
  }
  const horizon = addDays(planDay, EXPIRING_SOON_DAYS);
  if (adds && today > horizon) {
    throw new ExpiredUsersError(
      `nothing was applied: the plan adds users and was made for ${planDay}, more than ${EXPIRING_SOON_DAYS} days before today (${today}); ` +
        `it records expiry dates only up to ${horizon}, so it cannot show that none of the users it adds has expired since. Plan again.`,
    );
  }
}

/** What a saved plan's file is checked against before any connection. */
export interface SavedPlanCheck {
  /** The file's name as the user gave it, for messages. */
  readonly name: string;
  /** The plan key (ALERT_RULE_USERS_PLAN_KEY), or undefined when unset. */
  readonly key: string | undefined;
  /** The real clock, whatever the plan's `now`: an old plan is not replayed, an expired user not added back. */
  readonly now: Date;
  /** `--max-plan-age`: in milliseconds, and as the flag's text for the message. */
  readonly maxAge: { readonly ms: number; readonly text: string };
}

/**
 * The checks of a saved plan's file, before any connection: its signature (with a key, only a
 * plan signed with it; without, a signed plan gets a warning), its age, and no user added whose
 * `expiresAt` has passed. Throws the first refusal.
 */
export function admitSavedPlanFile(plan: Plan, check: SavedPlanCheck, warn: (message: string) => void): void {
  checkSavedPlanSignature(plan, check.key, check.name, warn);
  checkPlanAge(plan, check.now.getTime(), check.maxAge.ms, check.maxAge.text);
  checkNoExpiredAdds(plan, check.now.toISOString().slice(0, 10));
}
