/**
 * Redaction of credentials, as defence in depth.
 *
 * The client never puts request headers into errors, hook events or logs in the first place;
 * these functions are applied anyway wherever text that *could* carry headers is formatted
 * (service messages, network error messages, response snippets, plan files, reports, every
 * line the CLI prints).
 *
 * A secret is found in every form a service or a log may give it back in: raw, URL-encoded
 * (any bytes, either case), JSON-escaped (`\"`, `\/`, `\u0041`, doubled), HTML-escaped (named,
 * decimal and hex entities), hex, and base64 or base64url at each of the three alignments (so
 * also inside `base64("user:" + token)` of basic auth), and mixtures of these. Also the forms an
 * echo takes by accident, since a service's answer or a dump gives a secret back in these too: in
 * any case (a service that lower-cases what it echoes), cut off after at least
 * {@link MIN_PREFIX} characters (an error that quotes the start of the header), hex bytes
 * separated by spaces or colons (a dump), UTF-16LE hex (a dump of a wide string), and base64
 * wrapped across lines (MIME, PEM; raw or JSON-escaped line breaks).
 * Not covered, and why: docs/guarantees.md "Token echoes not covered".
 *
 * Secrets registered with {@link registerSecret} (the token, a URL password) are redacted by
 * every call, whether or not the caller passes them, as GitHub Actions' `setSecret` masks a value
 * in every later line of a job.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** Header and property names whose values are always secrets. */
const SECRET_KEYS = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|access[-_]?token|token|password|secret|cookie|set-cookie)$/i;

/**
 * `Authorization: [scheme] <credentials>` as it appears in dumps of headers. Credentials are
 * token68 characters, at least 8 of them, so prose such as "Authorization: Bearer <token>" stays.
 */
