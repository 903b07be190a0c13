/**
 * Checks of the triage arguments made before any request: dates, case numbers, file event IDs,
 * alert IDs and filter values. Each throws InvalidArgumentError saying what is wrong.
 */
import { InvalidArgumentError } from "../../errors";

/** The longest event ID accepted before any request (the interface gives no limit). */
export const MAX_EVENT_ID_LENGTH = 256;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date yyyy-MM-dd, else InvalidArgumentError naming `what`. */
export function checkDate(what: string, value: string): string {
  const trimmed = value.trim();
  const parsed = new Date(`${trimmed}T00:00:00Z`);
  if (!DATE.test(trimmed) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== trimmed) {
    throw new InvalidArgumentError(`${what} takes a date yyyy-MM-dd, got '${value}'.`);
  }
  return trimmed;
}

/** Checks a case number (a positive whole number, or its decimal string); InvalidArgumentError otherwise. */
export function checkCaseNumber(caseNumber: number | string): number {
  const n = typeof caseNumber === "number" ? caseNumber : /^\s*\d+\s*$/.test(caseNumber) ? Number(caseNumber) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError(`Invalid case number '${String(caseNumber)}': a case number is a whole number of 1 or more.`);
  }
  return n;
}

/** Checks a file event ID: non-empty, no whitespace or '/', at most 256 characters. */
export function checkEventId(eventId: string): string {
  const problem =
    eventId === ""
      ? "it is empty"
      : /\s/.test(eventId)
        ? "it contains whitespace"
        : eventId.includes("/")
          ? "it contains '/'"
          : eventId.length > MAX_EVENT_ID_LENGTH
            ? `it is longer than ${MAX_EVENT_ID_LENGTH} characters`
            : undefined;
  if (problem !== undefined) {
    const shown = eventId.length > 40 ? `${eventId.slice(0, 40)}...` : eventId;
    throw new InvalidArgumentError(`Invalid file event ID '${shown}': ${problem}. Use the eventId of an observed file or of a file-event search result.`);
  }
  return eventId;
}

/** At least one alert ID, none empty; a copy of `ids`. InvalidArgumentError naming `what` otherwise. */
export function checkIds(what: string, ids: readonly string[]): string[] {
  if (ids.length === 0) throw new InvalidArgumentError(`${what}: give at least one alert ID.`);
  const bad = ids.filter((id) => id.trim() === "");
  if (bad.length > 0) throw new InvalidArgumentError(`${what}: an alert ID must not be empty.`);
  return [...ids];
}

/** `value` unless blank; InvalidArgumentError naming the filter term otherwise. */
export function nonEmpty(term: string, value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError(`The ${term} filter needs a value.`);
  return value;
}
