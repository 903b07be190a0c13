/**
 * Timestamps as the service writes them: ISO 8601 UTC with seven fractional digits and a Z
 * (`2026-11-21T10:00:00.0000000Z`).
 */
export function formatTimestamp(date: Date): string {
  // toISOString gives milliseconds (three digits); the service has 100 ns resolution.
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$10000Z");
}

/** The yyyy-MM-dd date part of a timestamp. */
export function datePart(timestamp: string): string {
  return timestamp.slice(0, 10);
}