const AUTHORIZATION_HEADER = /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+\s+)?)[A-Za-z0-9\-._~+/]{8,}=*/gi;
/** `Bearer <token>` anywhere (token68 characters, at least 8, so "bearer token" stays). */
const BEARER = /\b(bearer\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi;

/** Secrets shorter than this are not redacted (it would mangle ordinary text). */
const MIN_SECRET_LENGTH = 4;
/** Base64 of a secret is looked for only when the part that depends on the secret alone is this long. */
const MIN_BASE64_CORE = 8;
/**
 * The shortest start of a secret that is redacted on its own (a service that quotes the first
 * characters of a header), for secrets of at least {@link MIN_PREFIX_SECRET} characters: shorter
 * starts would match ordinary text too often.
 */
const MIN_PREFIX = 12;
const MIN_PREFIX_SECRET = 16;
/**
 * A line break between two base64 characters (raw, or JSON-escaped `\r\n`, `\n`), where wrapped
 * base64 is looked for in a second pass ({@link redactWrappedBase64}): an optional break between
 * every character of the main pattern made each write 3 to 5 times slower.
 */
const WRAP_BREAK = /\r?\n|(?:\\+r)?\\+n/g;
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

/** The line breaks of `text` that stand between two base64 characters. */
function wrapBreaks(text: string): Array<{ index: number; length: number }> {
  const found: Array<{ index: number; length: number }> = [];
  if (!text.includes("\n") && !text.includes("\\n")) return found;
  for (const m of text.matchAll(WRAP_BREAK)) {
    const before = text[m.index - 1];
    const after = text[m.index + m[0].length];
    if (before !== undefined && after !== undefined && BASE64_CHAR.test(before) && BASE64_CHAR.test(after)) {
      found.push({ index: m.index, length: m[0].length });
    }
  }
  return found;
}
/** Between the bytes of a hex dump. */
const HEX_SEPARATOR = String.raw`[ \t:]?`;

const registered = new Set<string>();

/**
 * Registers a secret (the token, a URL password): from now on every redaction in this process
 * removes it in every form, also where the caller does not pass it. Shorter than 4 characters:
 * ignored.
 */
export function registerSecret(secret: string | undefined): void {
  if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) registered.add(secret);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `[aA]` for a letter, the digit itself otherwise: hex digits in either case. */
function hexDigits(value: number, width: number): string {
  return [...value.toString(16).padStart(width, "0")].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");
}

/**
 * One character of a secret in any of its escapings: raw (after any backslashes: JSON, doubled
 * JSON), `\uXXXX`, its UTF-8 bytes as `%XX`, or an HTML entity (`&#NN;`, `&#xHH;`, named; also
 * after `&amp;`).
 */
function characterPattern(char: string, caseless = false): string {
  const code = char.codePointAt(0)!;
  const other = char.toLowerCase() === char ? char.toUpperCase() : char.toLowerCase();
  const raw = caseless && other !== char && other.length === char.length ? `[${escapeRegExp(char)}${escapeRegExp(other)}]` : escapeRegExp(char);
  const named: Record<string, string> = { "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" };
  const entity = [`#0*${code}`, `#[xX]0*${hexDigits(code, 1)}`, ...(named[char] === undefined ? [] : [named[char]])];
  const utf16 = char.length === 1 ? `\\\\+u${hexDigits(code, 4)}` : `\\\\+u${hexDigits(char.charCodeAt(0), 4)}\\\\+u${hexDigits(char.charCodeAt(1), 4)}`;
  const percent = [...Buffer.from(char, "utf8")].map((b) => `%${hexDigits(b, 2)}`).join("");
  return `(?:\\\\*${raw}|${utf16}|${percent}|&(?:amp;)*(?:${entity.join("|")});)`;
}

/** `text` in any escaping of each of its characters; with `between`, that may also stand between two characters. */
function escapedPattern(text: string, between = ""): string {
  return [...text].map((char) => characterPattern(char)).join(between);
}

/**
 * `secret` in any escaping of each character, or its start of at least {@link MIN_PREFIX}
 * characters (nested optional groups: the longest start present is matched).
 */
function prefixPattern(secret: string): string {
  const chars = [...secret].map((char) => characterPattern(char, true));
  if (chars.length < MIN_PREFIX_SECRET) return chars.join("");
  let tail = "";
  for (let i = chars.length - 1; i >= MIN_PREFIX; i--) tail = `(?:${chars[i]}${tail})?`;
  return chars.slice(0, MIN_PREFIX).join("") + tail;
}

/** The bytes as hex digits (either case), optionally separated as a dump separates them. */
function hexPattern(bytes: Buffer): string {
  return [...bytes].map((b) => hexDigits(b, 2)).join(HEX_SEPARATOR);
}

/**
 * The part of base64(prefix + secret) that depends on the secret alone, for prefixes of 0, 1 and
 * 2 bytes: whatever surrounds the secret, its base64 holds one of these three.
 */
function base64Cores(secret: string, encoding: "base64" | "base64url"): string[] {
  const bytes = Buffer.from(secret, "utf8");
  return [0, 1, 2].map((k) => {
    const all = Buffer.concat([Buffer.alloc(k), bytes]);
    const text = all.toString(encoding).replace(/=+$/, "");
    return text.slice(k === 0 ? 0 : k + 1, text.length - (all.length % 3 === 0 ? 0 : 1));
  });
}

/** The forms of one secret: whole (any escaping, any case, hex, base64) and its start alone. */
interface SecretForms {
  readonly whole: readonly string[];
  readonly start: string | null;
  readonly base64: RegExp | null;
}

const forms = new Map<string, SecretForms>();

function formsOf(secret: string): SecretForms {
  const cached = forms.get(secret);
  if (cached !== undefined) return cached;
  const cores = [...new Set([...base64Cores(secret, "base64"), ...base64Cores(secret, "base64url")])].filter((c) => c.length >= MIN_BASE64_CORE);
  const base64 = cores.map((core) => escapedPattern(core));
  // The secret itself in any case (letters as [aA], not the `i` flag: that made every write 4 times slower).
  const whole = [[...secret].map((char) => characterPattern(char, true)).join(""), ...base64, hexPattern(Buffer.from(secret, "utf8")), hexPattern(Buffer.from(secret, "utf16le"))];
  const found: SecretForms = { whole, start: [...secret].length < MIN_PREFIX_SECRET ? null : prefixPattern(secret), base64: base64.length === 0 ? null : new RegExp(base64.join("|"), "g") };
  forms.set(secret, found);
  return found;
}

const combined = new Map<string, RegExp>();

/**
 * One pattern for all `secrets` (longest first): every whole form of every secret before any
 * secret's start, so that where two secrets share a start (two tokens of one issuer) each is
 * removed whole, not cut at the other's start.
 */
function combinedPattern(secrets: readonly string[]): RegExp {
  const key = secrets.join("\u0000");
  const cached = combined.get(key);
  if (cached !== undefined) return cached;
  const all = secrets.map(formsOf);
  const pattern = new RegExp([...all.flatMap((f) => f.whole), ...all.flatMap((f) => (f.start === null ? [] : [f.start]))].join("|"), "g");
  if (combined.size > 64) combined.clear();
  combined.set(key, pattern);
  return pattern;
}

/**
 * Wrapped base64 of the secrets: the text is read with the line breaks between base64 characters
 * left out, and what matches there is redacted in the text itself, the breaks inside included.
 */
function redactWrappedBase64(text: string, secrets: readonly string[]): string {
  const breaks = wrapBreaks(text);
  if (breaks.length === 0) return text;
  // Positions in the joined text map back by adding the lengths of the breaks before them.
  const pieces: string[] = [];
  const offsets: Array<{ from: number; shift: number }> = [{ from: 0, shift: 0 }];
  let last = 0;
  let shift = 0;
  let length = 0;
  for (const b of breaks) {
    pieces.push(text.slice(last, b.index));
    length += b.index - last;
    shift += b.length;
    last = b.index + b.length;
    offsets.push({ from: length, shift });
  }
  pieces.push(text.slice(last));
  const joined = pieces.join("");
  /** The position in `text` of `position` in `joined`: a start after a break, an end before one. */
  const original = (position: number, end: boolean): number => {
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]!.from < position || (!end && offsets[mid]!.from === position)) lo = mid;
      else hi = mid - 1;
    }
    return position + offsets[lo]!.shift;
  };
  const ranges: Array<[number, number]> = [];
  for (const secret of secrets) {
    const pattern = formsOf(secret).base64;
    if (pattern === null) continue;
    for (const m of joined.matchAll(pattern)) ranges.push([original(m.index, false), original(m.index + m[0].length, true)]);
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let result = "";
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    result += text.slice(at, Math.max(at, start)) + REDACTED;
    at = end;
  }
  return result + text.slice(at);
}

