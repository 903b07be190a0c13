/**
 * A deterministic directory of employees: person(i) is a pure function of i, so a tenant of any
 * size can be generated without holding a pool in memory, and every run sees the same people.
 * User IDs look like authority IDs (18 digits); aliases are work email addresses, a second
 * corporate address and a cloud alias, some spelled with capitals (aliases compare
 * case-insensitively, the declared spelling is what gets sent).
 */

const FIRST = [
  "alice", "bob", "carmen", "dmitri", "elena", "farid", "grace", "hiro", "ines", "jamal",
  "kofi", "lena", "mateo", "nadia", "oskar", "priya", "quentin", "rosa", "sven", "tariq",
  "uma", "viktor", "wen", "ximena", "yusuf", "zara", "amara", "bjorn", "chen", "dalia",
  "emeka", "fatima", "gustav", "hana", "ivan", "jun", "kai", "leila", "marco", "noor",
  "olga", "pablo", "qing", "rahul", "sofia", "tomas", "ulla", "vera", "wei", "yara",
  "zeynep", "aiko", "bruno", "celine", "diego", "esra", "felix", "gita", "hugo", "isla",
] as const;

const LAST = [
  "nguyen", "okafor", "diaz", "ivanov", "rossi", "haddad", "kim", "tanaka", "garcia", "ali",
  "mensah", "schmidt", "lopez", "karimi", "lindqvist", "natarajan", "dubois", "santos", "berg", "aziz",
  "patel", "novak", "zhang", "herrera", "demir", "khan", "adeyemi", "larsen", "wang", "farouk",
  "eze", "rahman", "johansson", "sato", "petrov", "li", "mahoney", "moradi", "bianchi", "hussain",
  "kowalski", "fernandez", "liu", "sharma", "costa", "horvat", "virtanen", "cruz", "chen", "yilmaz",
  "celik", "yamamoto", "silva", "martin", "ramirez", "aydin", "weber", "iyer", "moreau", "murray",
] as const;

export interface Person {
  readonly userId: string;
  readonly aliases: readonly string[];
}

/** A small integer hash (not cryptographic), so per-person traits look random but are fixed. */
export function hash32(n: number): number {
  let x = (n + 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const ID_BASE = 908_712_000_000_000_000n;

function nameOf(i: number): { first: string; last: string; suffix: string } {
  const first = FIRST[i % FIRST.length] ?? "user";
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? "person";
  const cycle = Math.floor(i / (FIRST.length * LAST.length));
  return { first, last, suffix: cycle === 0 ? "" : String(cycle + 1) };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Person number i (i >= 0). `aliasCount` forces the number of aliases (1..3); by default 40% of
 * people have one alias, 40% two and 20% three.
 */
export function person(i: number, aliasCount?: number): Person {
  const h = hash32(i);
  const { first, last, suffix } = nameOf(i);
  const count = aliasCount ?? (h % 10 < 4 ? 1 : h % 10 < 8 ? 2 : 3);
  const capitals = (h >>> 8) % 10 === 0;
  const local = capitals ? `${capitalize(first)}.${capitalize(last)}${suffix}` : `${first}.${last}${suffix}`;
  const aliases = [`${local}@example.com`];
  if (count >= 2) aliases.push(`${first}_${last}${suffix}@corp.example.com`);
  if (count >= 3) aliases.push(`${first}.${last}${suffix}@example.onmicrosoft.com`);
  return { userId: String(ID_BASE + BigInt(i) * 7919n), aliases };
}

/** An alias person(i) does not have yet: a personal cloud-sync account added to the list. */
export function extraAlias(i: number): string {
  const { first, last, suffix } = nameOf(i);
  return `${first}.${last}${suffix}@drive.example.net`;
}
