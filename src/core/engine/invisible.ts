/**
 * Characters that print as nothing or reorder what is around them: control characters, zero-width
 * characters and bidirectional controls ("trojan source"). A reviewer cannot see them, so every
 * renderer shows them escaped (`\u200b`, `\u202e`) and a declaration may not contain them.
 * Pure: no I/O.
 */

/**
 * C0/C1 controls and DEL; soft hyphen; Arabic letter mark; Mongolian vowel separator; zero-width
 * space, non-joiner, joiner; left-to-right and right-to-left marks; line and paragraph separators;
 * bidi embeddings and overrides (U+202A..U+202E); word joiner and invisible operators
 * (U+2060..U+2064); bidi isolates (U+2066..U+2069); zero-width no-break space (BOM).
 */
const INVISIBLE_SOURCE =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]";

/**
 * What a declaration may not hold: bidi controls and zero-width or invisible format characters
 * (control characters and line separators are shown escaped but left to the other checks).
 */
const LOOK_ALIKE_SOURCE = "[\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]";

/** Non-global (stateless) tests, compiled once: most strings hold none of these characters. */
const INVISIBLE = new RegExp(INVISIBLE_SOURCE);
const LOOK_ALIKE = new RegExp(LOOK_ALIKE_SOURCE);

/** Bidirectional controls only (embeddings, overrides, isolates, marks). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** True when `s` holds a character a reader cannot see (see {@link escapeInvisible}). */
export function hasInvisible(s: string): boolean {
  return INVISIBLE.test(s);
}

/**
 * The bidi controls and zero-width characters of `s` (what makes text read as other text), each as
 * `U+XXXX (name)`, in order of first appearance; empty when there are none.
 */
export function describeLookAlike(s: string): string[] {
  if (!LOOK_ALIKE.test(s)) return [];
  const found = new Set<string>();
  for (const c of s.match(new RegExp(LOOK_ALIKE_SOURCE, "g")) ?? []) found.add(c);
  return [...found].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} (${nameOf(c)})`);
}

/** Every invisible character of `s` written as `\uXXXX`, so it shows. */
export function escapeInvisible(s: string): string {
  return s.replace(new RegExp(INVISIBLE_SOURCE, "g"), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function nameOf(c: string): string {
  return BIDI.test(c) ? "bidirectional control" : "zero-width or invisible character";
}
