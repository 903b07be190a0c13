import { createHash } from "node:crypto";
import type { ObservedList } from "./observation";

/**
 * A stable digest of an observed list: the same list in any order gives the same fingerprint;
 * any change of list type, user ID or alias spelling gives another.
 *
 * The digest is of `JSON.stringify({ t: listType, e: entries })` with each entry `{ u, a }`
 * (aliases sorted) and the entries sorted by their own JSON text. Each entry is serialized once
 * and the document is assembled from those texts (the same bytes as stringifying the whole), so a
 * list of n entries costs n serializations, not one per comparison of the sort. The default sort
 * order of strings is by UTF-16 code units, the order of `compareStrings`.
 */
export function fingerprintList(list: ObservedList): string {
  let fingerprint = fingerprints.get(list);
  if (fingerprint === undefined) {
    fingerprint = fingerprintOfCanonical(canonicalList(list));
    fingerprints.set(list, fingerprint);
  }
  return fingerprint;
}

/** Fingerprints by list, worked out once (a list is never changed once made: its fingerprint is its own). */
const fingerprints = new WeakMap<ObservedList, string>();

/** The fingerprint of two lists that are the same list (their texts compared, one digested), or null where they differ. */
export function sameListFingerprint(a: ObservedList, b: ObservedList): string | null {
  const known = fingerprints.get(a);
  if (known !== undefined && known === fingerprints.get(b)) return known;
  const text = canonicalList(a);
  if (text !== canonicalList(b)) return null;
  const fingerprint = fingerprintOfCanonical(text);
  fingerprints.set(a, fingerprint);
  fingerprints.set(b, fingerprint);
  return fingerprint;
}

/** The text {@link fingerprintList} digests: two lists with the same text have the same fingerprint, and two with another text another. */
export function canonicalList(list: ObservedList): string {
  const entries = list.entries
    .map((e) => `{"u":${JSON.stringify(e.userId)},"a":${JSON.stringify(e.aliases.length < 2 ? e.aliases : [...e.aliases].sort())}}`)
    .sort();
  return `{"t":${JSON.stringify(list.usersToAlertOn)},"e":[${entries.join(",")}]}`;
}

/** The fingerprint of a list's {@link canonicalList} text. */
export function fingerprintOfCanonical(canonical: string): string {
  return "sha256:" + createHash("sha256").update(canonical).digest("hex");
}
