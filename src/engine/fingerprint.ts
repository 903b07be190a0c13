import { createHash } from "node:crypto";
import { compareStrings } from "./aliases";
import type { ObservedList } from "./observation";

/**
 * A stable digest of an observed list: the same list in any order gives the same fingerprint;
 * any change of list type, user ID or alias spelling gives another.
 */
export function fingerprintList(list: ObservedList): string {
  const entries = list.entries
    .map((e) => ({ u: e.userId, a: [...e.aliases].sort(compareStrings) }))
    .sort((x, y) => compareStrings(JSON.stringify(x), JSON.stringify(y)));
  const canonical = JSON.stringify({ t: list.usersToAlertOn, e: entries });
  return "sha256:" + createHash("sha256").update(canonical).digest("hex");
}
