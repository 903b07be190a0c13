/**
 * The size of a Terraform state file (issue 51): the file's bytes as Terraform wrote it, and each
 * resource instance as compact JSON (what a backend carries per resource, whatever the indentation).
 */
import { readFileSync } from "node:fs";

export interface StateSize {
  readonly fileBytes: number;
  readonly instances: number;
  /** The average instance (attributes, private data, schema version …) as compact JSON, bytes. */
  readonly instanceBytes: number;
  /** The average instance's parts as compact JSON: `users` (value and type), the private data (base64). */
  readonly usersBytes: number;
  readonly privateBytes: number;
}

export function stateSize(file: string): StateSize {
  const text = readFileSync(file, "utf8");
  const state = JSON.parse(text) as { resources?: { instances?: { attributes?: Record<string, unknown>; private?: string }[] }[] };
  const instances = (state.resources ?? []).flatMap((r) => r.instances ?? []);
  const average = (of: (instance: (typeof instances)[number]) => number): number => (instances.length === 0 ? 0 : instances.reduce((sum, i) => sum + of(i), 0) / instances.length);
  return {
    fileBytes: Buffer.byteLength(text, "utf8"),
    instances: instances.length,
    instanceBytes: average((i) => Buffer.byteLength(JSON.stringify(i), "utf8")),
    usersBytes: average((i) => Buffer.byteLength(JSON.stringify(i.attributes?.["users"] ?? null), "utf8")),
    privateBytes: average((i) => (i.private ?? "").length),
  };
}
