/**
 * Characters that print as nothing or reorder what is around them: control characters, zero-width
 * characters and bidirectional controls ("trojan source"). A reviewer cannot see them, so every
 * renderer shows them escaped (`\u200b`, `\u202e`) and a declaration may not contain them.
 * Pure: no I/O. In src/shared, so every floor escapes with this one function (the client too, for
 * the error texts the service sends).
 */

/**
 * C0/C1 controls and DEL; soft hyphen; Arabic letter mark; Mongolian vowel separator; zero-width
 * space, non-joiner, joiner; left-to-right and right-to-left marks; line and paragraph separators;
 * bidi embeddings and overrides (U+202A..U+202E); word joiner and invisible operators
 * (U+2060..U+2064); bidi isolates (U+2066..U+2069); zero-width no-break space (BOM).
 */
const INVISIBLE_SOURCE =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]";

/** Non-global (stateless) tests, compiled once: most strings hold none of these characters. */
const INVISIBLE = new RegExp(INVISIBLE_SOURCE);

/** Bidirectional controls only (embeddings, overrides, isolates, marks). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Every invisible character of `s` written as `\uXXXX`, so it shows: the one escaping of what came
 * from outside (the service's aliases, IDs, names, descriptions and error texts) wherever it is
 * shown, in text, markdown, HTML, CSV, diagnostics and the attributes the provider returns. It
 * turns nothing visible into anything else (a backslash stays a backslash), so it may run twice.
 */
export function escapeInvisible(s: string, keep: { readonly lineBreaks?: boolean } = {}): string {
  return s.replace(INVISIBLE_GLOBAL, keep.lineBreaks === true ? escapeAllButLineFeed : escapeOne);
}

const INVISIBLE_GLOBAL = new RegExp(INVISIBLE_SOURCE, "g");
const escapeOne = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
/** For a message whose own lines are its structure (a diagnostic's paragraphs): line feeds kept, everything else escaped. */
const escapeAllButLineFeed = (c: string): string => (c === "\n" ? c : escapeOne(c));

/** {@link escapeInvisible} of every string of a plain value, object keys included; the value itself where none holds such a character. */
export function escapeInvisibleDeep<T>(value: T): T {
  if (typeof value === "string") return escapeInvisible(value) as T;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => escapeInvisibleDeep(item));
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>);
    const escaped = entries.map(([k, v]) => [escapeInvisible(k), escapeInvisibleDeep(v)] as const);
    if (escaped.every(([k, v], i) => k === entries[i]![0] && v === entries[i]![1])) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of escaped) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}

/** The invisible characters JSON.stringify leaves raw (it escapes C0 controls itself). */
const RAW_IN_JSON = new RegExp(INVISIBLE_SOURCE.replace("\\u0000-\\u001f", ""), "g");

/**
 * JSON of `value` with every invisible character written `\uXXXX`: the same document read back
 * (JSON.stringify already escapes C0 controls; DEL, C1 controls, line separators and bidi controls
 * it leaves raw, and a terminal that shows the document would draw them).
 */
export function shownJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(RAW_IN_JSON, escapeOne);
}

/**
 * The characters of `s` that draw or hide on a screen, each as `U+XXXX (what)`, in order of first
 * appearance: controls (C0, DEL, C1), line and paragraph separators, bidi controls, zero-width and
 * other invisible characters. What a declared user ID or alias may not hold.
 */
export function describeInvisible(s: string): string[] {
  if (!INVISIBLE.test(s)) return [];
  const found = new Set<string>();
  for (const c of s.match(INVISIBLE_GLOBAL) ?? []) found.add(c);
  return [...found].map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} (${kindOf(c)})`);
}

function kindOf(c: string): string {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(c)) return "control character";
  if (c === "\u2028" || c === "\u2029") return "line or paragraph separator";
  return nameOf(c);
}

function nameOf(c: string): string {
  return BIDI.test(c) ? "bidirectional control" : "zero-width or invisible character";
}
