/**
 * Users that expire (docs/contract.md §9.1): a declared user may carry `expiresAt: "yyyy-MM-dd"` (UTC).
 * From that date on the user is no longer desired: an authoritative list removes them, an additive
 * list stops adding them. Pure: the clock (`now`) is an input, dates are compared as UTC days.
 */
import type { DesiredUser } from "./desired";

/** How many days ahead `summary.expiringSoon` looks. */
export const EXPIRING_SOON_DAYS = 14;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DAY_MS = 86_400_000;

/** Whether `value` is a real calendar date written `yyyy-MM-dd` (no 2026-02-30, no 2026-1-5). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * Whether `value` is an instant written `yyyy-MM-ddTHH:mm:ssZ` (the `--now` flag and the plan's
 * `now`), with a real date and time.
 */
export function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (match === null) return false;
  const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4])];
  return isCalendarDate(match[1]!) && hours < 24 && minutes < 60 && seconds < 60;
}

/** The UTC day of an instant (`2026-11-23T08:00:00Z` → `2026-11-23`). */
export function dayOf(now: string): string {
  return now.slice(0, 10);
}

/** Days from `from` to `to` (both `yyyy-MM-dd`); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcDay(to) - utcDay(from)) / DAY_MS);
}

/** `yyyy-MM-dd` of `day` plus `days` days. */
export function addDays(day: string, days: number): string {
  const ms = utcDay(day) + days * DAY_MS;
  const [y, m, d] = civil(ms);
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function utcDay(day: string): number {
  const match = DATE.exec(day);
  if (match === null) throw new Error(`not a yyyy-MM-dd date: ${JSON.stringify(day)}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/** Year, month, day (UTC) of a millisecond timestamp, without constructing a Date from the clock. */
function civil(ms: number): [number, number, number] {
  // Howard Hinnant's days-to-civil algorithm.
  const z = Math.floor(ms / DAY_MS) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** Whether a user has expired on `today` (`yyyy-MM-dd`): from the `expiresAt` day on. */
export function hasExpired(user: DesiredUser, today: string): boolean {
  return user.expiresAt !== undefined && user.expiresAt <= today;
}

/** A declared user that carries an expiry date. */
export interface ExpiringUser {
  readonly userId: string;
  readonly aliases: readonly string[];
  readonly expiresAt: string;
}

/** The declared users split by `today`: those still desired (without `expiresAt`, as the diff takes them) and those expired. */
export interface ExpirySplit {
  /** The users still desired, as plain `{ userId, aliases }`; the input itself when no user carries a date. */
  readonly active: readonly DesiredUser[];
  /** Users whose `expiresAt` is today or earlier. */
  readonly expired: readonly ExpiringUser[];
  /** Users still desired whose `expiresAt` falls within {@link EXPIRING_SOON_DAYS} days of today. */
  readonly expiringSoon: readonly ExpiringUser[];
}

/**
 * Splits a declared list at `today`. Never mutates the input; when no user carries `expiresAt`
 * (the usual case, and the one that matters at a million aliases) returns the input as `active`.
 */
export function splitExpired(users: readonly DesiredUser[], today: string): ExpirySplit {
  if (!users.some((u) => u.expiresAt !== undefined)) return { active: users, expired: [], expiringSoon: [] };
  const horizon = addDays(today, EXPIRING_SOON_DAYS);
  const active: DesiredUser[] = [];
  const expired: ExpiringUser[] = [];
  const expiringSoon: ExpiringUser[] = [];
  for (const user of users) {
    const plain: DesiredUser = { userId: user.userId, aliases: user.aliases };
    if (user.expiresAt === undefined) {
      active.push(plain);
    } else if (user.expiresAt <= today) {
      expired.push({ ...plain, expiresAt: user.expiresAt });
    } else {
      active.push(plain);
      if (user.expiresAt <= horizon) expiringSoon.push({ ...plain, expiresAt: user.expiresAt });
    }
  }
  return { active, expired, expiringSoon };
}
