/**
 * The provider's entry of `.terraform.lock.hcl` (docs/provider.md "The lock file"), read: the
 * version and the hashes it records. Terraform writes the file (`provider lock` runs
 * `terraform providers lock`, src/io/provider-package/lock.ts); `doctor` reads it. Pure.
 */
import { PROVIDER_HOST, PROVIDER_SOURCE } from "./native-provider";

export const LOCK_FILE_NAME = ".terraform.lock.hcl";

export function lockAddress(): string {
  return `${PROVIDER_HOST}/${PROVIDER_SOURCE}`;
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
