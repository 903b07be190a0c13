/**
 * The provider offline (ALERT_RULE_USERS_PROVIDER_OFFLINE=1): it contacts no service and holds no
 * credential. A job without secrets uses it to turn a pull request's configuration into
 * declarations as plain data (`terraform plan` then `terraform show -json`, docs/provider-workflows.md).
 * Offline is a property of the run: the server (src/provider/framework/server.ts) checks it once
 * per call and answers so, for every resource type:
 *
 *   plan    the configuration as planned: every value it sets copied, every attribute only the
 *           provider computes unknown (read generically from the schema, so a new attribute follows)
 *   read    the state as it is (nothing is read)
 *   apply   refused: an offline provider writes nothing
 */
import type { Attribute, Block, ObjectValue, Value } from "../protocol";
import { Typed, UNKNOWN } from "../protocol";

export const OFFLINE_VARIABLE = "ALERT_RULE_USERS_PROVIDER_OFFLINE";

/** Whether the environment asks for the offline provider ("1" or "true"). */
export function isOffline(env: NodeJS.ProcessEnv): boolean {
  const value = (env[OFFLINE_VARIABLE] ?? "").trim().toLowerCase();
  return value === "1" || value === "true";
}

export const OFFLINE_APPLY = `The alertrules provider is offline (${OFFLINE_VARIABLE}=1): it contacts no service and applies nothing. Unset ${OFFLINE_VARIABLE} to apply.`;

/** A nested attribute's value with its computed children planned. */
function plannedNested(attribute: Attribute, value: Value): Value {
  const nested = attribute.nested;
  // a dynamic value is planned as the configuration wrote it, type and all
  if (nested === undefined || value === null || value === UNKNOWN || value instanceof Typed) return value;
  const one = (v: Value): Value => (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Typed) ? plannedObject(nested.attributes, v) : v);
  if (nested.nesting === "single") return one(value);
  if (Array.isArray(value)) return value.map(one);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)]));
  return value;
}

/**
 * The configuration as planned: what it sets, as set; what it leaves to the provider (computed,
 * not set in the configuration) unknown.
 */
export function plannedObject(attributes: readonly Attribute[], config: ObjectValue, blocks: readonly Block[] = []): ObjectValue {
  const planned: ObjectValue = {};
  for (const attribute of attributes) {
    const value = config[attribute.name] ?? null;
    planned[attribute.name] = attribute.computed === true && value === null ? UNKNOWN : plannedNested(attribute, value);
  }
  // a block (`timeouts { … }`) is planned as configured: Terraform checks that a block the
  // configuration writes is in the plan
  for (const block of blocks) {
    const value = config[block.name] ?? null;
    planned[block.name] = value === null || value === UNKNOWN || block.nesting !== "single" || typeof value !== "object" || Array.isArray(value) || value instanceof Typed ? value : plannedObject(block.attributes, value, block.blocks);
  }
  return planned;
}
