/**
 * Redaction of credentials, as defence in depth.
 *
 * The client never puts request headers into errors, hook events or logs in the first place;
 * these functions are applied anyway wherever text that *could* carry headers is formatted
 * (service messages, network error messages, response snippets).
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Removes bearer tokens and `Authorization` header values from a string, and every occurrence
 * of the given secrets (ignored when shorter than 4 characters, which would mangle ordinary text).
 */
export function redactString(text: string, secrets: readonly string[] = []): string {
  let result = text.replace(AUTHORIZATION_HEADER, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.replace(new RegExp(escapeRegExp(secret), "g"), REDACTED);
  }
  return result;
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
