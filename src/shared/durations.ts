/**
 * Durations written as a whole number and a unit (`90s`, `30m`, `24h`, `2d`): `--max-plan-age`,
 * the provider's `timeouts` and its `request_timeout` / `run_timeout`. Pure, and importing nothing,
 * so the provider reads a `timeouts` block before its engine loads.
 */

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9]\d{0,5})([smhd])$/;

/** Milliseconds of a duration written as a whole number and a unit: `90s`, `30m`, `24h`, `2d`; undefined when not. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
