/**
 * The two hashes Terraform records for a provider package in `.terraform.lock.hcl` and a network
 * mirror's `VERSION.json`, computed here as Terraform computes them:
 * - `h1:` (golang.org/x/mod's dirhash Hash1 over the unpacked package): the SHA-256 of the lines
 *   `SHA256HEX  NAME\n`, one per file, sorted by name, base64;
 * - `zh:`: the SHA-256 of the zip archive, hex (what the release's SHA256SUMS lists).
 */
import { createHash } from "node:crypto";
import { sortedFiles, type PackageFile } from "./package-file";

export function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function h1Hash(files: readonly PackageFile[]): string {
  const summary = sortedFiles(files)
    .map((file) => {
      if (file.name.includes("\n")) throw new Error(`dirhash: a file name with a newline: ${JSON.stringify(file.name)}`);
      return `${sha256Hex(file.data)}  ${file.name}\n`;
    })
    .join("");
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}

export function zhHash(zip: Buffer): string {
  return `zh:${sha256Hex(zip)}`;
}
