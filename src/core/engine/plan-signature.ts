/**
 * Signed plans (docs/contract.md §9.3, beyond Terraform): an HMAC-SHA256 over the plan's canonical JSON,
 * with a key only the plan and apply jobs hold, so the apply job can prove the plan came from the
 * plan job. The checksum proves only that a file is intact; anyone can recompute it. Pure: the key
 * is passed in; reading it (and keeping it secret) is the workflow's part (src/io/workflow/steps/plan-key.ts).
 * Works on any plan object (plan-schema.ts uses it to write documents), so it imports nothing of
 * the plan schema.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "./canonical-json";

export const SIGNATURE_PREFIX = "hmac-sha256:";

/** What a parsed plan document may carry besides the plan itself. */
interface DocumentFields {
  readonly checksum?: string;
  readonly signature?: string;
}

/** The plan without its document fields (checksum, signature): what the checksum and the signature cover. */
export function planContent<P extends object>(plan: P): P {
  const { checksum: _checksum, signature: _signature, ...content } = plan as P & DocumentFields;
  void _checksum;
  void _signature;
  return content as P;
}

/** `hmac-sha256:<hex>` of the plan's canonical JSON (document fields left out) under `key`. */
export function signPlan(plan: object, key: string): string {
  return SIGNATURE_PREFIX + createHmac("sha256", key).update(canonicalJson(planContent(plan))).digest("hex");
}

/** The signature a parsed plan document carries, or null. */
export function planSignature(plan: object): string | null {
  return (plan as DocumentFields).signature ?? null;
}

export type SignatureCheck = "valid" | "unsigned" | "invalid";

/** Whether the plan carries a signature made with `key` over exactly this content (compared in constant time). */
export function checkPlanSignature(plan: object, key: string): SignatureCheck {
  const given = planSignature(plan);
  if (given === null) return "unsigned";
  const expected = Buffer.from(signPlan(plan, key));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? "valid" : "invalid";
}
