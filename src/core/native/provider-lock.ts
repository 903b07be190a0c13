/**
 * The provider's entry of `.terraform.lock.hcl` (docs/provider.md "Install"): the version and the
 * `h1:` and `zh:` hashes of every platform's package, so that one committed lock file passes
 * `terraform init -lockfile=readonly` on Linux, macOS and CI alike. Pure: the file's text in, the
 * text out; every other provider's entry is kept as it is.
 */
import { PROVIDER_HOST, PROVIDER_SOURCE } from "./native-provider";

export const LOCK_FILE_NAME = ".terraform.lock.hcl";

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

export function lockAddress(): string {
  return `${PROVIDER_HOST}/${PROVIDER_SOURCE}`;
}

/** The entry Terraform itself would write: hashes sorted and unique. */
export function lockEntry(version: string, hashes: readonly string[]): string {
  const sorted = [...new Set(hashes)].sort();
  return `provider "${lockAddress()}" {\n  version = "${version}"\n  hashes = [\n${sorted.map((h) => `    "${h}",\n`).join("")}  ]\n}\n`;
}

/** The lock file with this provider's entry set (added, or replaced where one is). */
export function withLockEntry(existing: string | null, version: string, hashes: readonly string[]): string {
  const entry = lockEntry(version, hashes);
  if (existing === null || existing.trim() === "") return `${HEADER}\n${entry}`;
  const lines = existing.split("\n");
  const start = lines.findIndex((line) => line.trim() === `provider "${lockAddress()}" {`);
  if (start < 0) return `${existing.replace(/\n*$/, "\n")}\n${entry}`;
  let end = start + 1;
  while (end < lines.length && lines[end] !== "}") end++;
  return [...lines.slice(0, start), entry.replace(/\n$/, ""), ...lines.slice(end + 1)].join("\n");
}

/** The version and hashes this provider's entry records; null when there is none. */
export function readLockEntry(text: string): { version: string; hashes: string[] } | null {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `provider "${lockAddress()}" {`);
  if (start < 0) return null;
  let version = "";
  const hashes: string[] = [];
  for (let i = start + 1; i < lines.length && lines[i] !== "}"; i++) {
    const line = lines[i] ?? "";
    const v = /^\s*version\s*=\s*"([^"]*)"/.exec(line);
    if (v !== null) version = v[1] ?? "";
    for (const h of line.matchAll(/"((?:h1|zh):[^"]+)"/g)) hashes.push(h[1] ?? "");
  }
  return { version, hashes };
}
