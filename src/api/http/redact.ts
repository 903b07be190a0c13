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
 * also inside `base64("user:" + token)` of basic auth), and mixtures of these.
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
function characterPattern(char: string): string {
  const code = char.codePointAt(0)!;
  const named: Record<string, string> = { "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" };
  const entity = [`#0*${code}`, `#[xX]0*${hexDigits(code, 1)}`, ...(named[char] === undefined ? [] : [named[char]])];
  const utf16 = char.length === 1 ? `\\\\+u${hexDigits(code, 4)}` : `\\\\+u${hexDigits(char.charCodeAt(0), 4)}\\\\+u${hexDigits(char.charCodeAt(1), 4)}`;
  const percent = [...Buffer.from(char, "utf8")].map((b) => `%${hexDigits(b, 2)}`).join("");
  return `(?:\\\\*${escapeRegExp(char)}|${utf16}|${percent}|&(?:amp;)*(?:${entity.join("|")});)`;
}

/** `text` in any escaping of each of its characters. */
function escapedPattern(text: string): string {
  return [...text].map(characterPattern).join("");
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

const patterns = new Map<string, RegExp>();

/** One pattern that matches `secret` in every form listed at the top of this file. */
export function secretPattern(secret: string): RegExp {
  const cached = patterns.get(secret);
  if (cached !== undefined) return cached;
  const cores = [...new Set([...base64Cores(secret, "base64"), ...base64Cores(secret, "base64url")])].filter((c) => c.length >= MIN_BASE64_CORE);
  const hex = Buffer.from(secret, "utf8").toString("hex");
  const forms = [escapedPattern(secret), ...cores.map(escapedPattern), [...hex].map((d) => hexDigits(parseInt(d, 16), 1)).join("")];
  const pattern = new RegExp(forms.join("|"), "g");
  patterns.set(secret, pattern);
  return pattern;
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
  for (const secret of all) result = result.replace(secretPattern(secret), REDACTED);
  return result;
}

/**
 * A deep copy of plain data with every string redacted by {@link redactString}; keys and the
 * shape stay (unlike {@link redact}, which also blanks secret-named properties). For data that is
 * written out as it is, such as a saved plan.
 */
export function redactStrings<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redactString(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v)]));
    return item;
  };
  return walk(value) as T;
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
