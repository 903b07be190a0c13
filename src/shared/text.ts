/**
 * Small text helpers shared by the layers (core, api, cli, simulator). Pure: no fs, no processes, no
 * network, no clock.
 */

/** `users[0].userAliasList` for `["users", 0, "userAliasList"]`; `(body)` for the empty path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(body)" : out;
}

/** What a thrown value says: an Error's message, anything else as text (`throw "x"`, a rejected promise's reason). */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The entry of `allowed` equal to `value` ignoring case and surrounding spaces, else undefined. */
export function titleCase<T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
}

/** Compares two strings by UTF-16 code units: locale-independent and total (the same order on every machine). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `word` as one POSIX shell word, safe to paste: unchanged when it holds only characters no shell
 * expands, else single-quoted with each `'` written `'\''` (nothing expands inside single quotes).
 */
export function shellQuote(word: string): string {
  if (/^[\w./@%+=:,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/** `1 rule`, `2 rules`; `many` for an irregular plural (`2 aliases`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
