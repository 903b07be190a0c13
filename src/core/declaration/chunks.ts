/**
 * Big user lists on the Terraform path, which a list of thousands of users must not break. The
 * `local-exec` provisioner hands the
 * declaration to the CLI in environment variables, and Linux refuses to start a process when one
 * environment string is over 128 KiB (MAX_ARG_STRLEN: `argument list too long`) or when the
 * arguments and environment together pass ARG_MAX (a quarter of the stack limit: 2 MiB by default).
 *
 * So the canonical users JSON is carried whole while it fits in one chunk (the triggers of such
 * lists stay byte-identical to format 1, so they do not re-run after an upgrade), and otherwise
 * split at UTF-8 character boundaries into chunks of at most {@link USERS_CHUNK_BYTES}, in triggers
 * `users_0`..`users_<n-1>` with their count in `users_chunks` (format 2), passed as
 * `ALERT_RULE_USERS_USERS_0`.. and `ALERT_RULE_USERS_USERS_COUNT`. Chunking is a function of the
 * JSON alone, so an unchanged list keeps unchanged triggers. A list over {@link MAX_USERS_BYTES}
 * cannot be passed at all: synth refuses it ({@link usersSizeFailures}).
 */

/** The most UTF-8 bytes of users JSON in one trigger and one environment variable (half of 128 KiB). */
export const USERS_CHUNK_BYTES = 64 * 1024;

/**
 * The most UTF-8 bytes of users JSON one list may have: the provisioner's whole environment must
 * stay under ARG_MAX (2 MiB with the default 8 MiB stack), and the environment of `terraform apply`
 * itself (PATH, CI variables, ...) is inherited beside it. 1.5 MiB leaves 512 KiB for that.
 */
export const MAX_USERS_BYTES = 1536 * 1024;

/** The most chunks a users list can have (24): more would be over {@link MAX_USERS_BYTES}. */
export const MAX_USERS_CHUNKS = Math.ceil(MAX_USERS_BYTES / USERS_CHUNK_BYTES);

/** How a chunked value is named in one medium (triggers or environment). */
export interface ChunkNaming {
  /** The name of the value when it is carried whole. */
  readonly whole: string;
  /** The name of the number of chunks. */
  readonly count: string;
  /** The name of chunk `index`. */
  chunk(index: number): string;
  /** The index of a chunk name, or undefined when `name` is not one. */
  indexOf(name: string): number | undefined;
}

/** Chunks named `<whole>_<index>`, their number `countName`. */
export function chunkNaming(whole: string, countName: string): ChunkNaming {
  const pattern = new RegExp(`^${whole}_(0|[1-9][0-9]*)$`);
  return {
    whole,
    count: countName,
    chunk: (index) => `${whole}_${index}`,
    indexOf: (name) => {
      const match = pattern.exec(name);
      return match === null ? undefined : Number(match[1]);
    },
  };
}

/** The number of bytes of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * `text` split into consecutive pieces of at most `maxBytes` UTF-8 bytes each, never inside a
 * character; one piece (possibly empty) when it fits.
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes && index > start) {
      chunks.push(text.slice(start, index));
      start = index;
      bytes = 0;
    }
    bytes += size;
    index += char.length;
  }
  chunks.push(text.slice(start));
  return chunks;
}

/**
 * Reads a value that is either whole (`naming.whole`) or chunked (`naming.count` and the chunks),
 * as `chunked` says. Returns the value, or the failures naming each missing, extra or malformed
 * name; undefined value and no failures when the whole value is simply absent (the caller reports
 * it as missing).
 */
export function readChunked(
  source: Readonly<Record<string, string | undefined>>,
  naming: ChunkNaming,
  chunked: boolean,
  label: (name: string) => string = (name) => name,
): { value: string | undefined; failures: string[] } {
  const whole = label(naming.whole);
  const countName = label(naming.count);
  const chunkNames = Object.keys(source)
    .filter((name) => source[name] !== undefined)
    .map((name) => ({ name, index: naming.indexOf(name) }))
    .filter((entry): entry is { name: string; index: number } => entry.index !== undefined)
    .sort((a, b) => a.index - b.index);
  if (!chunked) {
    const stray = [...(source[naming.count] !== undefined ? [naming.count] : []), ...chunkNames.map((c) => c.name)];
    return {
      value: source[naming.whole],
      failures: stray.map((name) => `${label(name)}: is set, but this format carries the users whole in ${whole}; synthesize again with this version of alert-rule-users`),
    };
  }
  const failures: string[] = [];
  if (source[naming.whole] !== undefined) {
    failures.push(`${whole}: is set beside ${countName}; a list carries its users whole or in chunks, not both. Synthesize again`);
  }
  const countText = source[naming.count];
  if (countText === undefined) {
    return { value: undefined, failures: [...failures, `${countName}: is missing; it gives the number of chunks of the users list. Synthesize again with this version of alert-rule-users`] };
  }
  // Bounded before anything is built from it: a count of 999999 must be a message, not 999999 failures.
  if (!/^[1-9][0-9]{0,2}$/.test(countText) || Number(countText) > MAX_USERS_CHUNKS) {
    return {
      value: undefined,
      failures: [
        ...failures,
        `${countName}: must be a positive whole number, got ${JSON.stringify(countText.slice(0, 40))}; a list has at most ${MAX_USERS_CHUNKS} chunks ` +
          `(${MAX_USERS_BYTES / 1024} KiB of users JSON in chunks of ${USERS_CHUNK_BYTES / 1024} KiB). Synthesize again with this version of alert-rule-users`,
      ],
    };
  }
  const count = Number(countText);
  // Loops, not push(...list): no failure list is ever spread into function arguments.
  for (let i = 0; i < count; i++) {
    const name = naming.chunk(i);
    if (source[name] === undefined) failures.push(`${label(name)}: is missing (${countName} is ${count}); the users list is incomplete. Synthesize and apply again`);
  }
  for (const c of chunkNames) {
    if (c.index >= count) {
      failures.push(`${label(c.name)}: is set, but ${countName} is ${count} (chunks ${label(naming.chunk(0))}..${label(naming.chunk(count - 1))}); remove it or synthesize again`);
    }
  }
  if (failures.length > 0) return { value: undefined, failures };
  return { value: Array.from({ length: count }, (_, i) => source[naming.chunk(i)] ?? "").join(""), failures: [] };
}

/**
 * The failure of a users JSON too big for the provisioner's environment, for synth: the size, the
 * limit and what to do. Empty when it fits.
 */
export function usersSizeFailures(json: string, userCount: number): string[] {
  const bytes = utf8Length(json);
  if (bytes <= MAX_USERS_BYTES) return [];
  return [
    `users: ${userCount} users make ${bytes} bytes of JSON, over the ${MAX_USERS_BYTES} bytes (1.5 MiB) that terraform apply can pass to the CLI ` +
      "(the local-exec provisioner passes them in its environment, which Linux caps at 2 MiB in all); that is about 13,000 users with 2 aliases of some 30 characters each. " +
      "Split the users across several rules, or remove users that no longer need to be listed",
  ];
}
