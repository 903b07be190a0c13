/**
 * Signed plans (docs/contract.md §9.3, beyond Terraform): an HMAC-SHA256 over the plan's canonical JSON,
 * with a key only the plan and apply jobs hold, so the apply job can prove the plan came from the
 * plan job. The checksum proves only that a file is intact; anyone can recompute it. Pure: the key
 * is passed in; reading it (and keeping it secret) is the workflow's part (src/io/workflow/steps/plan-key.ts).
 * Works on any plan object (plan-schema.ts uses it to write documents), so it imports nothing of
 * the plan schema.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Hmac } from "node:crypto";
import { PlanFileError } from "../../errors";
import { PLAN_KEY_VARIABLE } from "../../shared/secret-variables";
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
  const mac: Hmac = createHmac("sha256", key);
  return SIGNATURE_PREFIX + mac.update(canonicalJson(planContent(plan))).digest("hex");
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

/**
 * With a key: refuses a saved plan that is unsigned or not signed with it. Without: a signed plan
 * is applied with a warning that its signature was not checked.
 */
export function checkSavedPlanSignature(plan: object, key: string | undefined, file: string, warn: (message: string) => void): void {
  if (key === undefined) {
    if (planSignature(plan) !== null) {
      warn(`${file} is signed, but ${PLAN_KEY_VARIABLE} is not set: its signature was not checked.`);
    }
    return;
  }
  switch (checkPlanSignature(plan, key)) {
    case "valid":
      return;
    case "unsigned":
      throw new PlanFileError(
        `nothing was applied: ${file} is not signed, and ${PLAN_KEY_VARIABLE} is set, so only plans signed with that key are applied. ` +
          `Make the plan with the same ${PLAN_KEY_VARIABLE} set in the plan job (plan --out FILE signs it).`,
      );
    case "invalid":
      throw new PlanFileError(
        `nothing was applied: the signature of ${file} does not match ${PLAN_KEY_VARIABLE}: the plan was signed with another key, ` +
          `or edited after it was signed. Plan again with the key of this apply job and apply that file unmodified.`,
      );
  }
}
