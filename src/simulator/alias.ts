/**
 * How the simulated service tells two aliases apart: an alias is an email address or cloud alias,
 * compared without case and without the spaces around it (the service keeps the first spelling it
 * was given). The simulator's own rule, written from the service's behaviour, not taken from the
 * engine: a test (test/simulator/alias-rule.test.ts) checks that the engine compares aliases the same way.
 */
export function serviceAliasKey(alias: string): string {
  return alias.trim().toLowerCase();
}