/**
 * Removes bearer tokens and `Authorization` header values from a string, and every occurrence,
 * in every form, of the given and the registered secrets (a secret shorter than 4 characters is
 * ignored, which would mangle ordinary text).
 */
export function redactString(text: string, secrets: readonly string[] = []): string {
  let result = text.replace(AUTHORIZATION_HEADER, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
  // Longest first, so that a secret that contains another is removed whole.
  const all = [...new Set([...secrets, ...registered])].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  if (all.length > 0) result = result.replace(combinedPattern(all), REDACTED);
  return redactWrappedBase64(result, all);
}

/**
 * A deep copy of plain data with every string redacted by {@link redactString}; keys and the
 * shape stay (unlike {@link redact}, which also blanks secret-named properties). For data that is
 * written out as it is, such as a saved plan.
 */
export function redactStrings<T>(value: T, secrets: readonly string[] = []): T {
  // Most data holds no secret: one pass over all its strings at once, joined by a character no
  // pattern matches (a secret shorter than 4 characters or holding a NUL is not one), says so.
  // Where that pass changes nothing, no string alone would change either: the value is returned
  // as it is (read-only data; a copy is made only where something is redacted).
  const strings: string[] = [];
  collectStrings(value, strings);
  const joined = strings.join("\u0000");
  if (redactString(joined, secrets) === joined) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redactString(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v)]));
    return item;
  };
  return walk(value) as T;
}

function collectStrings(item: unknown, into: string[]): void {
  if (typeof item === "string") into.push(item);
  else if (Array.isArray(item)) for (const element of item) collectStrings(element, into);
  else if (item !== null && typeof item === "object") for (const element of Object.values(item)) collectStrings(element, into);
}

/**
 * Returns a redacted deep copy of any value: strings are redacted with {@link redactString},
 * values of secret-named properties (`Authorization`, `token`, ...) are replaced entirely.
 * Cycles become "[Circular]"; functions are dropped. The input is never modified.
 */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
  return redactValue(value, secrets, new WeakSet()) as T;
}

function redactValue(value: unknown, secrets: readonly string[], seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactString(value, secrets);
  if (typeof value === "function") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, seen));
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactString(value.message, secrets),
      ...(redactValue({ ...value }, secrets, seen) as Record<string, unknown>),
    };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.test(key) ? REDACTED : redactValue(item, secrets, seen);
  }
  return copy;
}
